// `npm run fuzz [-- --runs N --seed S --clients C --seconds T --disconnects PERCENT]`: property-generated hostile
// requests against a real `wrangler dev` on 127.0.0.1, sent raw by C clients at once over many
// sessions, mixed with well-formed operations on "modelled" sessions whose expected workspace is
// kept beside the run (scripts/lib/fuzz-model.mjs). After each batch: no 5xx, no lost connection,
// every answer in its documented shape, no uncaught error in the server log, and each modelled
// session holds exactly what the acknowledged operations left; at the end, every session's tables
// pass the consistency check and another tenant's session is untouched.
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { client, freePort, startDevServer, stopDevServer } from "./lib/dev-server.mjs";
import { rawRequest } from "./lib/raw-http.mjs";
import { modelOp, planBatch, readBack, SessionModel } from "./lib/fuzz-model.mjs";

const { values: opt } = parseArgs({
  options: {
    runs: { type: "string", default: "300" },
    seed: { type: "string" },
    clients: { type: "string", default: "4" },
    seconds: { type: "string", default: "300" },
    disconnects: { type: "string", default: "10" },
  },
});
const runs = Number(opt.runs);
const seed = opt.seed === undefined ? Date.now() % 2 ** 31 : Number(opt.seed);
const clients = Number(opt.clients);
console.log(`fuzz: seed ${seed} (rerun with --seed ${seed})`);
const BATCH = 8;

const KEYS = { alice: "fuzz-key-alice", bob: "fuzz-key-bob" };
const port = await freePort();
const stateDir = mkdtempSync(join(tmpdir(), "toolshed-fuzz-"));
const server = await startDevServer({ port, stateDir, apiKeys: `alice=${KEYS.alice},bob=${KEYS.bob}`, vars: { TOOLSHED_CONSISTENCY_CHECK: "1" } });
let log = "";
server.stdout.on("data", (d) => (log += d));
server.stderr.on("data", (d) => (log += d));

const alice = client(port, KEYS.alice);
const bob = client(port, KEYS.bob);
const sessions = [];
for (let i = 0; i < 4; i++) sessions.push((await alice("POST", "/v1/sessions", {})).body.id);
/** Sessions only well-formed operations and must-refuse requests reach, with their expected state. */
const models = [];
for (let i = 0; i < 3; i++) models.push(new SessionModel((await alice("POST", "/v1/sessions", {})).body.id));
const bobSession = (await bob("POST", "/v1/sessions", {})).body.id;
const SENTINEL = "bob's data, never to change\n";
await bob("POST", `/v1/sessions/${bobSession}/tools/write_file`, { path: "keep/sentinel.txt", content: SENTINEL });
const tools = (await alice("GET", "/v1/tools")).body.tools.map((t) => t.name);

// ---- generators ---------------------------------------------------------------------------
const hostileSegment = fc.oneof(
  fc.constantFrom(
    "..",
    ".",
    "%2e%2e",
    "%2E%2E",
    "%252e%252e",
    "\\",
    "..\\..",
    "%5C",
    "%00",
    "a%00b",
    "%C0%AE%C0%AE",
    "%C0%AF",
    "%FF%FE",
    "%E2%80%AE",
    "SOUL.md",
    ".env",
    "agent.db",
    "%2F",
    "%252F",
    "~",
    "//",
    "x".repeat(300),
    "%",
    "%zz",
    "%E9",
  ),
  fc.string({ unit: "grapheme", maxLength: 12 }).map(encodeURIComponent),
  fc.uint8Array({ maxLength: 8 }).map((b) => [...b].map((x) => "%" + x.toString(16).padStart(2, "0")).join("")),
  fc.constantFrom("a", "b.txt", "dir", "notes.md"),
);
const hostilePath = fc.tuple(fc.array(hostileSegment, { minLength: 1, maxLength: 6 }), fc.constantFrom("/", "\\")).map(([s, sep]) => s.join(sep));
const toolPath = fc.oneof(hostilePath, hostilePath.map(decodeSafe), fc.string({ maxLength: 40 }), fc.constant("/workspace/../etc/passwd"));
function decodeSafe(p) {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

const sessionRef = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...sessions) },
  { weight: 1, arbitrary: fc.constant(bobSession) },
  { weight: 1, arbitrary: fc.constantFrom("nope", "%2e%2e", "0".repeat(64), sessions[0] + "%00", "..") },
);

