// Checkpoints benchmark against a real `wrangler dev` (docs/checkpoints.md): a 10,000-file,
// 100 MB workspace; taking a checkpoint (time and extra storage), restoring it after every file
// was removed, a diff of two trees that differ in 100 files, a fork, and what the automatic
// checkpoint adds to a bash call that writes one file. Times are HTTP round trips; the round
// trip of a bare GET is printed first so the server's share can be read off. Each row names the
// issue's goal and the ratio to it; the machine's load average is printed beside the numbers
// (a shared machine's numbers are pessimistic). The automatic checkpoint's own cost is also read
// from the Server-Timing phases the session object reports ("checkpoint" and "retention").
// `npm run bench -- checkpoints --only fork[,restore,diff,auto]` runs only those rows (the
// workspace is filled and checkpointed first, whatever is asked); `--files N` makes N files.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "../lib/dev-server.mjs";

const KEY = "bench-key";
const flag = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const FILES = Number(flag("files") ?? 10_000);
const ONLY = flag("only")?.split(",");
/** Whether a row was asked for (all of them unless --only names some). */
const want = (row) => !ONLY || ONLY.includes(row);
const FILE_BYTES = 10 * 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`;
/** "goal < 50 ms: 0.4× the goal, load average ..." */
const goal = (value, limit, unit) => `goal < ${limit} ${unit}: ${(value / limit).toFixed(2)}× the goal; ${load()}`;
/**
 * CPU time (ms) the dev server's workerd processes have used so far, from /proc: what a step
 * costs the runtime whatever the machine's load (wall times on a shared machine include waiting).
 */
function workerdCpuMs(server) {
  const tick = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
  const pids = execFileSync("pgrep", ["-g", String(server.pid), "workerd"], { encoding: "utf8" })
    .trim()
    .split("\n");
  let ticks = 0;
  for (const pid of pids) {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    ticks += Number(f[11]) + Number(f[12]); // utime, stime
  }
  return ticks * tick;
}
/** Wall time and workerd CPU time of one step. */
const measured = async (server, fn) => {
  const cpu = workerdCpuMs(server);
  const [wall, r] = await time(fn);
  return { wall, cpu: workerdCpuMs(server) - cpu, r };
};
/** Phases of a Server-Timing header, in ms. */
const phasesOf = (header) =>
  Object.fromEntries(
    (header ?? "")
      .split(",")
      .map((p) => p.trim().split(";dur="))
      .filter(([k, v]) => k && v !== undefined)
      .map(([k, v]) => [k, Number(v)]),
  );
const time = async (fn) => {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
};

/** Bytes of every SQLite file under the dev server's state (the Durable Objects' storage). */
function storageBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += storageBytes(p);
    else if (/\.sqlite(-wal)?$/.test(e.name)) total += statSync(p).size;
  }
  return total;
}

async function session(port) {
  const api = client(port, KEY);
  const id = (await api("POST", "/v1/sessions", {})).body.id;
  return { api, id };
}

/**
 * One bash call writing one file: its round trip, and the time the session object spent on the
 * automatic checkpoint (taking it, and retention after the call) from Server-Timing.
 */
async function bashWrite(port, id, i) {
  const t = performance.now();
  const r = await fetch(`http://127.0.0.1:${port}/v1/sessions/${id}/tools/bash`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ command: `printf ${i} > one.txt` }),
  });
  const body = await r.json();
  const roundTrip = performance.now() - t;
  if (!body.success) throw new Error(`bash failed: ${JSON.stringify(body)}`);
  const ph = phasesOf(r.headers.get("server-timing"));
  return { roundTrip, inObject: (ph.checkpoint ?? 0) + (ph.retention ?? 0) };
}
// The object's clock moves in whole milliseconds, so the in-object cost is a mean over many
// calls (a step of a fixed length is counted as a tick in the right share of calls).
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The section's printer (set by benchCheckpoints) and the number of folders the files are in. */
let print;
let DIRS = 100;

