// Shell benchmark: the same scripts, on the same machine in one run, through real bash,
// through just-bash (the best-known peer, a JS shell running in Node) and through
// Toolshed's `bash` tool in a real `wrangler dev`. Toolshed's time is the tool's own
// duration_ms (measured inside the Worker), so HTTP is not counted against it.
// Also exports the runners the `commands` section shares.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, root, startDevServer, stopDevServer } from "../lib/dev-server.mjs";

export const REPS = 5;
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs `run` once to warm up (lazy loading, Wasm compilation, JIT) and then `reps` times;
 * returns the median time and the first timed run's result. Every runner gets the same
 * treatment, so no side is measured cold while another is warm.
 */
export async function timed(run, reps = REPS) {
  await run();
  const times = [];
  const rtts = [];
  let first;
  for (let i = 0; i < reps; i++) {
    const r = await run();
    if (i === 0) first = r;
    times.push(r.ms);
    if (r.rtt !== undefined) rtts.push(r.rtt);
    // A failing run is not repeated: its time measures the failure, not the workload.
    if (!r.ok) break;
  }
  return { ...first, ms: median(times), rtt: rtts.length ? median(rtts) : undefined };
}

/** Real bash on this machine: wall time of `bash -c`, process start included (a few ms). */
export const nativeRunner =
  (cwd, env = {}) =>
  async (script) => {
    const t = performance.now();
    const r = spawnSync("bash", ["-c", script], { cwd, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    const ms = performance.now() - t;
    return { ms, ok: r.status === 0, exit: r.status, stdout: r.stdout, stderr: r.stderr };
  };

/** just-bash with its default limits (the `normal` profile) unless `options` says otherwise. */
export async function justBashRunner(options = {}) {
  const { Bash } = await import("just-bash");
  const bash = new Bash(options);
  return async (script) => {
    const t = performance.now();
    let r;
    try {
      r = await bash.exec(script);
    } catch (e) {
      r = { exitCode: -1, stdout: "", stderr: `threw: ${e instanceof Error ? e.message : String(e)}` };
    }
    const ms = performance.now() - t;
    return { ms, ok: r.exitCode === 0, exit: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  };
}

/**
 * Starts `wrangler dev`, opens one session and hands `fn` a runner over its `bash` tool and
 * an uploader for its workspace; stops the server afterwards whatever happens.
 */
export async function withToolshed(fn) {
  const key = "bench-key";
  const stateDir = mkdtempSync(join(tmpdir(), "toolshed-bench-"));
  let port = await freePort();
  let server = await startDevServer({ port, stateDir, apiKeys: `bench=${key}` });
  try {
    let api = client(port, key);
    const created = await api("POST", "/v1/sessions", {});
    if (created.status !== 201 && created.status !== 200) throw new Error(`session not created: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id;
    const run = async (script) => {
      try {
        return await runOnce(script);
      } catch (e) {
        // No answer at all (undici gives up on headers after 300 s, a crashed workerd): the row
        // fails with the reason instead of ending the section.
        return { ms: NaN, ok: false, exit: -1, stdout: "", stderr: `no answer: ${e instanceof Error ? `${e.message}${e.cause ? ` (${e.cause})` : ""}` : e}` };
      }
    };
    const runOnce = async (script) => {
      let t = performance.now();
      let r = await api("POST", `/v1/sessions/${id}/tools/bash`, { command: script, timeout_seconds: 300 });
      // `wrangler dev` reloads the Worker when someone saves a source file, failing the request
      // in flight; that says nothing about the workload, so it is retried (state is in SQLite).
      for (let retry = 0; retry < 3 && r.status === 503 && JSON.stringify(r.body).includes("restarted"); retry++) {
        await new Promise((done) => setTimeout(done, 2000));
        t = performance.now();
        r = await api("POST", `/v1/sessions/${id}/tools/bash`, { command: script, timeout_seconds: 300 });
      }
      if (r.status !== 200 || typeof r.body.duration_ms !== "number") {
        return { ms: NaN, ok: false, exit: -1, stdout: "", stderr: `HTTP ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}` };
      }
      const rtt = performance.now() - t;
      return { ms: r.body.duration_ms, rtt, ok: r.body.exit_code === 0, exit: r.body.exit_code, stdout: r.body.stdout, stderr: r.body.stderr };
    };
    const upload = async (path, body) => {
      for (let attempt = 0; ; attempt++) {
        const r = await fetch(`http://127.0.0.1:${port}/v1/sessions/${id}/files/${path}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${key}` },
          body,
        });
        if (r.status === 201 || r.status === 200) return;
        const text = await r.text();
        // Same reload as above: an upload lost to it is sent again, never silently dropped.
        if (r.status === 503 && text.includes("restarted") && attempt < 3) {
          await new Promise((done) => setTimeout(done, 2000));
          continue;
        }
        throw new Error(`upload of ${path} failed: ${r.status} ${text}`);
      }
    };
    // A new workerd on the same state (the session and its files stay): what a row's memory
    // figure is measured against is then the process's resting size, not what earlier rows left.
    const restart = async () => {
      await stopDevServer(server);
      // A new port: the old one may not be free again at once.
      port = await freePort();
      server = await startDevServer({ port, stateDir, apiKeys: `bench=${key}` });
      api = client(port, key);
      return server;
    };
    return await fn({ run, upload, server, restart });
  } finally {
    await stopDevServer(server);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const fmtMs = (r) => (r === undefined ? "n/a" : r.ok ? r.ms.toFixed(1) : r.missing ? "not avail" : `FAIL ${r.exit}`);
const ratio = (a, b) => (a?.ok && b?.ok && b.ms > 0 ? `${(a.ms / b.ms).toFixed(2)}x` : "-");

/**
 * Prints one table: a row per workload with the three times (ms) and the three ratios.
 * `results` rows are { name, native, jb, ours }; a result whose stdout differs from the
 * native one is flagged, since a fast wrong answer is not a result.
 */
export function printTable(results, nativeName) {
  const cols = [
    ["workload", 34],
    [`${nativeName} ms`, 11],
    ["just-bash ms", 13],
    ["toolshed ms", 12],
    [`ours/${nativeName}`, 11],
    [`jb/${nativeName}`, 9],
    ["jb/ours", 8],
    ["(toolshed HTTP ms)", 19],
  ];
  console.log(cols.map(([h, w], i) => (i === 0 ? h.padEnd(w) : h.padStart(w))).join(" "));
  for (const { name, native, jb, ours } of results) {
    const mark = (r) => (r?.ok && native?.ok && r.stdout !== native.stdout ? "≠" : "");
    const cells = [
      name,
      fmtMs(native),
      fmtMs(jb) + mark(jb),
      fmtMs(ours) + mark(ours),
      ratio(ours, native),
      ratio(jb, native),
      ratio(jb, ours),
      ours?.rtt === undefined ? "" : ours.rtt.toFixed(1),
    ];
    console.log(cells.map((c, i) => (i === 0 ? c.padEnd(cols[i][1]) : c.padStart(cols[i][1]))).join(" "));
  }
  const problems = [];
  for (const { name, native, jb, ours } of results) {
    for (const [who, r] of [
      ["just-bash", jb],
      ["toolshed", ours],
    ]) {
      if (!r || r.missing) continue;
      if (!r.ok) problems.push(`${name}: ${who} exit ${r.exit}: ${(r.stderr || "").trim().slice(0, 200)}`);
      else if (native?.ok && r.stdout !== native.stdout) {
        problems.push(`${name}: ${who} output differs: ${JSON.stringify(r.stdout.slice(0, 120))} vs ${JSON.stringify(native.stdout.slice(0, 120))}`);
      }
    }
  }
  if (problems.length) console.log(`notes (≠ = output differs from ${nativeName}):\n  ${problems.join("\n  ")}`);
}

const N = 20_000;
// Each script ends by echoing what it computed, so the three shells are checked to agree.
export const SHELL_WORKLOADS = [
  { name: "(( )) while loop, 20k", script: `i=0; while ((i<${N})); do ((i++)); done; echo $i` },
  { name: "for over $(seq), 20k", script: `x=0; for i in $(seq 1 ${N}); do x=$((x+i)); done; echo $x` },
  { name: "function calls, 20k", script: `f(){ :; }; for ((i=0;i<${N};i++)); do f; done; echo $i` },
  { name: "string ops, 20k", script: `s=""; for ((i=0;i<${N};i++)); do s="\${s:0:10}x"; t=\${s//x/y}; done; echo $s $t` },
  { name: "[ ] while loop, 20k", script: `i=0; while [ $i -lt ${N} ]; do i=$((i+1)); done; echo $i` },
  { name: "(( )) while loop, 100k", script: `i=0; while ((i<100000)); do ((i++)); done; echo $i` },
];

/** 100 MB of numbered text lines, for a pipeline whose reader stops after the first one. */
const BIG_LINES = () => {
  const line = (i) => `${String(i).padStart(9, "0")} the quick brown fox jumps over the lazy dog\n`;
  const per = line(0).length;
  const n = Math.ceil(100_000_000 / per);
  const out = Buffer.alloc(n * per);
  for (let i = 0; i < n; i++) out.write(line(i), i * per);
  return out;
};

// Pipes and program start. `big.txt` (100 MB) is made in bash's directory and uploaded to
// Toolshed's workspace; just-bash has no such file, so it sits these rows out. The `time`
// rows print the timing on stderr; stdout must still match bash's.
export const PIPE_WORKLOADS = [
  { name: "time (yes | head -1)", script: "time (yes | head -1)" },
  { name: "cat big | head -1 (100 MB file)", script: "cat big.txt | head -1", big: true },
  { name: "1000 x wc -c /dev/null", script: "for i in $(seq 1000); do wc -c /dev/null; done > starts.txt; tail -1 starts.txt" },
  { name: "1000 x echo x | wc -c (streamed)", script: "for i in $(seq 1000); do echo x | wc -c; done > starts.txt; tail -1 starts.txt" },
];

const WARM_CALLS = 200;
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** One tool call after another on a warm session: the per-call cost an agent sees, as p50/p99. */
async function warmCalls(run, script, n) {
  await run(script);
  const ms = [];
  const rtt = [];
  for (let i = 0; i < n; i++) {
    const r = await run(script);
    ms.push(r.ms);
    rtt.push(r.rtt);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), rttP50: percentile(rtt, 50), rttP99: percentile(rtt, 99) };
}

