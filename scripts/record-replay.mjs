// Records real bash's answers for the replay sessions (test/replay/sessions/*.sh) into
// test/replay/fixtures.json, which test/conformance/replay.test.ts replays through the bash
// tool. Each session runs in a fresh temporary directory standing in for /workspace; each call
// is `bash -c CALL` there (files persist between calls, shell state does not, as in the tool),
// with the tool's base environment and no stdin. `awk` is GNU awk (the toolbox follows gawk).
//   node scripts/record-replay.mjs        (needs bash 5.2, gawk and jq on the machine)
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseSession } from "../test/replay/sessions.mjs";

const root = new URL("..", import.meta.url).pathname;
const dir = join(root, "test", "replay", "sessions");
const version = spawnSync("bash", ["-c", "echo $BASH_VERSION"], { encoding: "utf8" }).stdout.trim();
const shim = mkdtempSync(join(tmpdir(), "replay-bin-"));
symlinkSync(spawnSync("bash", ["-c", "command -v gawk"], { encoding: "utf8" }).stdout.trim(), join(shim, "awk"));

const sessions = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".sh"))
  .sort()) {
  const ws = mkdtempSync(join(tmpdir(), "replay-ws-"));
  mkdirSync(join(ws, ".tmp"));
  const env = {
    HOME: ws,
    PWD: ws,
    PATH: `${shim}:/usr/local/bin:/usr/bin:/bin`,
    SHELL: "/bin/bash",
    USER: "agent",
    LOGNAME: "agent",
    LANG: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: join(ws, ".tmp"),
    TZ: "UTC",
  };
  const calls = parseSession(readFileSync(join(dir, file), "utf8")).map(({ title, command }) => {
    const r = spawnSync("bash", ["-c", command], { cwd: ws, env, stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
    // the workspace is /workspace in the tool
    const stdout = r.stdout.toString("utf8").split(ws).join("/workspace");
    return { title, command, stdout, exit_code: r.status ?? 128 };
  });
  sessions.push({ file, calls });
  rmSync(ws, { recursive: true, force: true });
}
rmSync(shim, { recursive: true, force: true });
const out = join(root, "test", "replay", "fixtures.json");
writeFileSync(out, JSON.stringify({ bash: version, sessions }, null, 1) + "\n");
console.log(`recorded ${sessions.reduce((n, s) => n + s.calls.length, 0)} calls in ${sessions.length} sessions with bash ${version} -> ${out}`);
