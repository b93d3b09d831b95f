import { describe, expect, it } from "vitest";
import { checkEnvAssignment, checkEnvName, filterEnv, isSecretLikeName } from "../../src/policy/env";

const blocked: Array<[string, string]> = [
  ["LD_PRELOAD", "env-loader-hook"],
  ["LD_LIBRARY_PATH", "env-loader-hook"],
  ["LD_AUDIT", "env-loader-hook"],
  ["DYLD_INSERT_LIBRARIES", "env-loader-hook"],
  ["DYLD_LIBRARY_PATH", "env-loader-hook"],
  ["PYTHONPATH", "env-interpreter-hook"],
  ["PYTHONSTARTUP", "env-interpreter-hook"],
  ["NODE_OPTIONS", "env-interpreter-hook"],
  ["RUBYOPT", "env-interpreter-hook"],
  ["PERL5OPT", "env-interpreter-hook"],
  ["PERL5LIB", "env-interpreter-hook"],
  ["JAVA_TOOL_OPTIONS", "env-interpreter-hook"],
  ["_JAVA_OPTIONS", "env-interpreter-hook"],
  ["BASH_ENV", "env-shell-hook"],
  ["ENV", "env-shell-hook"],
  ["SHELLOPTS", "env-shell-hook"],
  ["BASHOPTS", "env-shell-hook"],
  ["PS4", "env-shell-hook"],
  ["IFS", "env-shell-hook"],
  ["PROMPT_COMMAND", "env-shell-hook"],
  ["BASH_FUNC_foo%%", "env-exported-function"],
  ["BASH_FUNC_foo", "env-exported-function"],
  ["foo%%", "env-exported-function"],
  ["", "env-invalid-name"],
  ["1ABC", "env-invalid-name"],
  ["A-B", "env-invalid-name"],
  ["A B", "env-invalid-name"],
  ["A=B", "env-invalid-name"],
  ["A\0B", "env-invalid-name"],
  ["ÄPFEL", "env-invalid-name"],
];

const allowed = ["PATH", "HOME", "LANG", "NODE_ENV", "PYTHONUNBUFFERED", "LDFLAGS", "MY_LD_PRELOAD", "ENVIRONMENT", "_", "a1", "TERM", "CI"];

describe("checkEnvName", () => {
  it.each(blocked)("%j → %s", (name, rule) => {
    const d = checkEnvName(name);
    expect(d?.rule).toBe(rule);
    expect(d?.reason).toMatch(/^Refused: /);
  });
  it.each(allowed)("%s is allowed", (name) => expect(checkEnvName(name)).toBeNull());
  it("shows an invalid name quoted and never raw control characters", () => {
    expect(checkEnvName("A\nB")?.reason).toContain('"A\\nB"');
  });
});

describe("checkEnvAssignment", () => {
  it.each([
    ["X", "() { :; }; echo pwned", "env-exported-function"],
    ["X", "(){ echo hi; }", "env-exported-function"],
    ["X", "a\0b", "env-value-nul"],
    ["LD_PRELOAD", "/x.so", "env-loader-hook"],
  ])("%s=%j → %s", (name, value, rule) => expect(checkEnvAssignment(name, value)?.rule).toBe(rule));
  it.each([
    ["X", "echo () { hi }"],
    ["GREETING", "hello world"],
    ["EMPTY", ""],
  ])("%s=%j is allowed", (name, value) => expect(checkEnvAssignment(name, value)).toBeNull());
});

describe("isSecretLikeName", () => {
  it.each([
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "github_token",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID",
    "CLIENT_SECRET",
    "DB_PASSWORD",
    "PGPASSWORD",
    "MYSQL_ROOT_PASSWORD",
    "TOOLSHED_API_KEYS",
    "TOOLSHED_ANYTHING",
    "API_KEY",
    "STRIPE_KEY",
    "SECRET",
  ])("%s is secret-like", (name) => expect(isSecretLikeName(name)).toBe(true));
  it.each(["PATH", "HOME", "TOKENIZER_PARALLELISM", "KEYBOARD", "NODE_ENV", "PASSTHROUGH", "LANG"])("%s is not", (name) => expect(isSecretLikeName(name)).toBe(false));
});

describe("filterEnv", () => {
  it("keeps ordinary variables and drops secrets, hooks and bad names, reporting only names", () => {
    const { env, dropped } = filterEnv({
      PATH: "/bin",
      HOME: "/workspace",
      OPENAI_API_KEY: "sk-123",
      TOOLSHED_API_KEYS: "alice=k",
      LD_PRELOAD: "/x.so",
      "BASH_FUNC_x%%": "() { :; }",
      "bad name": "1",
      FN: "() { :; }",
    });
    expect(env).toEqual({ PATH: "/bin", HOME: "/workspace" });
    expect(dropped.map((d) => d.rule).sort()).toEqual([
      "env-exported-function",
      "env-exported-function",
      "env-invalid-name",
      "env-loader-hook",
      "env-secret",
      "env-secret",
    ]);
    expect(JSON.stringify(dropped)).not.toContain("sk-123");
  });
});
