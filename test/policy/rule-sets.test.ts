// Profile rule sets: which command rules a session enforces, as data the policy takes.
import { describe, expect, it } from "vitest";
import { checkCommand } from "../../src/policy/commands";
import { FULL_DENY_LIST, PROTECTIVE, sessionPolicy } from "../../src/policy/rule-sets";

const networkOff = sessionPolicy({ ...PROTECTIVE, shellNetwork: false }).commandRules;
const rule = (argv: string[], rules: ReadonlySet<string>) => checkCommand(argv, { rules })?.rule ?? null;

describe("shell-network (profiles with the network off)", () => {
  it.each([
    [["curl", "-s", "http://example.com"], "shell-network"],
    [["wget", "x"], "shell-network"],
    [["ssh", "host"], "shell-network"],
    [["git", "clone", "http://h/r.git"], "shell-network"],
    [["git", "-C", "repo", "fetch"], "shell-network"],
    [["rsync", "-a", "src/", "host:dst/"], "shell-network"],
    [["nice", "curl", "x"], "shell-network"],
    [["git", "status"], null],
    [["rsync", "-a", "src/", "dst/"], null],
    [["echo", "curl http://x"], null],
  ])("%j → %s", (argv, want) => {
    expect(rule(argv, networkOff)).toBe(want);
    expect(rule(argv, sessionPolicy(PROTECTIVE).commandRules)).toBe(null);
  });
});

it("environment dumps are refused only where the rule set has env-dump", () => {
  expect(rule(["env"], sessionPolicy(FULL_DENY_LIST).commandRules)).toBe("env-dump");
  expect(rule(["env"], sessionPolicy(PROTECTIVE).commandRules)).toBe(null);
  // The protective rules stay in every set.
  expect(rule(["rm", "-rf", "/"], sessionPolicy(PROTECTIVE).commandRules)).toBe("rm-root");
  // Without a rule set (callers outside a session) every COMMAND_RULES rule applies.
  expect(checkCommand(["env"])?.rule).toBe("env-dump");
});

describe("dd judged by effect in the protective set, by form where a platform documents `dd if=`", () => {
  const protective = sessionPolicy(PROTECTIVE).commandRules;
  const full = sessionPolicy(FULL_DENY_LIST).commandRules;
  it.each([
    [["dd", "if=/dev/zero", "of=f", "bs=1K", "count=10"], null],
    [["dd", "if=/dev/urandom", "of=/tmp/r.bin", "bs=1M", "count=1"], null],
    [["dd", "if=/dev/random", "of=data/r", "count=1"], null],
    [["dd", "if=a.img", "of=b.img"], null],
    [["dd", "if=/dev/sda", "of=disk.img"], "block-device-write"],
    [["dd", "if=/dev/zero", "of=/dev/nvme0n1"], "block-device-write"],
    [["dd", "if=/dev/mem", "of=mem.bin"], "block-device-write"],
    [["dd", "if=/dev/port", "of=x"], "block-device-write"],
    [["sudo", "dd", "if=/dev/zero", "of=/dev/sdb"], "block-device-write"],
  ])("%j → %s", (argv, want) => {
    expect(rule(argv, protective)).toBe(want);
    // LibertAI's page lists `dd if=` itself: every form stays refused there.
    expect(rule(argv, full)).toBe("dd-if");
  });
});

it("scrubs session variables by the profile's name globs, case-insensitively", () => {
  const policy = sessionPolicy({ ...PROTECTIVE, scrubEnv: ["*_API_KEY", "*_TOKEN"] });
  expect(policy.scrub({ OPENAI_API_KEY: "a", gh_token: "b", TOKEN_COUNT: "3", KEEP: "1" })).toEqual({ TOKEN_COUNT: "3", KEEP: "1" });
});

describe("answers with remembered argument resolution (a loop asks about the same words many times)", () => {
  it.each([
    // asked twice: the second answer comes from memory and must be the same
    [["curl", "x"], networkOff, "shell-network"],
    [["curl", "x"], sessionPolicy(PROTECTIVE).commandRules, null],
    [["cat", ".env"], networkOff, "dotenv"],
    [["cat", ".env"], networkOff, "dotenv"],
    // argument boundaries are part of what is remembered
    [["cat", ".e", "nv"], networkOff, null],
    [["cat", ".e\0nv"], networkOff, null],
  ])("%j", (argv, rules, want) => {
    expect(rule(argv, rules)).toBe(want);
    expect(rule(argv, rules)).toBe(want);
  });

  it("the same line is judged against each home and working directory", () => {
    expect(checkCommand(["rm", "-rf", ".."], { home: "/workspace/a", cwd: "/workspace/a" })?.rule).toBe("rm-root");
    expect(checkCommand(["rm", "-rf", ".."], { home: "/workspace", cwd: "/workspace/a/b" })).toBe(null);
  });
});
