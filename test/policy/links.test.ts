import { describe, expect, it } from "vitest";
import { PolicyDenied } from "../../src/policy/denied";
import { type LinkView, MAX_LINK_HOPS, followLinks, resolveMachinePath, resolvePath } from "../../src/policy/paths";
import { isVfsError } from "../../src/vfs/errors";

/** A workspace's links as a table: path → target text. */
const view = (links: Record<string, string>, followLast = true): LinkView => ({ linkAt: (p) => links[p], followLast });

const LINKS = {
  "/workspace/cur": "releases/v2",
  "/workspace/abs": "/workspace/releases/v1",
  "/workspace/releases/v2/up": "../v1",
  "/workspace/tmp": "/tmp",
  "/workspace/etc": "../../etc",
  "/workspace/out": "../..",
  "/workspace/var": "/var/log",
  "/workspace/a": "b",
  "/workspace/b": "a",
};

function refusal(fn: () => string): string {
  try {
    return `ok ${fn()}`;
  } catch (e) {
    if (e instanceof PolicyDenied) return e.denial.rule;
    if (isVfsError(e)) return e.code;
    throw e;
  }
}

describe("path resolution through symbolic links", () => {
  it.each([
    ["cur/x", "/workspace/releases/v2/x"],
    ["abs", "/workspace/releases/v1"],
    ["cur/up/f", "/workspace/releases/v1/f"],
    ["cur/../x", "/workspace/releases/x"], // .. climbs from where the link led, as the kernel does
    ["tmp/f", "/tmp/f"],
    ["etc/passwd", "/etc/passwd"],
  ])("the machine view follows %s to %s", (input, want) => {
    expect(resolveMachinePath("/workspace", input, view(LINKS))).toBe(want);
  });

  it("leaves the last link alone when asked (lstat, unlink, rename)", () => {
    expect(resolveMachinePath("/workspace", "cur", view(LINKS, false))).toBe("/workspace/cur");
    expect(resolveMachinePath("/workspace", "cur/up", view(LINKS, false))).toBe("/workspace/releases/v2/up");
    expect(resolveMachinePath("/workspace", "cur/", view(LINKS, false))).toBe("/workspace/releases/v2");
  });

  it.each([
    ["var", "path-unavailable"],
    ["a", "ELOOP"],
    ["a/x", "ELOOP"],
  ])("the machine view refuses %s (%s)", (input, rule) => {
    expect(refusal(() => resolveMachinePath("/workspace", input, view(LINKS)))).toBe(rule);
  });

  it.each([
    ["tmp/f", "symlink-outside-workspace"],
    ["etc/passwd", "symlink-outside-workspace"],
    ["out/tmp/x", "symlink-outside-workspace"],
    ["out/workspace/x", "ok /workspace/x"],
    ["var", "symlink-outside-workspace"],
    ["a", "ELOOP"],
    ["cur/x", "ok /workspace/releases/v2/x"],
    ["abs", "ok /workspace/releases/v1"],
  ])("the file tools' view keeps %s inside /workspace (%s)", (input, want) => {
    expect(refusal(() => resolvePath("/workspace", input, view(LINKS)))).toBe(want);
  });

  it("names the link and where it leads in the refusal", () => {
    expect(() => resolvePath("/workspace", "tmp/f", view(LINKS))).toThrow(/'tmp\/f' goes through a symbolic link to '\/tmp\/f', outside the workspace/);
    expect(() => resolveMachinePath("/workspace", "var", view(LINKS))).toThrow(
      /'var' is a symbolic link \(or goes through one\) to \/var\/log, and \/var\/log is not available/,
    );
  });

  it(`gives up after ${MAX_LINK_HOPS} links, as Linux does`, () => {
    const chain: Record<string, string> = {};
    for (let i = 0; i < 45; i++) chain[`/workspace/l${i}`] = `l${i + 1}`;
    expect(followLinks("/workspace/l5", view(chain))).toBe("/workspace/l45");
    expect(() => followLinks("/workspace/l0", view(chain))).toThrow(/Too many levels of symbolic links/);
  });
});
