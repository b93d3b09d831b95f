// Workspace benchmark against a real `wrangler dev`: a 10,000-file workspace answering
// `glob **/*`, one read in it, and a streamed 100 MB upload and download.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "../lib/dev-server.mjs";

const KEY = "bench-key";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

export async function benchWorkspace(print) {
  const stateDir = mkdtempSync(join(tmpdir(), "toolshed-bench-"));
  const port = await freePort();
  const server = await startDevServer({ port, stateDir, apiKeys: `bench=${KEY}` });
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

    const size = 100 * 1024 * 1024;
    const data = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    const sent = createHash("sha256").update(data).digest("hex");
    const up = await time(async () => {
      const r = await fetch(`${base}/files/big.bin`, { method: "PUT", headers: auth, body: data });
      if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${await r.text()}`);
    });
    print("100 MB upload (streamed into 256 KiB SQLite chunks)", up, "ms", `${(size / 1048576 / (up / 1000)).toFixed(0)} MB/s`);
    let got = "";
    const down = await time(async () => {
      const r = await fetch(`${base}/files/big.bin`, { headers: auth });
      const h = createHash("sha256");
      for await (const chunk of r.body) h.update(chunk);
      got = h.digest("hex");
    });
    print(`100 MB download (${got === sent ? "byte-identical" : "MISMATCH"})`, down, "ms", `${(size / 1048576 / (down / 1000)).toFixed(0)} MB/s`);
  } finally {
    await stopDevServer(server);
    rmSync(stateDir, { recursive: true, force: true });
  }
}
