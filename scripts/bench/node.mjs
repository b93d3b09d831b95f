// `npm run bench -- node` (issue 25): the session's `node` (QuickJS in the Worker, through the
// bash tool's duration_ms under wrangler dev) beside Debian 12's node (package nodejs 18.x, run
// by scripts/lib/debian-node.mjs in a private mount namespace, timed inside it by bash's `time`)
// in the same run: `node -e 0` warm start, and a CPU-bound script. Goal: start within 3x native.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { debianNode, debianNodeArgs } from "../lib/debian-node.mjs";
import { median, timed, withToolshed } from "./shell.mjs";

const REPS = 5;
/** A CPU-bound script of the kind agents run: parse, count, sort (about 0.1 s in native node). */
const CPU = `const words = [];
let x = 1;
for (let i = 0; i < 200000; i++) { x = (x * 1103515245 + 12345) % 2147483648; words.push("w" + (x % 5000)); }
const freq = {};
for (const w of words) freq[w] = (freq[w] || 0) + 1;
const top = Object.entries(freq).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
console.log(JSON.stringify(top), fib(22));
`;
const WORKLOADS = [
  { name: "node -e 0 (warm start)", cmd: "node -e 0" },
  { name: 'node -e \'console.log(require("path").join("a","b"))\'', cmd: `node -e 'console.log(require("path").join("a","b"))'` },
  { name: "CPU-bound script (word counts, sort, fib(22))", cmd: "node cpu.js" },
];

export async function benchNode(print) {
  const dir = mkdtempSync(join(tmpdir(), "toolshed-node-bench-"));
  try {
    writeFileSync(join(dir, "cpu.js"), CPU);
    const debian = debianNode();
    console.log(
      `native: Debian's node ${debian.nodeVersion} (nodejs ${debian.version}), the command's wall time by bash's time; Toolshed: bash tool duration_ms via wrangler dev. 1 warm-up, median of ${REPS}`,
    );
    const native = [];
    for (const w of WORKLOADS) {
      native.push(
        await timed(async () => {
          // Timed inside the namespace, so the namespace's own setup is not counted.
          const script = `TIMEFORMAT=%3R; { time ${w.cmd} > out.txt 2> err.txt; } 2> time.txt`;
          const r = spawnSync(...debianNodeArgs(script, { asNobody: false, root: debian.root }), {
            cwd: dir,
            encoding: "utf8",
            env: { PATH: "/usr/bin:/bin", HOME: dir },
          });
          const secs = Number(readFileSync(join(dir, "time.txt"), "utf8").trim());
          return { ms: secs * 1000, ok: r.status === 0 && Number.isFinite(secs), stdout: readFileSync(join(dir, "out.txt"), "utf8") };
        }, REPS),
      );
    }
    const ours = await withToolshed(async ({ run, upload }) => {
      await upload("cpu.js", CPU);
      const out = [];
      for (const w of WORKLOADS) out.push(await timed(() => run(w.cmd), REPS));
      return out;
    });
    const ratios = [];
    WORKLOADS.forEach((w, i) => {
      const n = native[i],
        o = ours[i];
      const same = n.stdout === o.stdout ? "same output" : `OUTPUT DIFFERS: ${JSON.stringify(o.stdout || o.stderr).slice(0, 300)}`;
      print(`${w.name} — native`, n.ms, "ms");
      print(`${w.name} — toolshed`, o.ms, "ms", `${(o.ms / n.ms).toFixed(2)}x native, ${same}`);
      if (o.ok) ratios.push(o.ms / n.ms);
    });
    const start = ours[0].ms / native[0].ms;
    console.log(
      `goal: start within 3x native: ${start.toFixed(2)}x (${start <= 3 ? "met" : "NOT met"}); median ratio ${ratios.length ? `${median(ratios).toFixed(2)}x` : "n/a (no run succeeded)"}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
