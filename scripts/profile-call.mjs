// Where the CPU of a warm tool call goes inside workerd (issue 27): starts `wrangler dev`, makes
// warm calls straight to the Worker's own workerd socket, and samples that process with Linux
// `perf` (native frames: workerd, V8, SQLite, the kernel). Prints workerd CPU per call (from
// /proc) and the share of samples under each part of workerd's handling of a call.
//
//   node scripts/profile-call.mjs [--tool bash] [--args '{"command":"echo hi"}'] [--seconds 8]
//
// Why perf and not the V8 inspector's profiler (wrangler dev's --inspector-port): that profiler
// samples by wall clock and only JavaScript frames, so workerd's own work (RPC, SQLite commits,
// the dev server's log stream) lands on whichever JavaScript frame was last on the stack: it
// showed `new Response` at 1.3 ms per call, which a loop measures at 8 µs.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { aptInstall } from "./lib/debian.mjs";
import { freePort, startDevServer, stopDevServer, workerPort } from "./lib/dev-server.mjs";

const { values: opt } = parseArgs({
  options: {
    tool: { type: "string", default: "bash" },
    args: { type: "string", default: '{"command":"echo hi"}' },
    seconds: { type: "string", default: "8" },
  },
});
const KEY = "profile-key";

/** Where a sample's stack first (from the root) enters one of these, that part gets it. */
const PARTS = [
  ["TailStreamTarget", "wrangler dev's log stream (tail events; not deployed)"],
  ["JsRpcTargetBase", "the session object's RPC method (our code, its SQL, its RPC)"],
  ["WorkerEntrypoint::requestImpl", "the Worker's fetch (our code: auth, routing, JSON)"],
  ["resumeAfterIo", "resuming code after an await (either side)"],
  ["ActorSqlite", "committing the object's SQLite writes (fsync included)"],
];
/** Shares of samples whose stack holds these anywhere. */
const FEATURES = [
  ["SqlStorage::exec", "sql.exec (statements: prepare, step, cursor)"],
  ["vdbeCommit", "SQLite commit"],
  ["tracing::", "trace events for the log stream"],
  ["Scavenger", "V8 young-generation GC"],
];

if (spawnSync("perf", ["--version"]).status !== 0) aptInstall("profile-call", ["linux-perf"]);

const stateDir = mkdtempSync(join(tmpdir(), "toolshed-profile-"));
const port = await freePort();
const server = await startDevServer({ port, stateDir, apiKeys: `profile=${KEY}` });
try {
  const direct = await workerPort(server, port, KEY);
  const worker = execFileSync("pgrep", ["-g", String(server.pid), "workerd"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .find((pid) => !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`entry=127.0.0.1:${port}\0`));
  const cpuMs = () => {
    const f = readFileSync(`/proc/${worker}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
  };
  const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const post = async (path, body) => {
    const r = await fetch(`http://127.0.0.1:${direct}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = await r.json();
    if (r.status !== 200 && r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  const id = (await post("/v1/sessions", {})).id;
  const call = () => post(`/v1/sessions/${id}/tools/${opt.tool}`, JSON.parse(opt.args));
  for (let i = 0; i < 50; i++) await call();

  // Calls go on while perf samples the Worker's workerd for the given seconds.
  const out = join(stateDir, "perf.data");
  const perf = spawn("perf", ["record", "-q", "-F", "999", "-g", "-p", worker, "-o", out, "--", "sleep", String(Number(opt.seconds))], { stdio: "ignore" });
  const done = new Promise((resolve) => perf.on("exit", resolve));
  let finished = false;
  void done.then(() => (finished = true));
  await new Promise((r) => setTimeout(r, 300));
  const cpu0 = cpuMs();
  let calls = 0;
  while (!finished) {
    await call();
    calls++;
  }
  const cpu = (cpuMs() - cpu0) / calls;
  const stacks = parseStacks(execFileSync("perf", ["script", "-i", out, "-F", "ip,sym"], { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] }));
  console.log(`${opt.tool} ${opt.args}: ${calls} warm calls straight to workerd, workerd CPU ${cpu.toFixed(2)} ms per call, ${stacks.length} samples`);
  const share = (n) => `${((100 * n) / stacks.length).toFixed(1).padStart(5)}%`;
  const parts = new Map();
  for (const frames of stacks) {
    // perf prints the leaf first: the part is the first match walking from the root.
    const root = [...frames].reverse().find((f) => PARTS.some(([m]) => f.includes(m)));
    const name = root ? PARTS.find(([m]) => root.includes(m))[1] : "the rest (event loop, HTTP, sockets, kernel)";
    parts.set(name, (parts.get(name) ?? 0) + 1);
  }
  console.log("by part (where the stack first enters it):");
  for (const [name, n] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${share(n)}  ${name}`);
  console.log("anywhere on the stack:");
  for (const [mark, name] of FEATURES) console.log(`  ${share(stacks.filter((f) => f.some((x) => x.includes(mark))).length)}  ${name}`);
} finally {
  await stopDevServer(server);
  rmSync(stateDir, { recursive: true, force: true });
}

/** `perf script -F ip,sym` output: one block of `address symbol` lines (leaf first) per sample. */
function parseStacks(text) {
  return text
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .map((l) => l.trim().replace(/^\S+\s*/, ""))
        .filter(Boolean),
    )
    .filter((frames) => frames.length > 0);
}
