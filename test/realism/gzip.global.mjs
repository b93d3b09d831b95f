// vitest globalSetup (runs in Node): Debian's side of the gzip table (gzip-cases.mjs). SETUP makes
// the inputs in a temporary directory, then each case runs there in real bash as `nobody` with
// Debian's gzip 1.12 and GNU tar; what it printed goes to gzip.test.ts.
import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CASES, SETUP } from "./gzip-cases.mjs";

const NOBODY = 65534;

export default function setup(project) {
  const version = spawnSync("gzip", ["--version"], { encoding: "utf8" });
  if (version.status !== 0) throw new Error("gzip table: Debian's gzip is missing (apt-get install gzip)");
  if (!version.stdout.startsWith("gzip 1.12")) throw new Error(`gzip table: the reference is Debian 12's gzip 1.12, this machine has ${version.stdout.split("\n")[0]}`);
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const dir = mkdtempSync(join(tmpdir(), "gzip-table-"));
  if (user.uid) chownSync(dir, NOBODY, NOBODY);
  const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", TMPDIR: "/tmp", TZ: "UTC", HOME: dir };
  const bash = (script) => spawnSync("/bin/bash", ["-c", script], { argv0: "bash", cwd: dir, env, encoding: "utf8", timeout: 30_000, input: "", ...user });
  const made = bash(SETUP);
  if (made.status !== 0) throw new Error(`gzip table: the inputs' setup failed: ${made.stderr}`);
  const cases = CASES.map((run) => {
    const r = bash(run);
    return { run, stdout: r.stdout, stderr: r.stderr, exit: r.status ?? -1 };
  });
  rmSync(dir, { recursive: true, force: true });
  project.provide("gzipTable", { setup: SETUP, cases });
}
