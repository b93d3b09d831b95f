// End-to-end fault check: `wrangler dev` (workerd and all) is killed with SIGKILL in the middle of
// a streamed upload, a big write_file, a run of small write_file and edit_file calls, a bash loop
// writing many files and a `tar -x`, then restarted on the same state directory. Afterwards every
// acknowledged write is there in full, nothing unacknowledged is half there (each file is absent,
// its old content or its whole new content), the tables pass the consistency check and the session
// works. Run by `npm test`; `node scripts/e2e-kill.mjs [--rounds N]`.
//
// The consistency check runs inside the restarted Durable Object, through the operator-only
// `GET /v1/sessions/:id/consistency` (on only with TOOLSHED_CONSISTENCY_CHECK=1): it reads the
// state the crash left, after the object's own start-up recovery, with the same code and SQLite
// the deployment runs, and needs no copy of workerd's private on-disk layout.
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { client, freePort, startDevServer, stopDevServer } from "./lib/dev-server.mjs";
import { check, finish } from "./lib/e2e-checks.mjs";

const { values: opt } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const KEY = "kill-key";
const state = mkdtempSync(join(tmpdir(), "toolshed-kill-"));
const port = await freePort();
let log = "";
const start = async () => {
  const child = await startDevServer({ port, stateDir: state, apiKeys: `alice=${KEY}`, vars: { TOOLSHED_CONSISTENCY_CHECK: "1" } });
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  return child;
};

const api = client(port, KEY);
const tool = (id, name, args) => api("POST", `/v1/sessions/${id}/tools/${name}`, args);
const fileUrl = (id, path) => `http://127.0.0.1:${port}/v1/sessions/${id}/files/${path.split("/").map(encodeURIComponent).join("/")}`;
/** A file's bytes, or null when absent. */
async function bytesOf(id, path) {
  const r = await fetch(fileUrl(id, path), { headers: { authorization: `Bearer ${KEY}` } });
  if (r.status === 404) return null;
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
  return Buffer.from(await r.arrayBuffer());
}
const patterned = (n) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff));
const TAR_FILES = 150;
const tarMember = (i) => `file ${i}\n`.repeat(300);
const LOOP_FILES = 400;
const LOOP = `mkdir -p loop && for i in $(seq ${LOOP_FILES}); do printf 'line %s\\n' $i > loop/f$i.txt; done`;
const TAR = "mkdir -p out && tar -xf t.tar -C out";
const BIG_WRITE = "0123456789abcdef\n".repeat(240_000); // ~4 MB through write_file
const UPLOAD_BYTES = 6 << 20;
const QUICK_UPLOAD_BYTES = 1 << 20;

/**
 * A PUT whose body trickles in (64 KiB every 25 ms); resolves with the status, or 0 when the
 * server died first. `onSent(fraction)` follows the body's progress.
 */
