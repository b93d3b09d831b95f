// Workspace benchmark against a real `wrangler dev`: a 10,000-file workspace answering
// `glob **/*`, one read in it, and a streamed 100 MB upload and download, beside the same
// 100 MB sent to and fetched from a hello-world Worker (the platform's floor) in the same run.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { client, freePort, startDevServer, stopDevServer } from "../lib/dev-server.mjs";
import { floorConfig } from "./latency.mjs";

const KEY = "bench-key";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const SIZE = 100 * 1024 * 1024;

/** Resident memory (bytes) of the server's workerd processes other than wrangler's proxy. */
function workerdRss(server, proxyPort) {
  let rss = 0;
  let pids = [];
  try {
    pids = execFileSync("pgrep", ["-g", String(server.pid), "workerd"], { encoding: "utf8" })
      .trim()
      .split("\n");
  } catch {}
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`entry=127.0.0.1:${proxyPort}\0`)) continue;
      rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {} // exited meanwhile
  }
  return rss;
}

/** Times `fn` while sampling the Worker's resident memory: its peak growth over the start, in MB. */
async function watched(server, proxyPort, fn) {
  const start = workerdRss(server, proxyPort);
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, workerdRss(server, proxyPort))), 20);
  const t = performance.now();
  try {
    const size = await fn();
    return { ms: performance.now() - t, size, peakMB: (Math.max(peak, workerdRss(server, proxyPort)) - start) / 1048576 };
  } finally {
    clearInterval(timer);
  }
}

/**
 * One body of SIZE bytes up (PUT) and down (GET), streamed on the client's side as it arrives.
 * `data`: the bytes to send and compare; null sends a SIZE-byte pattern and only counts.
 */
async function transfer(server, proxyPort, { put, get, data }) {
  const body = data ?? Buffer.alloc(SIZE, 7);
  const up = await watched(server, proxyPort, async () => {
    const r = await fetch(put.url, { method: "PUT", headers: put.headers, body });
    const text = await r.text();
    if (r.status !== put.ok) throw new Error(`upload to ${put.url} failed: ${r.status} ${text}`);
    return JSON.parse(text).size;
  });
  const h = createHash("sha256");
  const down = await watched(server, proxyPort, async () => {
    const r = await fetch(get.url, { headers: get.headers });
    if (r.status !== 200) throw new Error(`download of ${get.url} failed: ${r.status} ${await r.text()}`);
    let n = 0;
    for await (const chunk of r.body) {
      n += chunk.length;
      if (data) h.update(chunk);
    }
    return n;
  });
  const identical = data ? h.digest("hex") === createHash("sha256").update(data).digest("hex") : true;
  return { up, down, identical };
}

export async function benchWorkspace(print) {
  const stateDir = mkdtempSync(join(tmpdir(), "toolshed-bench-"));
  const port = await freePort();
  const floorPort = await freePort();
  let server = await startDevServer({ port, stateDir, apiKeys: `bench=${KEY}` });
  try {
    const api = client(port, KEY);
    const id = (await api("POST", "/v1/sessions", {})).body.id;
    const base = `http://127.0.0.1:${port}/v1/sessions/${id}`;
    const auth = { authorization: `Bearer ${KEY}` };

    const files = Array.from({ length: 10_000 }, (_, i) => `d${Math.floor(i / 100)}/f${i % 100}.txt`);
    // wrangler dev restarts the Worker when sources change; retry those 503s, fail on anything else.
    const put = async (f) => {
      for (let attempt = 0; ; attempt++) {
        const r = await fetch(`${base}/files/${f}`, { method: "PUT", headers: auth, body: `file ${f}\n` });
        if (r.status === 201) return;
        if (attempt >= 3) throw new Error(`upload of ${f} failed: ${r.status} ${await r.text()}`);
      }
    };
    const fill = await time(async () => {
      for (let i = 0; i < files.length; i += 64) await Promise.all(files.slice(i, i + 64).map(put));
    });
    print("10,000 files uploaded (64 at a time)", fill, "ms");
    const globs = [];
    let total = 0;
    for (let i = 0; i < 5; i++) {
      globs.push(await time(async () => (total = (await api("POST", `/v1/sessions/${id}/tools/glob`, { pattern: "**/*" })).body.total)));
    }
    print(`glob **/* over ${total} files (median of 5, HTTP round trip included)`, median(globs), "ms");
    const reads = [];
    for (let i = 0; i < 5; i++) reads.push(await time(() => api("POST", `/v1/sessions/${id}/tools/read_file`, { path: "d57/f3.txt" })));
    print("read_file of one file in the 10,000-file workspace (median of 5)", median(reads), "ms");
    const greps = [];
    for (let i = 0; i < 3; i++) greps.push(await time(() => api("POST", `/v1/sessions/${id}/tools/grep`, { pattern: "f99\\.txt" })));
    print("grep over the 10,000 files (median of 3)", median(greps), "ms");

    // 100 MB through the files API, then the same bytes to and from a hello-world Worker under
    // its own `wrangler dev` in the same run: the platform's floor for moving a body.
    const data = Buffer.alloc(SIZE);
    for (let i = 0; i < SIZE; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    const ours = await transfer(server, port, {
      put: { url: `${base}/files/big.bin`, headers: auth, ok: 201 },
      get: { url: `${base}/files/big.bin`, headers: auth },
      data,
    });
    await stopDevServer(server);
    server = null;
    const floorServer = await startDevServer({ port: floorPort, stateDir: join(stateDir, "floor"), apiKeys: `bench=${KEY}`, config: floorConfig(stateDir, false) });
    let floor;
    try {
      floor = await transfer(floorServer, floorPort, {
        put: { url: `http://127.0.0.1:${floorPort}/bytes`, headers: {}, ok: 200 },
        get: { url: `http://127.0.0.1:${floorPort}/bytes?n=${SIZE}`, headers: {} },
        data: null,
      });
    } finally {
      await stopDevServer(floorServer);
    }
    const mbs = (ms) => SIZE / 1048576 / (ms / 1000);
    const mem = (r, dir) => `workerd peak +${r[dir].peakMB.toFixed(0)} MB`;
    print(
      "100 MB upload (PUT /files, streamed into 256 KiB SQLite chunks)",
      ours.up.ms,
      "ms",
      `${mbs(ours.up.ms).toFixed(0)} MB/s; floor Worker ${mbs(floor.up.ms).toFixed(0)} MB/s (${floor.up.ms.toFixed(0)} ms), ratio ${(ours.up.ms / floor.up.ms).toFixed(1)}x; ${mem(ours, "up")} (floor +${floor.up.peakMB.toFixed(0)})`,
    );
    print(
      `100 MB download (GET /files, ${ours.identical ? "byte-identical" : "MISMATCH"})`,
      ours.down.ms,
      "ms",
      `${mbs(ours.down.ms).toFixed(0)} MB/s; floor Worker ${mbs(floor.down.ms).toFixed(0)} MB/s (${floor.down.ms.toFixed(0)} ms), ratio ${(ours.down.ms / floor.down.ms).toFixed(1)}x; ${mem(ours, "down")} (floor +${floor.down.peakMB.toFixed(0)})`,
    );
    if (!ours.identical) throw new Error("the 100 MB download differs from what was uploaded");
    if (floor.up.size !== SIZE || floor.down.size !== SIZE) throw new Error(`the floor Worker moved ${floor.up.size} up and ${floor.down.size} down, not ${SIZE}`);
  } finally {
    if (server) await stopDevServer(server);
    rmSync(stateDir, { recursive: true, force: true });
  }
}