const toolArgs = fc.oneof(
  fc.record({ path: toolPath, content: fc.string({ maxLength: 200 }) }, { requiredKeys: [] }),
  fc.record({ path: toolPath, old_string: fc.string({ maxLength: 5 }), new_string: fc.string({ maxLength: 5 }), replace_all: fc.anything() }, { requiredKeys: [] }),
  fc.record({ pattern: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom("(", "[", "**/*", "a{1000000}")), path: toolPath }, { requiredKeys: [] }),
  fc.record(
    {
      command: fc.constantFrom(
        "ls -la",
        "cat SOUL.md",
        "echo hi > 'a\\b'",
        "cat ../../etc/passwd",
        "printf '\\xff\\xfe' > bad.bin",
        "rm -rf /",
        "seq 1 1000 | wc -l",
        "echo $((1/0))",
        "ls /workspace/..",
      ),
      timeout_seconds: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant("10")),
    },
    { requiredKeys: ["command"] },
  ),
  fc.anything({ maxDepth: 2 }),
);

const body = fc.oneof(
  { weight: 5, arbitrary: toolArgs.map((a) => Buffer.from(JSON.stringify(a) ?? "null")) },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }).map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([Buffer.from('{"path":"'), Buffer.from(b), Buffer.from('"}')])) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.from("{"), Buffer.from('{"path": 1e999999}'), Buffer.from("[]"), Buffer.from("null"), Buffer.alloc(0)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((mb) => Buffer.alloc(mb * 200_000, 120)) },
);

const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
const auth = fc.oneof(
  { weight: 8, arbitrary: fc.constant(`Bearer ${KEYS.alice}`) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, "Bearer", "Bearer wrong", `Basic ${KEYS.alice}`, `Bearer ${KEYS.alice} extra`) },
);
const contentType = fc.constantFrom(undefined, "application/json", "text/plain", "multipart/form-data; boundary=x", "application/json; charset=latin1");

