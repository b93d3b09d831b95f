// vitest globalSetup (runs in Node): the Debian side of the realism table (cases.mjs). Each case
// runs in real bash as `nobody`, in its own empty directory, in Toolshed's environment
// (LANG=C.UTF-8, TMPDIR=/tmp); what it printed is handed to realism.test.ts.
import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { CASES } from "./cases.mjs";

const NOBODY = 65534;
/** Packages of scripts/lib/reference-tools.mjs the cases call that a minimal Debian lacks. */
const PACKAGES = ["gawk", "jq", "file"];

export default function setup(project) {
  requireReferenceTools("realism", PACKAGES);
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const out = {};
  for (const [kind, list] of Object.entries(CASES)) {
    out[kind] = list.map((c) => {
      const spec = typeof c === "string" ? { run: c } : c;
      const dir = mkdtempSync(join(tmpdir(), "realism-"));
      if (user.uid) chownSync(dir, NOBODY, NOBODY);
      const env = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", TMPDIR: "/tmp", HOME: dir, ...spec.env };
      const r = spawnSync("/bin/bash", ["-c", spec.run], { argv0: "bash", cwd: dir, env, encoding: "utf8", timeout: 10_000, input: "", ...user });
      rmSync(dir, { recursive: true, force: true });
      return { run: spec.run, cmp: spec.cmp ?? "all", stdout: r.stdout, stderr: r.stderr, exit: r.status ?? -1 };
    });
  }
  project.provide("realism", out);
}
