// End-to-end fault check of checkpoints (docs/checkpoints.md): `wrangler dev` (workerd and all)
// is killed with SIGKILL in the middle of a restore and in the middle of a fork, at a few points
// each, and restarted on the same state directory. Afterwards the session's tree is either the
// old one or the new one, whole (compared with both checkpoints through the diff API and, apart
// from it, by a digest of every file's bytes taken with bash), the consistency check finds no
// torn file and no orphaned blob, and every session the tenant lists (the source and any fork
// that finished) is whole too. Run by `npm test`; `node scripts/e2e-checkpoints.mjs`.
//
// Kill points are aimed by time: the uncut restore and fork are timed first on the same server,
// and the kills land at fractions of those times after the request is sent.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "./lib/dev-server.mjs";
import { check, finish } from "./lib/e2e-checks.mjs";

const KEY = "cp-kill-key";
const DIRS = 40;
const PER_DIR = 100; // 4,000 files: a restore long enough to be cut (about 100 ms in the object)
const state = mkdtempSync(join(tmpdir(), "toolshed-cpkill-"));
const work = mkdtempSync(join(tmpdir(), "toolshed-cpkill-tree-"));
const port = await freePort();
const start = () => startDevServer({ port, stateDir: state, apiKeys: `alice=${KEY}`, vars: { TOOLSHED_CONSISTENCY_CHECK: "1" } });
const api = client(port, KEY);
const bash = (id, command) => api("POST", `/v1/sessions/${id}/tools/bash`, { command });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const timed = async (fn) => {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
};
/** Every file's path and bytes, as one digest (independent of the checkpoint code). */
const DIGEST = "find . -type f | sort | xargs -r md5sum | md5sum; find . | wc -l";
const digest = async (id) => {
  const r = await bash(id, DIGEST);
  if (!r.body.success) throw new Error(`digest: ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body.stdout;
};
/** Whether session `id`'s live tree equals checkpoint `cp` (the diff API lists no path). */
const equalsCheckpoint = async (id, cp) => {
  const d = await api("GET", `/v1/sessions/${id}/diff?from=${cp}&to=now`);
  if (d.status !== 200) throw new Error(`diff: ${d.status} ${JSON.stringify(d.body).slice(0, 200)}`);
  return d.body.added.length + d.body.removed.length + d.body.changed.length + d.body.mode_changed.length === 0;
};
const consistent = async (id) => {
  const c = await api("GET", `/v1/sessions/${id}/consistency`);
  return { ok: c.status === 200 && c.body.problems.length === 0, detail: JSON.stringify(c.body).slice(0, 400) };
};

const started = Date.now();
let server;
try {
  server = await start();
  const id = (await api("POST", "/v1/sessions", {})).body.id;
  // Two states to move between: E (only keep.txt) and F (4,000 more files of distinct bytes).
  check("file written", (await api("POST", `/v1/sessions/${id}/tools/write_file`, { path: "keep.txt", content: "kept\n" })).body.success);
  const E = (await api("POST", `/v1/sessions/${id}/checkpoints`, { label: "E" })).body.id;
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(join(work, "t", `d${d}`), { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(join(work, "t", `d${d}`, `f${f}.txt`), `dir ${d} file ${f}\n`.repeat(1 + ((d * PER_DIR + f) % 40)));
  }
  spawnSync("tar", ["-cf", join(work, "t.tar"), "-C", join(work, "t"), "."]);
  const put = await fetch(`http://127.0.0.1:${port}/v1/sessions/${id}/files/t.tar`, {
    method: "PUT",
    headers: { authorization: `Bearer ${KEY}` },
    body: readFileSync(join(work, "t.tar")),
  });
  check("archive uploaded", put.status === 201, String(put.status));
  const x = await bash(id, "tar -xf t.tar && rm t.tar");
  check(`${DIRS * PER_DIR} files extracted`, x.body.success, JSON.stringify(x.body).slice(0, 300));
  const F = (await api("POST", `/v1/sessions/${id}/checkpoints`, { label: "F" })).body.id;
  const digests = { [F]: await digest(id) };
  // The kills are aimed at fractions of an uncut restore of the same size (F→E, then back).
  const [restoreMs, r0] = await timed(() => api("POST", `/v1/sessions/${id}/checkpoints/${E}/restore`, {}));
  check(`restore to E (uncut): ${r0.body.changed} paths in ${restoreMs.toFixed(0)} ms`, r0.status === 200);
  digests[E] = await digest(id);
  const r1 = await api("POST", `/v1/sessions/${id}/checkpoints/${F}/restore`, {});
  check(`restore to F (uncut): ${r1.body.changed} paths`, r1.status === 200 && (await digest(id)) === digests[F]);
  let at = F;

  // Kills in the middle of a restore, each way.
  for (const fraction of [0.5, 0.9]) {
    const to = at === F ? E : F;
    const name = `restore ${at === F ? "F→E" : "E→F"} killed at ${Math.round(fraction * 100)}% of ${restoreMs.toFixed(0)} ms`;
    const pending = api("POST", `/v1/sessions/${id}/checkpoints/${to}/restore`, {}).catch(() => null);
    await sleep(restoreMs * fraction);
    process.kill(-server.pid, "SIGKILL");
    const answered = await pending;
    server = await start();
    const isOld = await equalsCheckpoint(id, at);
    const isNew = await equalsCheckpoint(id, to);
    const d = await digest(id);
    const outcome = isNew ? "new tree" : isOld ? "old tree" : "neither";
    check(`${name}: ${outcome} whole (answer ${answered?.status ?? "none"})`, (isOld && d === digests[at]) || (isNew && d === digests[to]), `digest ${d}`);
    const c = await consistent(id);
    check(`${name}: consistency check finds nothing`, c.ok, c.detail);
    if (isNew) at = to;
  }
  if (at !== F) {
    check("back to F", (await api("POST", `/v1/sessions/${id}/checkpoints/${F}/restore`, {})).status === 200);
    at = F;
  }

  // Kills in the middle of a fork of F (4,000 files streamed from one object to another).
  const [forkMs, f1] = await timed(() => api("POST", `/v1/sessions/${id}/fork`, { checkpoint: F }));
  check(`fork (uncut) in ${forkMs.toFixed(0)} ms`, f1.status === 201 && (await digest(f1.body.id)) === digests[F], JSON.stringify(f1.body).slice(0, 200));
  const listed = async () => (await api("GET", "/v1/sessions")).body.sessions.map((s) => s.id);
  for (const fraction of [0.3, 0.8]) {
    const name = `fork killed at ${Math.round(fraction * 100)}% of ${forkMs.toFixed(0)} ms`;
    const before = await listed();
    const pending = api("POST", `/v1/sessions/${id}/fork`, { checkpoint: F }).catch(() => null);
    await sleep(forkMs * fraction);
    process.kill(-server.pid, "SIGKILL");
    const answered = await pending;
    server = await start();
    const after = await listed();
    const added = after.filter((s) => !before.includes(s));
    // The fork either finished (one new session, whole) or left no session at all; a half-made
    // object is no session (404) and its alarm erases it (test/checkpoints/fork-faults.test.ts).
    let whole = added.length === 0;
    for (const s of added) whole = added.length === 1 && (await digest(s)) === digests[F] && (await consistent(s)).ok;
    check(`${name}: ${added.length ? "the new session whole" : "no new session"} (answer ${answered?.status ?? "none"})`, whole, JSON.stringify(added));
    const src = await consistent(id);
    check(`${name}: the source is unchanged and consistent`, src.ok && (await digest(id)) === digests[F], src.detail);
  }
  for (const s of await listed()) {
    const c = await consistent(s);
    check(`session ${s.slice(0, 8)}: consistency check finds nothing`, c.ok, c.detail);
  }
  const w = await api("POST", `/v1/sessions/${id}/tools/write_file`, { path: "after.txt", content: "after\n" });
  check("the session works after the kills", w.body.success === true);
} catch (e) {
  check("checkpoint kill run", false, String(e?.stack ?? e));
} finally {
  if (server) await stopDevServer(server).catch(() => undefined);
  rmSync(state, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
console.log(`checkpoint kill e2e took ${((Date.now() - started) / 1000).toFixed(1)} s`);
finish();
