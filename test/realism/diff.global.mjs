// vitest globalSetup (runs in Node): the Debian side of the diff table (diff-pairs.mjs). Each
// script runs in Debian's bash as `nobody` in its own empty directory, with Toolshed's environment
// (LANG=C.UTF-8, TZ unset); what it printed is handed to diff.test.ts.
import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { diffScripts } from "./diff-pairs.mjs";

const NOBODY = 65534;

export default function setup(project) {
  requireReferenceTools("realism-diff", ["diffutils", "coreutils", "bash"]);
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const out = diffScripts().map((s) => {
    const dir = mkdtempSync(join(tmpdir(), "realism-diff-"));
    if (user.uid) chownSync(dir, NOBODY, NOBODY);
    const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", TMPDIR: "/tmp", HOME: dir };
    const r = spawnSync("/bin/bash", ["-c", s.script], { cwd: dir, env, encoding: "utf8", timeout: 60_000, ...user });
    rmSync(dir, { recursive: true, force: true });
    if (r.status !== 0 && r.status !== 1) throw new Error(`realism-diff: Debian's bash failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  });
  project.provide("realismDiff", out);
}
