// ps and nohup: the session's processes are the shell and its running background jobs.
import { describe, it, expect } from "vitest";
import { runShell } from "../../src/shell/index";
import { MemoryHost } from "../../src/shell/memory-host";

const dec = new TextDecoder();

async function run(script: string) {
  const host = new MemoryHost({ files: {}, programs: {}, now: () => Date.UTC(2026, 0, 2, 15, 4, 5) });
  const r = await runShell(script, { host, cwd: "/workspace", env: { HOME: "/home/u" } });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

// [script, stdout (string or pattern), stderr pattern, exit status]
const CASES: [string, string | RegExp, RegExp | null, number][] = [
  ["ps", /^ {4}PID TTY {10}TIME CMD\n +\d+ \? {8}00:00:00 bash\n +\d+ \? {8}00:00:00 ps\n$/, null, 0],
  ["sleep 5 & ps -o comm --no-headers; kill %1", "bash\nsleep\nps\n", null, 0],
  ["sleep 5 & ps -o args=; kill %1", "bash\nsleep 5\nps\n", null, 0],
  ['sleep 5 & ps -o pid,args | { IFS= read -r h; echo "$h"; }; kill %1', "    PID COMMAND\n", null, 0],
  ["sleep 0 & wait; ps -o comm --no-headers", "bash\nps\n", null, 0],
  ["ps -ef", /^UID {10}PID {4}PPID {2}C STIME TTY {10}TIME CMD\nagent +\d+ +0  0 15:04 \? {8}00:00:00 bash\n/, null, 0],
  ['ps aux | { read -r l; echo "$l"; }', "USER         PID %CPU %MEM TTY      STAT STIME     TIME COMMAND\n", null, 0],
  ["ps -p $$ -o pid= -o comm=", /^ +\d+ bash\n$/, null, 0],
  ["ps -p 99999; echo $?", /^ +PID TTY +TIME CMD\n1\n$/, null, 0],
  ["ps -Z", "", /ps: option -Z is not supported; supported here: -e -A -f -p PID -o FIELDS --no-headers, aux/, 1],
  ["ps -o bogus", "", /unknown format column 'bogus'/, 1],
  ["nohup echo hi", "hi\n", null, 0],
  ['f() { echo fn "$@"; }; nohup f a b', "fn a b\n", null, 0],
  ["nohup sh -c 'exit 3'; echo $?", "3\n", null, 0],
  ["nohup; echo $?", "125\n", /nohup: missing operand/, 0],
  ["nohup nosuchcmd; echo $?", "127\n", /nosuchcmd/, 0],
  ["nohup echo bg > log & wait; cat log 2>/dev/null || echo no-cat; ls nohup.out 2>/dev/null; echo done", /done\n$/, null, 0],
];

describe("ps and nohup", () => {
  it.each(CASES)("%s", async (script, out, err, code) => {
    const r = await run(script);
    if (typeof out === "string") expect(r.out, r.err).toBe(out);
    else expect(r.out, r.err).toMatch(out);
    if (err) expect(r.err).toMatch(err);
    expect(r.code).toBe(code);
  });
});
