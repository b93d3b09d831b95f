import { describe, expect, it } from "vitest";
import { PolicyDenied } from "../../src/policy/denied";
import { AbsentPath, resolveMachinePath, resolvePath } from "../../src/policy/paths";

const CWD = "/workspace/proj";

const allowed: Array<[string, string]> = [
  ["a.txt", "/workspace/proj/a.txt"],
  ["./a.txt", "/workspace/proj/a.txt"],
  ["sub/../a.txt", "/workspace/proj/a.txt"],
  ["..", "/workspace"],
  ["../other/x", "/workspace/other/x"],
  ["/workspace", "/workspace"],
  ["/workspace/", "/workspace"],
  ["/workspace/a//b/./c", "/workspace/a/b/c"],
  ["%2e%2e/%2e%2e/etc", "/workspace/proj/%2e%2e/%2e%2e/etc"],
  ["..%2f..%2fetc", "/workspace/proj/..%2f..%2fetc"],
  ["name with spaces", "/workspace/proj/name with spaces"],
  ["ünïcødé.txt", "/workspace/proj/ünïcødé.txt"],
];

const refused: Array<[string, string]> = [
  ["../../etc/passwd", "path-traversal"],
  ["../..", "path-traversal"],
  ["a/../../../..", "path-traversal"],
  ["/etc/passwd", "path-outside-workspace"],
  ["/", "path-outside-workspace"],
  ["/workspace2", "path-outside-workspace"],
  ["/workspace2/x", "path-outside-workspace"],
  ["/workspaces", "path-outside-workspace"],
  ["/workspace/../etc", "path-traversal"],
  ["/workspace/a/../../etc", "path-traversal"],
  ["//workspace/x", "path-outside-workspace"],
  ["/proc/self/environ", "path-outside-workspace"],
  ["a\0b", "path-nul"],
  ["\0", "path-nul"],
  ["", "path-empty"],
  [`${"d/".repeat(200)}x`, "path-too-deep"],
  ["x".repeat(300), "path-name-too-long"],
  ["a/".repeat(2100), "path-too-long"],
];

describe("path policy", () => {
  it.each(allowed)("resolves %j", (input, expected) => {
    expect(resolvePath(CWD, input)).toBe(expected);
  });

  it.each(refused)("refuses %j (%s)", (input, rule) => {
    let caught: unknown;
    try {
      resolvePath(CWD, input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PolicyDenied);
    expect((caught as PolicyDenied).rule).toBe(rule);
  });
});

// The machine view: a path a Debian box lacks too is absent (ENOENT), and creating it stays
// refused where its directory exists; what Debian has (and the sandbox does not show) is refused.
describe("paths outside the machine view", () => {
  const outcome = (input: string): string => {
    try {
      return resolveMachinePath("/workspace", input);
    } catch (e) {
      if (e instanceof AbsentPath) return e.denial ? `absent, creating refused (${e.denial.rule})` : "absent";
      if (e instanceof PolicyDenied) return `refused (${e.rule})`;
      throw e;
    }
  };
  it.each([
    ["/nonexistent", "absent, creating refused (path-unavailable)"],
    ["/nonexistent/x", "absent"],
    ["/nope/a/b", "absent"],
    ["/var/nope", "absent, creating refused (path-unavailable)"],
    ["/home/x", "absent, creating refused (path-unavailable)"],
    ["/home/x/.bashrc", "absent"],
    ["/opt/tool", "absent, creating refused (path-unavailable)"],
    ["/TMP/x", "absent"],
    ["/root", "refused (path-unavailable)"],
    ["/root/.ssh/id_rsa", "refused (path-unavailable)"],
    ["/var/log/syslog", "refused (path-unavailable)"],
    ["/sys/kernel", "refused (path-unavailable)"],
    ["/home", "refused (path-unavailable)"],
    ["/tmp/x", "/tmp/x"],
    ["/etc/shadow", "/etc/shadow"],
  ])("%s: %s", (input, want) => {
    expect(outcome(input)).toBe(want);
  });
});
