// Load benchmark against a real `wrangler dev`: 1, 10 and 100 sessions at once, each working like
// an agent (one call at a time) through a realistic mix of reads, writes, edits, greps, globs and
// bash pipelines. Prints throughput, p50/p99 latency and errors per level, and the memory (RSS)
// of the workerd processes, sampled while the level runs. Each level runs twice: straight at the
// Worker's own workerd socket (a connection per call), and through wrangler dev's proxy, whose
// pooled connections can meet workerd's 5 s keep-alive close (see docs/limitations.md, "Hostile load").
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, freshClient, startDevServer, stopDevServer, workerPort } from "../lib/dev-server.mjs";

const KEY = "load-key";
/** Sessions at once, and calls each makes. */
const LEVELS = [
  { sessions: 1, calls: 60 },
  { sessions: 10, calls: 24 },
  { sessions: 100, calls: 12 },
];
// src/m$i.txt holds "item i" .. "item 400"; one awk writes all 30 (the seed is not measured).
const SEED =
  'mkdir -p src docs && seq 400 | awk \'{ for (i = 1; i <= $1; i++) if (i <= 30) print "item " $1 > ("src/m" i ".txt") }\' && printf \'# Notes\\ncounter: 0\\n\' > docs/notes.md';

/** The i-th call of an agent's session: a mix weighted like a coding agent's tool use. */
function call(i, state) {
  const k = (i * 7 + state.salt) % 20;
  if (k < 6) return ["read_file", { path: `src/m${(i % 30) + 1}.txt`, limit: 50 }];
  if (k < 9) return ["write_file", { path: `out/w${i}.txt`, content: `result ${i}\n`.repeat(40) }];
  if (k < 11) return ["edit_file", { path: "docs/notes.md", old_string: `counter: ${state.counter}\n`, new_string: `counter: ${++state.counter}\n` }];
  if (k < 14) return ["grep", { pattern: `item ${100 + i}$`, path: "src" }];
  if (k < 16) return ["glob", { pattern: "**/*.txt" }];
  const pipes = [
    "cat src/*.txt | sort | uniq -c | sort -rn | head -5",
    "grep -h 'item 3' src/*.txt | awk '{s += $2} END {print s}'",
    "find . -name '*.txt' | xargs wc -l | tail -1",
    "sed -n '10,20p' src/m3.txt | tr a-z A-Z | cut -c1-20",
  ];
  return ["bash", { command: pipes[i % pipes.length] }];
}

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** The resident memory of every workerd process of the server, in MiB. */
function workerdRss(server) {
  let pids = [];
  try {
    pids = execFileSync("pgrep", ["-g", String(server.pid), "workerd"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean);
  } catch {}
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

export async function benchLoad(print) {
  const stateDir = mkdtempSync(join(tmpdir(), "toolshed-load-"));
  const port = await freePort();
  const server = await startDevServer({ port, stateDir, apiKeys: `load=${KEY}` });
  let log = "";
  server.stdout.on("data", (d) => (log += d));
  server.stderr.on("data", (d) => (log += d));
  let gatedErrors = 0;
  try {
    const paths = [
      { name: "straight at workerd", api: freshClient(await workerPort(server, port, KEY), KEY), gates: true },
      { name: "through wrangler dev", api: client(port, KEY), gates: false },
    ];
    print("workerd RSS at start", workerdRss(server), "MiB");
    for (const path of paths) {
      for (const { sessions, calls } of LEVELS) {
        const errors = [];
        const attempt = async (name, args, id) => {
          try {
            const r = await path.api("POST", `/v1/sessions/${id}/tools/${name}`, args);
            if (r.status !== 200 || r.body.success !== true) errors.push(`${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          } catch (e) {
            errors.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
          }
        };
        const created = await Promise.allSettled(Array.from({ length: sessions }, () => path.api("POST", "/v1/sessions", {})));
        const ids = [];
        for (const c of created) {
          if (c.status === "fulfilled" && c.value.status === 201) ids.push(c.value.body.id);
          else errors.push(`create session: ${c.status === "fulfilled" ? `${c.value.status} ${JSON.stringify(c.value.body).slice(0, 200)}` : String(c.reason)}`);
        }
        await Promise.all(ids.map((id) => attempt("bash", { command: SEED }, id)));
        const latencies = [];
        let peak = 0;
        const sampler = setInterval(() => (peak = Math.max(peak, workerdRss(server))), 250);
        const t0 = performance.now();
        await Promise.all(
          ids.map(async (id, s) => {
            const state = { salt: s, counter: 0 };
            for (let i = 0; i < calls; i++) {
              const [name, args] = call(i, state);
              const t = performance.now();
              await attempt(name, args, id);
              latencies.push(performance.now() - t);
            }
          }),
        );
        const wall = (performance.now() - t0) / 1000;
        clearInterval(sampler);
        peak = Math.max(peak, workerdRss(server));
        if (path.gates) gatedErrors += errors.length;
        const label = `${path.name}, ${sessions} session${sessions > 1 ? "s" : ""} x ${calls} calls`;
        print(`${label}: throughput`, latencies.length / wall, "calls/s", `${latencies.length} calls in ${wall.toFixed(1)} s, ${errors.length} errors`);
        print(`${label}: p50 latency`, percentile(latencies, 50), "ms");
        print(`${label}: p99 latency`, percentile(latencies, 99), "ms");
        print(`${label}: workerd RSS, peak`, peak, "MiB");
        for (const e of [...new Set(errors)].slice(0, 5)) console.log(`  error: ${e}`);
        // What the server said besides the request lines (a restart of the Worker, a crash).
        const said = log.split("\n").filter((l) => l.trim() && !/^\[wrangler:info\] [A-Z]+ \//.test(l));
        if (errors.length) console.log(said.slice(0, 30).join("\n"));
        log = "";
      }
    }
  } finally {
    await stopDevServer(server);
    rmSync(stateDir, { recursive: true, force: true });
  }
  if (gatedErrors) throw new Error(`${gatedErrors} calls failed under load straight at workerd`);
}
