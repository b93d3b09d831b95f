// vitest globalSetup (runs in Node): Debian's git side of the git table (test/git/table.test.ts).
// Every case of cases.mjs runs under /usr/bin/git as `nobody` in a fresh temp dir, with the same
// prelude the session runs; stdout and exit status are handed to the tests (`inject("gitCases")`).
import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { CASES } from "./cases.mjs";
import { PRELUDE } from "./prelude.mjs";

const NOBODY = 65534;

export function ensureGit() {
  requireReferenceTools("git-tests", ["git"]);
}

/** Runs one script under Debian's git as nobody; returns its stdout and status. */
export function runReference(script) {
  const dir = mkdtempSync(join(tmpdir(), "git-ref-"));
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  if (user.uid) chownSync(dir, NOBODY, NOBODY);
  const env = { PATH: "/usr/bin:/bin", LC_ALL: "C", GIT_CONFIG_NOSYSTEM: "1", TZ: "UTC" };
  const r = spawnSync("bash", ["-c", `${PRELUDE}\n${script}`], { cwd: dir, env, encoding: "utf8", timeout: 20_000, ...user });
  rmSync(dir, { recursive: true, force: true });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

export default function setup(project) {
  ensureGit();
  project.provide(
    "gitCases",
    CASES.map(([name, script]) => ({ name, script, ...runReference(script) })),
  );
}
