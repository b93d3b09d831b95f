import { describe, expect, it } from "vitest";
import { PolicyDenied } from "../../src/policy/denied";
import { resolvePath } from "../../src/policy/paths";

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