export async function benchPipes() {
  console.log("\npipes and program start:");
  for (const w of PIPE_WORKLOADS) console.log(`  ${w.name.padEnd(34)} ${w.script}`);
  const dir = mkdtempSync(join(tmpdir(), "toolshed-pipes-"));
  try {
    const big = BIG_LINES();
    writeFileSync(join(dir, "big.txt"), big);
    const native = nativeRunner(dir);
    const jb = await justBashRunner();
    const results = PIPE_WORKLOADS.map((w) => ({ name: w.name }));
    for (const [i, w] of PIPE_WORKLOADS.entries()) {
      results[i].native = await timed(() => native(w.script));
      results[i].jb = w.big ? { missing: true } : await timed(() => jb(w.script));
    }
    let warm;
    await withToolshed(async ({ run, upload }) => {
      await upload("big.txt", big);
      for (const [i, w] of PIPE_WORKLOADS.entries()) results[i].ours = await timed(() => run(w.script));
      warm = await warmCalls(run, "wc -c /dev/null", WARM_CALLS);
    });
    printTable(results, "bash");
    console.log(
      `warm calls: ${WARM_CALLS} x bash tool "wc -c /dev/null": duration_ms p50 ${warm.p50.toFixed(1)}, p99 ${warm.p99.toFixed(1)}; HTTP round trip p50 ${warm.rttP50.toFixed(1)}, p99 ${warm.rttP99.toFixed(1)} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchShell() {
  const bashVersion = spawnSync("bash", ["-c", "echo $BASH_VERSION"], { encoding: "utf8" }).stdout.trim();
  const jbVersion = JSON.parse(readFileSync(join(root, "node_modules", "just-bash", "package.json"), "utf8")).version;
  console.log(`real bash ${bashVersion} (bash -c, wall time), just-bash ${jbVersion} (in Node ${process.version}, default limits),`);
  console.log(`Toolshed bash tool duration_ms via wrangler dev; each: 1 warm-up then median of ${REPS}`);
  for (const w of SHELL_WORKLOADS) console.log(`  ${w.name.padEnd(24)} ${w.script}`);

  const native = nativeRunner(tmpdir());
  const jb = await justBashRunner();
  const results = SHELL_WORKLOADS.map((w) => ({ name: w.name }));
  for (const [i, w] of SHELL_WORKLOADS.entries()) {
    results[i].native = await timed(() => native(w.script));
    results[i].jb = await timed(() => jb(w.script));
  }
  await withToolshed(async ({ run }) => {
    for (const [i, w] of SHELL_WORKLOADS.entries()) results[i].ours = await timed(() => run(w.script));
  });
  printTable(results, "bash");

  // The 100k row shows whose limits stop a plain loop. For reference only (not the main
  // row), just-bash again with the two limits that bound it raised past the loop.
  const big = SHELL_WORKLOADS.at(-1);
  const raised = await justBashRunner({ executionLimits: { maxCommandCount: 10_000_000, maxLoopIterations: 10_000_000 } });
  const r = await timed(() => raised(big.script));
  const ours = results.at(-1).ours;
  console.log(
    `reference: just-bash with maxCommandCount/maxLoopIterations raised to 10M, 100k loop: ${fmtMs(r)} ms` +
      (r.ok ? ` (jb/bash ${ratio(r, results.at(-1).native)}, jb/ours ${ratio(r, ours)})` : ` (${r.stderr.trim()})`),
  );
  await benchPipes();
}
