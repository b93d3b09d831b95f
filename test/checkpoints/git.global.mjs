// vitest globalSetup (runs in Node): Debian's git prints the reference diffs for
// test/checkpoints/diff.test.ts. Each case's two trees are written as folders `old` and `new`,
// `git diff --no-index old new` runs there as nobody, and the folder names are taken out of the
// paths it prints (`a/old/f` → `a/f`), since Toolshed's diff names paths relative to /workspace.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { DIFF_CASES } from "./diff-cases.mjs";

const NOBODY = 65534;
/** The lines of git's output that name paths (never a content line: those start with a space, + or - then text). */
const HEADER = /^(diff --git |--- (a\/|\/dev\/null)|\+\+\+ (b\/|\/dev\/null)|rename from |rename to |Binary files )/;

function write(dir, tree) {
  mkdirSync(dir, { recursive: true });
  for (const [path, spec] of Object.entries(tree)) {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof spec === "object" && "link" in spec) symlinkSync(spec.link, abs);
    else {
      writeFileSync(abs, typeof spec === "string" ? spec : spec.content);
      chmodSync(abs, typeof spec === "string" ? 0o644 : spec.mode);
    }
  }
}

export default function setup(project) {
  requireReferenceTools("checkpoint diffs", ["git"]);
  const base = mkdtempSync(join(tmpdir(), "cp-git-"));
  chmodSync(base, 0o755);
  const outputs = [];
  try {
    DIFF_CASES.forEach((c, i) => {
      const dir = join(base, String(i));
      write(join(dir, "old"), c.from);
      write(join(dir, "new"), c.to);
      spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, dir]);
      const r = spawnSync(
        "setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/git", "-c", "core.quotepath=false", "diff", "--no-index", "old", "new"],
        {
          cwd: dir,
          env: { PATH: "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1", LANG: "C" },
          encoding: "latin1",
        },
      );
      if (r.status !== 1 && r.status !== 0) throw new Error(`git failed on case ${c.name}: ${r.stderr}`);
      const text = Buffer.from(r.stdout, "latin1")
        .toString("utf8")
        .split("\n")
        .map((line) => (HEADER.test(line) ? line.replace(/(^|[ ])(a\/|b\/)?(?:old|new)\//g, "$1$2") : line))
        .join("\n");
      outputs.push(text);
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  project.provide("gitDiffs", outputs);
}