const target = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(sessionRef, hostilePath).map(([s, p]) => `/v1/sessions/${s}/files/${p}`) },
  { weight: 4, arbitrary: fc.tuple(sessionRef, fc.oneof(fc.constantFrom(...tools), hostileSegment)).map(([s, t]) => `/v1/sessions/${s}/tools/${t}`) },
  { weight: 1, arbitrary: sessionRef.map((s) => `/v1/sessions/${s}`) },
  { weight: 1, arbitrary: fc.tuple(sessionRef, fc.constantFrom("", "?limit=-1", "?limit=abc", "?limit=99999")).map(([s, q]) => `/v1/sessions/${s}/log${q}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("/v1/tools", "/v1/sessions", "/", "/v2/x", "/v1//sessions"), hostilePath).map(([a, p]) => (a === "/" ? a + p : a)) },
);

const request = fc
  .record({
    method,
    target,
    auth,
    contentType,
    body,
    cut: Number(opt.disconnects) > 0 ? fc.option(fc.integer({ min: 0, max: 100 }), { freq: Math.round(100 / Number(opt.disconnects)) }) : fc.constant(null),
  })
  .map(({ method, target, auth, contentType, body, cut }) => {
    const headers = { "content-length": String(body.length) };
    if (auth) headers.authorization = auth;
    if (contentType) headers["content-type"] = contentType;
    const sendsBody = method !== "GET" && method !== "HEAD";
    return {
      method,
      target,
      headers: sendsBody ? headers : { ...headers, "content-length": "0" },
      body: sendsBody ? body : Buffer.alloc(0),
      cutAfter: sendsBody && cut !== null ? Math.min(cut, body.length) : undefined,
    };
  });

// Hostile requests at a modelled session with a key that must not reach it: refused whatever
// they carry, so they leave the model unchanged.
const refusedRequest = fc
  .record({
    method,
    s: fc.constantFrom(...models.map((m) => m.id)),
    rest: fc.oneof(
      hostilePath.map((p) => `files/${p}`),
      fc.constantFrom(...tools).map((t) => `tools/${t}`),
    ),
    body,
    auth: fc.constantFrom(undefined, "Bearer wrong", `Bearer ${KEYS.bob}`, `Basic ${KEYS.alice}`),
  })
  .map(({ method, s, rest, body, auth }) => ({
    method,
    target: `/v1/sessions/${s}/${rest}`,
    headers: { "content-length": String(method === "GET" || method === "HEAD" ? 0 : body.length), ...(auth ? { authorization: auth } : {}) },
    body: method === "GET" || method === "HEAD" ? Buffer.alloc(0) : body,
    mustRefuse: true,
  }));

// ---- invariants -----------------------------------------------------------------------------
/** What is wrong with an answer, or null. */
function violation(req, res) {
  if (req.cutAfter !== undefined) return null; // the client left; only the server log can tell
  if (res.status < 100) return `no answer (${res.error})`;
  if (res.status >= 500) return `status ${res.status}: ${res.body.toString("utf8").slice(0, 200)}`;
  if (req.mustRefuse && res.status !== 401 && res.status !== 404 && res.status !== 400) return `a request with a key that does not own the session got ${res.status}`;
  if (req.method === "HEAD") return null;
  const type = res.headers["content-type"] ?? "";
  // The route sees the URL after WHATWG parsing (`\` is `/`, dot segments resolved).
  const route = URL.canParse("http://127.0.0.1" + req.target) ? new URL("http://127.0.0.1" + req.target).pathname : "";
  if (res.status === 200 && req.method === "GET" && /^\/v1\/sessions\/[^/]+\/files\//.test(route)) {
    return type === "application/octet-stream" ? null : `download served as ${type}`;
  }
  if (!type.startsWith("application/json")) return `content-type ${type}`;
  let value;
  try {
    value = JSON.parse(res.body.toString("utf8"));
  } catch {
    return "body is not JSON";
  }
  if (typeof value !== "object" || value === null) return "body is not a JSON object";
  if (res.status >= 400) return typeof value.error === "string" && typeof value.message === "string" ? null : "error without {error, message}";
  if (/^\/v1\/sessions\/[^/]+\/tools\//.test(route) && req.method === "POST") return typeof value.success === "boolean" ? null : "tool result without success";
  return null;
}

const LOG_PROBLEM = /Uncaught|\[ERROR\]|request failed|Network connection lost|restarted mid-request/;
// When a client leaves before sending the body it announced, wrangler dev logs these lines (some
// time later) even for a 401 that never touches the body, the first thing the Worker does: they
// are counted apart, not as the Worker's errors, when the run has leaving clients.
const CLIENT_LEFT = /Failed to drain the unused request body|Uncaught Error: Network connection lost/;
// wrangler 4.164's dev proxy reports a request it sent on a pooled connection to workerd that had
// died ("Error inside ProxyWorker ... Network connection lost"); the client still gets its
// answer, which `violation` and the read-back judge. Counted and printed apart: the proxy's, not
// the Worker's (docs/platform.md).
const PROXY_LOST = /Error inside ProxyWorker.*Network connection lost/;
let proxyLostLines = 0;
const leavers = Number(opt.disconnects) > 0;
let clientLeftLines = 0;
let sent = 0;
let logSeen = 0;
const failures = [];

const FULL_READBACK_EVERY = 25;
let batches = 0;

/** One request as an alice client, parsed; every answer still goes through `violation`. */
async function send(req) {
  const body = req.json !== undefined ? Buffer.from(JSON.stringify(req.json)) : req.body;
  const headers = {
    authorization: `Bearer ${KEYS.alice}`,
    ...(req.json !== undefined ? { "content-type": "application/json", "content-length": String(body.length) } : {}),
    ...req.headers,
  };
  if (body === undefined) headers["content-length"] = "0";
  const full = { ...req, headers, body: body ?? Buffer.alloc(0) };
  const res = await rawRequest(port, full);
  sent++;
  const v = violation(full, res);
  if (v) throw new Error(`${req.method} ${req.target}: ${v}`);
  try {
    res.json = JSON.parse(res.body.toString("utf8"));
  } catch {}
  return res;
}

/**
 * Sends a batch from `clients` connections at once (hostile requests, must-refuse requests and
 * the modelled operations, interleaved), checks every answer and the log, then reads the
 * modelled sessions back against their model.
 */
async function runBatch({ hostile, refused, ops }) {
  const { steps, touched } = planBatch(ops, models, send);
  const queue = [...hostile, ...refused].map((req) => async () => {
    const v = violation(req, await rawRequest(port, req));
    sent++;
    return v && `${req.method} ${req.target}: ${v}`;
  });
  steps.forEach((step) => queue.splice(Math.floor(queue.length / 2), 0, async () => step.check(await step.send())));
  const problems = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        try {
          const v = await job();
          if (v) problems.push(v);
        } catch (e) {
          problems.push(e instanceof Error && !e.stack?.includes("node:") ? e.message : `harness error: ${e?.stack ?? e}`);
        }
      }
    }),
  );
  const full = ++batches % FULL_READBACK_EVERY === 0;
  for (const [i, m] of models.entries()) {
    if (!full && touched[i].size === 0) continue;
    try {
      problems.push(...(await readBack(m, send, full ? null : [...touched[i]])));
    } catch (e) {
      problems.push(String(e.message ?? e));
    }
  }
  await new Promise((r) => setTimeout(r, 50)); // let the log catch up with the last answers
  const fresh = log.slice(logSeen);
  logSeen = log.length;
  for (const line of fresh.split("\n")) {
    if (!LOG_PROBLEM.test(line)) continue;
    if (leavers && CLIENT_LEFT.test(line)) clientLeftLines++;
    else if (PROXY_LOST.test(line)) proxyLostLines++;
    else problems.push(`server log: ${line.trim().slice(0, 300)}`);
  }
  if (problems.some((p) => / status 5\d\d/.test(p))) {
    // What else the server said meanwhile (a restart of the Worker, a crash), without the request lines.
    const said = fresh.split("\n").filter((l) => l.trim() && !/^\[wrangler:info\] [A-Z]+ \//.test(l));
    problems.push(`server log during the batch: ${said.slice(-15).join(" | ").slice(0, 3000)}`);
  }
  if (problems.length) {
    failures.push(...problems);
    // The batch's modelled operations, to read with the violations (the seed replays the run).
    for (const { s, op } of ops)
      failures.push(
        `batch op on session ${s}: ${JSON.stringify(op, (_k, v) => (typeof v === "string" && v.length > 80 ? v.slice(0, 80) + "..." : v?.type === "Buffer" ? `<${v.data.length} bytes>` : v))}`,
      );
  }
  return problems.length === 0;
}

const batch = fc.record({
  hostile: fc.array(request, { maxLength: BATCH / 2 }),
  refused: fc.array(refusedRequest, { maxLength: 1 }),
  ops: fc.array(fc.record({ s: fc.nat({ max: models.length - 1 }), op: modelOp }), { maxLength: BATCH }),
});

const started = Date.now();
let error = null;
try {
  // A batch sends about BATCH requests on average (hostile, modelled and read-back ones).
  await fc.assert(fc.asyncProperty(batch, runBatch), {
    numRuns: Math.ceil(runs / BATCH),
    seed,
    endOnFailure: true,
    interruptAfterTimeLimit: Number(opt.seconds) * 1000,
  });
} catch (e) {
  error = String(e.message ?? e)
    .split("\n")
    .filter((l) => !l.startsWith("Counterexample"))
    .slice(0, 3)
    .join("\n");
}

// Another tenant's session: still there, byte for byte, and nothing else appeared in it.
const kept = await bob("POST", `/v1/sessions/${bobSession}/tools/bash`, { command: "find . | sort; cat keep/sentinel.txt" });
if (kept.body.stdout !== `.\n./keep\n./keep/sentinel.txt\n${SENTINEL}`) failures.push(`bob's session changed: ${JSON.stringify(kept.body).slice(0, 300)}`);
// Every modelled file byte for byte, and every session's tables (src/vfs/consistency.ts).
for (const m of models) failures.push(...(await readBack(m, send, null).catch((e) => [String(e.message ?? e)])));
for (const [who, id] of [...sessions, ...models.map((m) => m.id)].map((id) => [alice, id]).concat([[bob, bobSession]])) {
  const c = await who("GET", `/v1/sessions/${id}/consistency`);
  if (c.status === 404 && sessions.includes(id)) continue; // the hostile traffic may DELETE its own sessions
  if (c.status !== 200 || c.body.problems.length) failures.push(`consistency of ${id}: ${c.status} ${JSON.stringify(c.body).slice(0, 300)}`);
}

await stopDevServer(server);
rmSync(stateDir, { recursive: true, force: true });
const seconds = ((Date.now() - started) / 1000).toFixed(1);
for (const f of [...new Set(failures)].slice(0, 30)) console.log("  " + f);
if (error) console.log(error);
const modelled = models.map((m) => m.files.size).join("/");
console.log(
  `fuzz: ${sent} requests in ${seconds} s (seed ${seed}, ${clients} clients), ${failures.length} violations, ${clientLeftLines} log lines for clients that left, ${proxyLostLines} for the dev proxy's dead pooled connections; modelled sessions hold ${modelled} files`,
);
process.exit(failures.length || error ? 1 : 0);