function slowUpload(id, path, body, onSent) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let at = 0;
    const pump = () => {
      if (socket.destroyed) return;
      if (at >= body.length) return;
      socket.write(body.subarray(at, at + 64 * 1024));
      at += 64 * 1024;
      onSent(Math.min(at / body.length, 1));
      setTimeout(pump, 25);
    };
    socket.on("connect", () => {
      const target = new URL(fileUrl(id, path)).pathname;
      socket.write(`PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
      pump();
    });
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0)));
  });
}

/** One round: a session prepared with acknowledged files, writes in flight, a SIGKILL, a restart, the checks. */
async function round(n, killPoint, server) {
  const id = (await api("POST", "/v1/sessions", {})).body.id;
  // Acknowledged before the storm: they must survive whatever happens next.
  check(`round ${n}: base file written`, (await tool(id, "write_file", { path: "base/keep.txt", content: "kept\n" })).body.success);
  const made = await tool(id, "bash", {
    command: `mkdir -p src && for i in $(seq ${TAR_FILES}); do yes "file $i" | head -n 300 > src/f$i.txt; done && tar -cf t.tar src && rm -rf src && echo 0 > counter.txt`,
  });
  check(`round ${n}: archive made`, made.body.success, JSON.stringify(made.body).slice(0, 300));
  // How long the loop and the extraction take here and now (a dry run in a scratch directory),
  // so the kill can be aimed at the middle of each.
  const timed = async (command) => {
    const t = Date.now();
    const r = await tool(id, "bash", { command });
    if (!r.body.success) throw new Error(`${command}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return Date.now() - t;
  };
  const took = { loop: await timed(LOOP.replaceAll("loop", "cal")), tar: await timed(TAR.replaceAll("out", "cal2")) };
  await tool(id, "bash", { command: "rm -rf cal cal2" });

  const acked = { small: [], counter: 0, loop: false, tar: false, big: false, upload: false, quickUpload: false };
  let dead = false;
  const inFlight = [];
  // Queued first: the loop, then tar -x, then the big write (the session runs writes one at a time).
  inFlight.push(
    tool(id, "bash", { command: LOOP })
      .then((r) => (acked.loop = r.body.success === true))
      .catch(() => undefined),
    tool(id, "bash", { command: TAR })
      .then((r) => (acked.tar = r.body.success === true))
      .catch(() => undefined),
    tool(id, "write_file", { path: "big/written.txt", content: BIG_WRITE })
      .then((r) => (acked.big = r.body.success === true))
      .catch(() => undefined),
    fetch(fileUrl(id, "big/quick.bin"), { method: "PUT", headers: { authorization: `Bearer ${KEY}` }, body: patterned(QUICK_UPLOAD_BYTES) })
      .then((r) => (acked.quickUpload = r.status === 201))
      .catch(() => undefined),
    (async () => {
      for (let i = 0; !dead; i++) {
        const r = await tool(id, "write_file", { path: `small/s${i}.txt`, content: `small ${i}\n`.repeat((i % 7) + 1) }).catch(() => null);
        if (r?.body?.success) acked.small.push(i);
        else break;
      }
    })(),
    (async () => {
      for (let v = 0; !dead; v++) {
        const r = await tool(id, "edit_file", { path: "counter.txt", old_string: `${v}\n`, new_string: `${v + 1}\n` }).catch(() => null);
        if (r?.body?.success) acked.counter = v + 1;
        else break;
      }
    })(),
  );
  // The kill is aimed at the middle of the loop or of tar -x (by the dry runs' times: their
  // progress cannot be seen from outside while the session is busy with them), or at the
  // upload's progress.
  let sent = 0;
  inFlight.push(slowUpload(id, "big/uploaded.bin", patterned(UPLOAD_BYTES), (f) => (sent = f)).then((s) => (acked.upload = s === 201)));
  const t0 = Date.now();
  while (Date.now() - t0 < 60_000 && !(await killPoint.reached({ sent, ms: Date.now() - t0, took }))) await new Promise((r) => setTimeout(r, 20));
  dead = true;
  process.kill(-server.pid, "SIGKILL");
  await Promise.all(inFlight);
  console.log(
    `     round ${n}: killed ${Date.now() - t0} ms in (${killPoint.what}, ${Math.round(sent * 100)}% of the upload sent); acknowledged ${acked.small.length} small writes, counter ${acked.counter}, loop ${acked.loop}, tar ${acked.tar}, write_file ${acked.big}, uploads ${acked.quickUpload}/${acked.upload}`,
  );

  server = await start();
  check(`round ${n}: base file intact`, (await bytesOf(id, "base/keep.txt"))?.toString() === "kept\n");
  const small = [];
  for (const i of acked.small) if ((await bytesOf(id, `small/s${i}.txt`))?.toString() !== `small ${i}\n`.repeat((i % 7) + 1)) small.push(i);
  check(`round ${n}: all ${acked.small.length} acknowledged small writes present in full`, small.length === 0, `missing or wrong: ${small.join(",")}`);
  const next = acked.small.length; // the one in flight at the kill, if any: absent or whole
  const pending = await bytesOf(id, `small/s${next}.txt`);
  check(
    `round ${n}: the small write in flight is absent or whole`,
    pending === null || pending.toString() === `small ${next}\n`.repeat((next % 7) + 1),
    String(pending).slice(0, 80),
  );
  const counter = (await bytesOf(id, "counter.txt"))?.toString();
  check(
    `round ${n}: counter holds the acknowledged edit or the one in flight`,
    counter === `${acked.counter}\n` || counter === `${acked.counter + 1}\n`,
    `${JSON.stringify(counter)} after ${acked.counter}`,
  );

  const whole = async (path, want, wasAcked) => {
    const got = await bytesOf(id, path);
    return wasAcked ? got !== null && got.equals(want) : got === null || got.equals(want);
  };
  check(`round ${n}: write_file of 4 MB ${acked.big ? "present in full" : "absent or whole"}`, await whole("big/written.txt", Buffer.from(BIG_WRITE), acked.big));
  check(
    `round ${n}: streamed upload of 6 MB ${acked.upload ? "present in full" : "absent or whole"}`,
    await whole("big/uploaded.bin", patterned(UPLOAD_BYTES), acked.upload),
  );
  check(
    `round ${n}: upload of 1 MB ${acked.quickUpload ? "present in full" : "absent or whole"}`,
    await whole("big/quick.bin", patterned(QUICK_UPLOAD_BYTES), acked.quickUpload),
  );

  const listed = await tool(id, "bash", { command: "find loop out -type f 2>/dev/null | sort" });
  check(`round ${n}: the session works after the restart`, listed.status === 200 && typeof listed.body.stdout === "string", JSON.stringify(listed.body).slice(0, 200));
  const found = (listed.body.stdout ?? "").split("\n").filter(Boolean);
  const expected = new Map([
    ...Array.from({ length: LOOP_FILES }, (_, k) => [`loop/f${k + 1}.txt`, `line ${k + 1}\n`]),
    ...Array.from({ length: TAR_FILES }, (_, k) => [`out/src/f${k + 1}.txt`, tarMember(k + 1)]),
  ]);
  const torn = [];
  for (const f of found) {
    const want = expected.get(f);
    const got = await bytesOf(id, f);
    if (want === undefined || got?.toString() !== want) torn.push(`${f}: ${JSON.stringify(got?.toString().slice(0, 40))}`);
  }
  const count = (dir) => found.filter((f) => f.startsWith(dir)).length;
  check(`round ${n}: ${count("loop/")} files from the loop and ${count("out/")} from tar -x, each whole`, torn.length === 0, torn.slice(0, 5).join("; "));
  if (acked.loop) check(`round ${n}: the acknowledged loop left all ${LOOP_FILES} files`, found.filter((f) => f.startsWith("loop/")).length === LOOP_FILES);
  if (acked.tar) check(`round ${n}: the acknowledged tar -x left all ${TAR_FILES} files`, found.filter((f) => f.startsWith("out/")).length === TAR_FILES);

  const c = await api("GET", `/v1/sessions/${id}/consistency`);
  check(`round ${n}: consistency check finds nothing`, c.status === 200 && c.body.problems.length === 0, JSON.stringify(c.body).slice(0, 400));
  const w = await tool(id, "write_file", { path: "after.txt", content: "after\n" });
  check(`round ${n}: writes and reads after the restart`, w.body.success && (await bytesOf(id, "after.txt"))?.toString() === "after\n");
  return server;
}

const started = Date.now();
let server;
try {
  server = await start();
  const killPoints = [
    { what: "early in the bash loop", reached: ({ ms, took }) => ms >= took.loop * 0.3 },
    { what: "early in tar -x", reached: ({ ms, took }) => ms >= took.loop * 0.8 + took.tar * 0.3 },
    { what: "upload 80% sent", reached: ({ sent }) => sent >= 0.8 },
  ];
  for (let n = 0; n < Number(opt.rounds); n++) server = await round(n + 1, killPoints[n % killPoints.length], server);
} catch (e) {
  check("kill run", false, String(e?.stack ?? e));
  console.log(
    log
      .split("\n")
      .filter((l) => /error|uncaught|exception/i.test(l))
      .slice(-20)
      .join("\n"),
  );
} finally {
  if (server) await stopDevServer(server).catch(() => undefined);
  rmSync(state, { recursive: true, force: true });
}
console.log(`kill e2e took ${((Date.now() - started) / 1000).toFixed(1)} s`);
finish();
