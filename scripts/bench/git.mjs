// git benchmark (issue 25): Toolshed's `git` (isomorphic-git over the session workspace, the
// bash tool's duration_ms in a real `wrangler dev`) side by side with Debian's git on local
// disk, on the same trees: `git status` and `git add -A && git commit` on 1,000 files, and
// `git log -p` over 200 commits. Goal: status on 1,000 files under 300 ms.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nativeRunner, timed, withToolshed } from "./shell.mjs";

const FILES = 1000;
const COMMITS = 200;
const ENV =
  'export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=bench@example.com GIT_AUTHOR_DATE="@1700000000 +0000" GIT_COMMITTER_DATE="@1700000000 +0000"';
/** 1,000 files in 10 directories, then a repository around them. */
const MAKE_TREE = `${ENV}; git init -q big && cd big && for d in 0 1 2 3 4 5 6 7 8 9; do mkdir d$d; for f in $(seq 0 99); do echo "file $d $f" > d$d/f$f.txt; done; done`;
/** 200 commits each changing one line of a 50-line file. */
const MAKE_HISTORY = `${ENV}; git init -q hist && cd hist && seq 1 50 > f.txt && git add f.txt && git commit -q -m c0 && for i in $(seq 1 ${COMMITS - 1}); do sed -i "$((i % 50 + 1))s/.*/edit $i/" f.txt; git commit -q -am "c$i"; done`;

const workloads = [
  {
    name: `git add -A && git commit (${FILES} new files)`,
    setup: `${MAKE_TREE}`,
    script: `${ENV}; cd big && git add -A && git commit -q -m all`,
    reset: "cd big && rm -rf .git && git init -q",
  },
  { name: `git status (${FILES} files, clean)`, script: "cd big && git status --porcelain | wc -l" },
  {
    name: `git status (${FILES} files, 10 modified)`,
    setup: "cd big && for d in 0 1 2 3 4 5 6 7 8 9; do echo x >> d$d/f0.txt; done",
    script: "cd big && git status --porcelain | wc -l",
  },
  { name: `git log -p (${COMMITS} commits)`, setup: MAKE_HISTORY, script: "cd hist && git log -p | wc -l" },
  { name: "git log --oneline | wc -l", script: "cd hist && git log --oneline | wc -l" },
];

async function runAll(run) {
  const out = [];
  for (const w of workloads) {
    if (w.setup) {
      const s = await run(w.setup);
      if (!s.ok) throw new Error(`setup of ${w.name} failed: ${s.stderr.slice(0, 300)}`);
    }
    // add+commit is measured on a fresh repository each time: the reset runs before each rep.
    const once = w.reset ? async () => (await run(w.reset), run(w.script)) : () => run(w.script);
    out.push(await timed(once, 3));
  }
  return out;
}

export async function benchGit(print) {
  console.log(`Debian's git on local disk (bash -c, process start included) vs Toolshed's git (bash tool duration_ms, wrangler dev); 1 warm-up, median of 3`);
  const dir = mkdtempSync(join(tmpdir(), "toolshed-git-"));
  try {
    const native = await runAll(nativeRunner(dir, { GIT_CONFIG_NOSYSTEM: "1", HOME: dir }));
    const ours = await withToolshed(async ({ run }) => runAll(run));
    workloads.forEach((w, i) => {
      const n = native[i];
      const t = ours[i];
      const same =
        n.stdout.trim() === t.stdout.trim()
          ? "same output"
          : `OUTPUT DIFFERS: native ${JSON.stringify(n.stdout.trim().slice(0, 40))}, toolshed ${JSON.stringify(t.stdout.trim().slice(0, 40))} ${t.stderr.slice(0, 200)}`;
      print(`git: ${w.name} — Debian git`, n.ms, "ms");
      print(`git: ${w.name} — Toolshed`, t.ms, "ms", `${(t.ms / n.ms).toFixed(1)}x, ${same}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
