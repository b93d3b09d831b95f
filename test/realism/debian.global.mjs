// vitest globalSetup (runs in Node): the Debian side of the realism table (cases.mjs). Each case
// runs in real bash as `nobody`, in its own empty directory, in Toolshed's environment
// (LANG=C.UTF-8, TMPDIR=/tmp); what it printed is handed to realism.test.ts.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aptInstall } from "../../scripts/lib/debian.mjs";
import { CASES } from "./cases.mjs";

const NOBODY = 65534;
/** Programs the cases call that a minimal Debian lacks (file, gawk and jq are not in it). */
const PACKAGES = { gawk: "gawk", jq: "jq", file: "file" };

export default function setup(project) {
  const missing = Object.entries(PACKAGES).filter(([bin]) => !existsSync(join("/usr/bin", bin)));
  if (missing.length) aptInstall("realism", missing.map(([, pkg]) => pkg));
  for (const bin of Object.keys(PACKAGES)) {
    if (!existsSync(join("/usr/bin", bin))) throw new Error(`realism: /usr/bin/${bin} is missing; install Debian's ${PACKAGES[bin]}`);
  }
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
