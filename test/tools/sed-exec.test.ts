import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { Workspace } from "../../src/vfs/workspace";
import { sedMayExecute } from "../../src/wasi/sed-exec";
import { newSession, tool } from "../helpers";

/**
 * sed's e command and s///e flag run their command through the session's shell (/dev/toolshed,
 * src/tools/shell/program-host.ts): what bash refuses, sed's command is refused the same way.
 * What the commands print is compared with Debian's sed in test/realism/cases.mjs.
 */
describe("sed e under the session's command rules", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
    // A .env that holds a secret, put in place behind the tools' back (as test/policy/write-doors.test.ts).
    await runInDurableObject(sessionStub(env, "alice", id), (_o, state) => {
      new Workspace(state.storage, { maxBytes: 1 << 30, maxFiles: 100_000 }).writeFile("/workspace/.env", "SECRET=s3cret\n");
    });
  }, 120_000);
  const bash = (command: string) => tool(id, "bash", { command });

  it("refuses `cat .env` from sed e and s///e exactly as bash does: same stderr, same rule", async () => {
    const direct = await bash("cat .env");
    expect(direct.denied).toBeDefined();
    expect(direct.stdout).toBe("");
    for (const command of ["echo 'cat .env' | sed e", "echo .env | sed 's/^/cat /e'"]) {
      const r = await bash(command);
      // GNU sed ignores the command's status: the pattern space is its (empty) output.
      expect({ stdout: r.stdout, stderr: r.stderr, exit: r.exit_code, rule: r.denied?.rule }, command).toEqual({
        stdout: "\n",
        stderr: direct.stderr,
        exit: 0,
        rule: direct.denied.rule,
      });
    }
    const e = await bash("echo x | sed '1e cat .env'");
    expect({ stdout: e.stdout, stderr: e.stderr, rule: e.denied?.rule }).toEqual({ stdout: "x\n", stderr: direct.stderr, rule: direct.denied.rule });
    expect(JSON.stringify(e)).not.toContain("s3cret");
  });

  it("runs in the session: its cwd, its files, a pipeline on both sides", async () => {
    const r = await bash("mkdir -p d && cd d && printf 'one\\n' > f.txt && printf 'cat f.txt\\npwd\\n' | sed e | cat -n");
    expect(r).toMatchObject({ exit_code: 0, stdout: "     1\tone\n     2\t/workspace/d\n", stderr: "" });
  });

  it("where sed has no way to the session (run by xargs), says to pipe the commands to bash", async () => {
    const r = await bash("printf 'echo hi\\n' > cmds; echo cmds | xargs sed e");
    expect(r.stderr).toContain("pipe them to bash");
    expect(r.exit_code).not.toBe(0);
  });

  it("gives the device only to sed runs whose script may use e", () => {
    for (const args of [
      ["e"],
      ["1e echo first"],
      ["s/.*/expr & + 1/e"],
      ["-n", "s/a/b/gep"],
      ["/x/Ie"],
      ["--expression=$!e"],
      ["-f", "x.sed"],
      ["-es/a/b/e"],
      ["s/a/b/ew out.txt"],
      ["N;e"],
    ]) {
      expect(sedMayExecute(args), args.join(" ")).toBe(true);
    }
    for (const args of [
      ["s/hello/world/"],
      ["-e", "s/x/y/", "f.txt"],
      ["-ne", "p"],
      ["-i", "s/time/x/g", "file"],
      ["-E", "s/(ab)+/x/"],
      ["s/here/there/g"],
      ["/error/d"],
      ["-n", "/^#/!p", "Makefile"],
    ]) {
      expect(sedMayExecute(args), args.join(" ")).toBe(false);
    }
  });
});