export async function benchCheckpoints(printer) {
  print = printer;
  const stateDir = mkdtempSync(join(tmpdir(), "toolshed-bench-cp-"));
  const work = mkdtempSync(join(tmpdir(), "toolshed-bench-cp-tree-"));
  const port = await freePort();
  const server = await startDevServer({ port, stateDir, apiKeys: `bench=${KEY}` });
  console.log(`${load()} at the start (2 cores shared: every time here is pessimistic)`);
  try {
    const { api, id } = await session(port);
    const base = `http://127.0.0.1:${port}/v1/sessions/${id}`;
    // The tree: 100 folders of 100 files of 10 KB (distinct bytes), sent as one tar.
    DIRS = Math.min(100, Math.max(10, Math.ceil(FILES / 100)));
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(work, "t", `d${d}`), { recursive: true });
      for (let f = 0; f < FILES / DIRS; f++) writeFileSync(join(work, "t", `d${d}`, `f${f}.bin`), randomBytes(FILE_BYTES));
    }
    // The toolbox's tar holds an archive in memory (64 MiB per program), so ten 10 MB parts.
    let untar = 0;
    let ux;
    for (let part = 0; part < 10; part++) {
      const names = Array.from({ length: DIRS / 10 }, (_, k) => `d${(part * DIRS) / 10 + k}`);
      spawnSync("tar", ["-cf", join(work, `p${part}.tar`), "-C", join(work, "t"), ...names]);
      const bytes = new Uint8Array(await (await import("node:fs/promises")).readFile(join(work, `p${part}.tar`)));
      const put = await fetch(`${base}/files/p.tar`, { method: "PUT", headers: { authorization: `Bearer ${KEY}` }, body: bytes });
      if (put.status !== 201) throw new Error(`tar upload failed: ${put.status}`);
      const [t, r] = await time(() => api("POST", `/v1/sessions/${id}/tools/bash`, { command: "tar -xf p.tar && rm p.tar && find . -type f | wc -l" }));
      if (!r.body.success) throw new Error(`tar -x failed: ${JSON.stringify(r.body).slice(0, 300)}`);
      untar += t;
      ux = r;
    }
    print(`workspace filled: ${String(ux.body.stdout).trim()} files, ${(FILES * FILE_BYTES) / 1e6} MB (tar -x)`, untar, "ms");

    const rtt = [];
    for (let i = 0; i < 5; i++) rtt.push((await time(() => api("GET", `/v1/sessions/${id}`)))[0]);
    print("HTTP round trip of GET /v1/sessions/:id (baseline, median of 5)", median(rtt), "ms");

    // Taking a checkpoint: one row, whatever the tree.
    await new Promise((r) => setTimeout(r, 1500)); // let the state files settle
    const before = storageBytes(stateDir);
    const takes = [];
    let cp;
    for (let i = 0; i < 5; i++) {
      const [t, r] = await time(() => api("POST", `/v1/sessions/${id}/checkpoints`, { label: `bench ${i}` }));
      if (r.status !== 201) throw new Error(`checkpoint failed: ${r.status}`);
      takes.push(t);
      cp = r.body;
    }
    await new Promise((r) => setTimeout(r, 1500));
    const after = storageBytes(stateDir);
    print(`checkpoint of ${cp.files} files, ${(cp.size / 1e6).toFixed(0)} MB (median of 5, round trip)`, median(takes), "ms", goal(median(takes), 50, "ms"));
    print("extra storage for 5 checkpoints (SQLite files, % of before)", ((after - before) / before) * 100, "%", `${after - before} bytes of ${before}; goal < 1 %`);

    if (want("restore")) await restoreRow(server, api, id, cp);
    if (want("diff")) await diffRow(server, api, id, cp);
    // Three forks of the same checkpoint (each a new 100 MB session): every one printed, then the median.
    if (want("fork")) {
      const runs = [];
      for (let i = 0; i < 3; i++) {
        const { wall, cpu, r: fr } = await measured(server, () => api("POST", `/v1/sessions/${id}/fork`, { checkpoint: cp.id }));
        if (fr.status !== 201) throw new Error(`fork failed: ${fr.status} ${JSON.stringify(fr.body)}`);
        runs.push({ wall, cpu });
        print(
          `fork from a checkpoint (${fr.body.usage.files} files, ${(fr.body.usage.bytes / 1e6).toFixed(0)} MB streamed), run ${i + 1}`,
          wall,
          "ms",
          `CPU ${cpu.toFixed(0)} ms; ${load()}`,
        );
      }
      const wall = median(runs.map((r) => r.wall));
      const cpu = median(runs.map((r) => r.cpu));
      print("fork from a checkpoint (median of 3)", wall, "ms", goal(wall / 1000, 10, "s"));
      print("  workerd CPU time of one fork, both objects (median of 3)", cpu, "ms", goal(cpu / 1000, 10, "s"));
    }
    if (want("auto")) await autoRows(port, id);
    console.log(`${load()} at the end`);
  } finally {
    await stopDevServer(server);
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

/** Removes every folder, then restores the checkpoint. */
async function restoreRow(server, api, id, cp) {
  const dirs = Array.from({ length: DIRS }, (_, d) => `d${d}`).join(" ");
  const [rmTime, rm] = await time(() => api("POST", `/v1/sessions/${id}/tools/bash`, { command: `rm -rf ${dirs}` }));
  if (!rm.body.success) throw new Error(`rm failed: ${JSON.stringify(rm.body)}`);
  print("(setup) rm -rf of every folder, each removal saved by the checkpoint", rmTime, "ms", load());
  const { wall: restore, cpu: restoreCpu, r: rr } = await measured(server, () => api("POST", `/v1/sessions/${id}/checkpoints/${cp.id}/restore`, {}));
  if (rr.status !== 200) throw new Error(`restore failed: ${rr.status} ${JSON.stringify(rr.body).slice(0, 200)}`);
  const back = await api("GET", `/v1/sessions/${id}`);
  if (back.body.usage?.files !== cp.files) throw new Error(`restore left ${back.body.usage?.files} files, not ${cp.files}`);
  print(`restore after rm -rf of every folder (${rr.body.changed} paths put back)`, restore, "ms", goal(restore, 500, "ms"));
  print("  workerd CPU time of that restore", restoreCpu, "ms");
}

/** Two trees that differ in 100 files; returns the second checkpoint. */
async function diffRow(server, api, id, cp) {
  const edit = await api("POST", `/v1/sessions/${id}/tools/bash`, { command: `for d in $(seq 0 ${DIRS - 1}); do printf changed >> d$d/f7.bin; done` });
  if (!edit.body.success) throw new Error(`edit failed: ${JSON.stringify(edit.body)}`);
  const cpB = (await api("POST", `/v1/sessions/${id}/checkpoints`, { label: "B" })).body;
  const diffs = [];
  const diffCpu = [];
  let listed;
  for (let i = 0; i < 3; i++) {
    const { wall, cpu, r } = await measured(server, () => api("GET", `/v1/sessions/${id}/diff?from=${cp.id}&to=${cpB.id}`));
    if (r.status !== 200) throw new Error(`diff failed: ${r.status}`);
    diffs.push(wall);
    diffCpu.push(cpu);
    listed = r.body.changed.length;
  }
  print(`diff of two 10,000-file trees differing in ${listed} files (median of 3)`, median(diffs), "ms", goal(median(diffs), 200, "ms"));
  print("  workerd CPU time of one diff (median of 3)", median(diffCpu), "ms");
  return cpB;
}

/** What the automatic checkpoint adds to a bash call, in the big session and in small ones (on and off). */
async function autoRows(port, id) {
  // The automatic checkpoint inside a big session: its cost must not follow the workspace's size.
  const big = [];
  for (let i = 0; i < 21; i++) big.push((await bashWrite(port, id, i)).inObject);
  print("bash writing one file, 10,000-file session: automatic checkpoint, in the object", mean(big), "ms", `mean of 21; ${goal(mean(big), 1, "ms")}`);
  // Retention counts history's bytes at most once a minute (BYTE_CHECK_INTERVAL_MS): that call pays for the others.
  const rest = [...big].sort((a, b) => a - b).slice(0, -1);
  print("  the slowest of those 21 (history's bytes counted, once a minute)", Math.max(...big), "ms");
  print("  mean of the other 20", mean(rest), "ms", goal(mean(rest), 1, "ms"));

  // Automatic checkpoints: the same bash call on a small session, with them on (this server)
  // and off (a second server), in this run, the calls interleaved so the load hits both alike.
  const on = await session(port);
  const offPort = await freePort();
  const offState = mkdtempSync(join(tmpdir(), "toolshed-bench-cp-off-"));
  const off = await startDevServer({ port: offPort, stateDir: offState, apiKeys: `bench=${KEY}`, vars: { TOOLSHED_CHECKPOINTS: "off" } });
  try {
    const o = await session(offPort);
    const withCp = [];
    const without = [];
    for (let i = 0; i < 44; i++) {
      const a = await bashWrite(port, on.id, i);
      const b = await bashWrite(offPort, o.id, i);
      if (i < 3) continue; // the first calls warm up
      withCp.push(a);
      without.push(b);
    }
    const rtOn = median(withCp.map((x) => x.roundTrip));
    const rtOff = median(without.map((x) => x.roundTrip));
    print("bash writing one file, automatic checkpoints on: round trip (median of 41)", rtOn, "ms", load());
    print("bash writing one file, automatic checkpoints off: round trip (median of 41)", rtOff, "ms", `ratio on/off ${(rtOn / rtOff).toFixed(2)}`);
    print("  difference of the round trips (noise of a loaded machine included)", rtOn - rtOff, "ms");
    const inOn = mean(withCp.map((x) => x.inObject));
    print("  in the object: automatic checkpoint + retention, on (mean of 41)", inOn, "ms", goal(inOn, 1, "ms"));
    print("  in the object: the same phases, off (mean of 41)", mean(without.map((x) => x.inObject)), "ms");
  } finally {
    await stopDevServer(off);
    rmSync(offState, { recursive: true, force: true });
  }
}
