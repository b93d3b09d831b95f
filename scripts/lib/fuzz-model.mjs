// The fuzz harness's expected-state model: generated well-formed operations on a few "modelled"
// sessions (write_file, edit_file, upload, delete, bash writes, cp/mv, reads), each applied to an
// in-memory copy of the session's workspace when the server acknowledges it, then read back.
// Concurrency: a batch runs its operations from several clients at once, but within one batch no
// two operations of one session touch the same path, so the outcome does not depend on the order
// in which the server served them and the model stays exact. Hostile requests never reach these
// sessions except ones that must be refused (wrong key, another tenant's key, escaping paths).
import fc from "fast-check";

const DIRS = ["", "d", "sp ace", "üñí", "deep/er/still", "pct%41", "back\\slash"];
const NAMES = ["a.txt", "b c.md", "ü.txt", "%2e%2e", "q?#&.txt", "x\\y", "-dash", "l" + "o".repeat(100) + "ng"];
/** Every path a modelled session may hold; no name is also a directory, so writes never collide with a parent. */
export const PATHS = DIRS.flatMap((d) => NAMES.map((n) => (d ? `${d}/${n}` : n)));
const ESCAPES = ["../escape.txt", "d/../../escape.txt", "/etc/escape.txt", "/workspace/../escape.txt"];

/** The files endpoint's URL for a workspace path: each segment percent-encoded once. */
export const fileUrl = (session, path) => `/v1/sessions/${session}/files/${path.split("/").map(encodeURIComponent).join("/")}`;
const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
const dirOf = (p) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");

const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "grapheme", maxLength: 60 }) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom("alpha ", "beta\n", "gamma ", "$HOME ", "'q' ", "%s ", "\\n "), { maxLength: 20 }).map((a) => a.join("")) },
  { weight: 1, arbitrary: fc.integer({ min: 300_000, max: 700_000 }).map((n) => "line of text\n".repeat(Math.ceil(n / 13)).slice(0, n)) },
);
const bytes = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.integer({ min: 200_000, max: 800_000 }).map((n) => Buffer.alloc(n, 0xa7)) },
);
/** Paths per session at most left in the `either` state (see SessionModel). */
const MAX_QUARANTINED = 6;
const slot = fc.nat({ max: PATHS.length - 1 });

/** One abstract operation; paths are slots resolved at run time against the model. */
export const modelOp = fc.oneof(
  fc.record({ kind: fc.constant("write"), slot, content: text }),
  fc.record({
    kind: fc.constant("edit"),
    slot,
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.integer({ min: 1, max: 6 }),
    with: fc.string({ unit: "grapheme", maxLength: 8 }),
    all: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("upload"), slot, content: bytes, chunked: fc.boolean(), leave: fc.constantFrom("no", "no", "no", "mid", "end") }),
  fc.record({ kind: fc.constant("delete"), slot }),
  fc.record({ kind: fc.constantFrom("sh-write", "sh-append"), slot, content: text.filter((s) => s.length < 2000) }),
  fc.record({ kind: fc.constant("sh-rm"), slot }),
  fc.record({ kind: fc.constant("sh-pipe"), slot, n: fc.integer({ min: 1, max: 5000 }), k: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constantFrom("cp", "mv"), slot, from: slot }),
  fc.record({ kind: fc.constant("read"), slot }),
  fc.record({
    kind: fc.constant("escape"),
    path: fc.constantFrom(...ESCAPES),
    content: fc.string({ maxLength: 20 }),
    via: fc.constantFrom("write_file", "edit_file", "put", "delete"),
  }),
);

/**
 * A modelled session's expected workspace: path -> bytes. A path an upload was sent to by a
 * client that left right after its last byte holds `{either: [before, new]}` (null = absent) for
 * good: whether and when the server commits it is unknowable here, so no later operation touches
 * that path (it is quarantined) and every read-back accepts either whole content, never a mix.
 */
export class SessionModel {
  files = new Map();
  quarantined = new Set();
  constructor(id) {
    this.id = id;
  }
  get(path) {
    return this.files.get(path) ?? null;
  }
  set(path, value) {
    if (value === null) this.files.delete(path);
    else this.files.set(path, value);
  }
  /** Null when `actual` (bytes or null) is what the model allows at `path`, else the mismatch. */
  check(path, actual) {
    const want = this.get(path);
    const options = want?.either ?? [want];
    const ok = options.some((o) => (o === null ? actual === null : actual !== null && o.equals(actual)));
    return ok ? null : `${path}: expected ${describe(options)}, found ${describe([actual])}`;
  }
}
const describe = (options) => options.map((o) => (o === null ? "absent" : `${o.length} bytes ${JSON.stringify(o.subarray(0, 40).toString("utf8"))}`)).join(" or ");

/**
 * Turns abstract ops into concrete steps for this batch: each picks a free path of its session
 * (skipping ones another op of the batch already holds). A step has `send()` returning the raw
 * answer and `check(answer)` applying the ack to the model or returning a violation.
 */
export function planBatch(ops, models, send) {
  const held = models.map(() => new Set());
  const steps = [];
  const take = (s, i, existing) => {
    const usable = PATHS.filter((p) => !models[s].quarantined.has(p));
    const pool = existing ? usable.filter((p) => models[s].get(p) instanceof Buffer) : usable;
    for (let k = 0; k < pool.length; k++) {
      const p = pool[(i + k) % pool.length];
      if (!held[s].has(p)) return (held[s].add(p), p);
    }
    return null;
  };
  for (const { s, op } of ops) {
    const m = models[s];
    const step = planOne(op, m, (i, existing) => take(s, i, existing), send);
    if (step) steps.push({ ...step, session: s, touched: [...(step.touched ?? [])] });
  }
  return { steps, touched: held };
}

const tool = (send, m, name, args) => send({ method: "POST", target: `/v1/sessions/${m.id}/tools/${name}`, json: args });
const okTool = (r) => r.status === 200 && r.json?.success === true;
const toolSaysNo = (r) => r.status === 200 && r.json?.success === false;

function planOne(op, m, take, send) {
  const bad = (what, r) => `${what}: ${r.status} ${r.body.toString("utf8").slice(0, 200)}`;
  switch (op.kind) {
    case "write": {
      const path = take(op.slot);
      if (!path) return null;
      return {
        touched: [path],
        send: () => tool(send, m, "write_file", { path, content: op.content }),
        check: (r) => (okTool(r) ? (m.set(path, Buffer.from(op.content)), null) : bad(`write_file ${path}`, r)),
      };
    }
    case "edit": {
      const path = take(op.slot);
      if (!path) return null;
      const before = m.get(path);
      const text = before instanceof Buffer ? new TextDecoder().decode(before) : "";
      const from = Math.floor(op.at * text.length);
      const old = text.slice(from, from + op.len) || "missing";
      const count = before instanceof Buffer ? text.split(old).length - 1 : 0;
      const succeeds = before instanceof Buffer && count > 0 && old !== op.with && (count === 1 || op.all);
      return {
        touched: [path],
        send: () => tool(send, m, "edit_file", { path, old_string: old, new_string: op.with, replace_all: op.all }),
        check: (r) => {
          if (succeeds && okTool(r)) return (m.set(path, Buffer.from(text.split(old).join(op.with))), null);
          if (!succeeds && toolSaysNo(r)) return null;
          return bad(`edit_file ${path} (${count} matches of ${JSON.stringify(old)}, expected ${succeeds ? "success" : "refusal"})`, r);
        },
      };
    }
    case "upload": {
      const path = take(op.slot);
      if (!path) return null;
      const headers = { "content-type": "application/octet-stream" };
      let body = op.content;
      if (op.chunked) {
        // Streamed in 64 KiB chunks without a declared length.
        const parts = [];
        for (let i = 0; i < body.length; i += 65536)
          parts.push(Buffer.from(body.subarray(i, i + 65536).length.toString(16) + "\r\n"), body.subarray(i, i + 65536), Buffer.from("\r\n"));
        body = Buffer.concat([...parts, Buffer.from("0\r\n\r\n")]);
        headers["transfer-encoding"] = "chunked";
      } else headers["content-length"] = String(body.length);
      // A chunked body cut short reaches the Worker as a clean end under `wrangler dev` (its proxy
      // worker ends the forwarded body; workerd alone drops the upload): only declared lengths are cut.
      // An empty body cut "in the middle" is whole: it is sent as a normal upload.
      const leave = op.chunked || body.length === 0 || (op.leave === "end" && m.quarantined.size >= MAX_QUARANTINED) ? "no" : op.leave;
      if (leave === "end") m.quarantined.add(path);
      const cutAfter = leave === "mid" ? Math.floor(body.length / 2) : leave === "end" ? body.length : undefined;
      return {
        touched: [path],
        send: () => send({ method: "PUT", target: fileUrl(m.id, path), headers, body, cutAfter }),
        check: (r) => {
          // Whether a client that left after its whole body was acknowledged is unknowable here.
          if (leave === "end") return (m.set(path, { either: [m.get(path), op.content] }), null);
          if (leave === "mid") return null; // never complete: the old content must remain
          return r.status === 201 ? (m.set(path, op.content), null) : bad(`PUT ${path}`, r);
        },
      };
    }
    case "delete": {
      const path = take(op.slot);
      if (!path) return null;
      const exists = m.get(path) !== null;
      return {
        touched: [path],
        send: () => send({ method: "DELETE", target: fileUrl(m.id, path) }),
        check: (r) => (r.status === (exists ? 200 : 404) ? (m.set(path, null), null) : bad(`DELETE ${path} (expected ${exists ? 200 : 404})`, r)),
      };
    }
    case "sh-write":
    case "sh-append":
    case "sh-pipe": {
      const path = take(op.slot);
      if (!path) return null;
      const before = m.get(path);
      const mkdir = dirOf(path) ? `mkdir -p -- ${quote(dirOf(path))} && ` : "";
      let command;
      let after;
      if (op.kind === "sh-pipe") {
        const k = Math.min(op.k, op.n);
        command = `seq ${op.n} | sort -n | tail -n ${k} | tr 0-9 a-j > ${quote(path)}`;
        after = Buffer.from(Array.from({ length: k }, (_, i) => String(op.n - k + 1 + i).replace(/[0-9]/g, (d) => "abcdefghij"[d]) + "\n").join(""));
      } else {
        command = `printf '%s' ${quote(op.content)} ${op.kind === "sh-append" ? ">>" : ">"} ${quote(path)}`;
        const prefix = op.kind === "sh-append" && before instanceof Buffer ? before : Buffer.alloc(0);
        after = Buffer.concat([prefix, Buffer.from(op.content)]);
      }
      return {
        touched: [path],
        send: () => tool(send, m, "bash", { command: mkdir + command }),
        check: (r) => (okTool(r) ? (m.set(path, after), null) : bad(`bash ${command.slice(0, 80)}`, r)),
      };
    }
    case "sh-rm": {
      const path = take(op.slot);
      if (!path) return null;
      return {
        touched: [path],
        send: () => tool(send, m, "bash", { command: `rm -f -- ${quote(path)}` }),
        check: (r) => (okTool(r) ? (m.set(path, null), null) : bad(`rm ${path}`, r)),
      };
    }
    case "cp":
    case "mv": {
      const from = take(op.from, true);
      if (!from) return null;
      const to = take(op.slot);
      if (!to) return null;
      const content = m.get(from);
      const mkdir = dirOf(to) ? `mkdir -p -- ${quote(dirOf(to))} && ` : "";
      return {
        touched: [from, to],
        send: () => tool(send, m, "bash", { command: `${mkdir}${op.kind} -- ${quote(from)} ${quote(to)}` }),
        check: (r) => {
          if (!okTool(r)) return bad(`${op.kind} ${from} ${to}`, r);
          m.set(to, content);
          if (op.kind === "mv") m.set(from, null);
          return null;
        },
      };
    }
    case "read": {
      const path = take(op.slot);
      if (!path) return null;
      return {
        touched: [path],
        send: () => send({ method: "GET", target: fileUrl(m.id, path) }),
        check: (r) => (r.status === 200 || r.status === 404 ? m.check(path, r.status === 200 ? r.body : null) : bad(`GET ${path}`, r)),
      };
    }
    case "escape": {
      const { path, content, via } = op;
      const sent =
        // The whole path as one URL segment (`..%2F`), so the URL parser leaves its dots to the server.
        via === "put"
          ? () =>
              send({
                method: "PUT",
                target: `/v1/sessions/${m.id}/files/${encodeURIComponent(path)}`,
                headers: { "content-length": String(Buffer.byteLength(content)) },
                body: Buffer.from(content),
              })
          : via === "delete"
            ? () => send({ method: "DELETE", target: `/v1/sessions/${m.id}/files/${encodeURIComponent(path)}` })
            : () => tool(send, m, via, via === "write_file" ? { path, content } : { path, old_string: "a", new_string: "b" });
      return {
        send: sent,
        // Refused, whichever way: a tool result with success false, or a 4xx from the endpoint.
        check: (r) => (toolSaysNo(r) || (r.status >= 400 && r.status < 500) ? null : bad(`escaping ${via} ${path} was not refused`, r)),
      };
    }
  }
  return null;
}

/**
 * Reads a modelled session back: the listing must be exactly the model's paths (unsettled ones
 * either way), and the content of `paths` (all when null) must match byte for byte.
 */
export async function readBack(m, send, paths) {
  const problems = [];
  const listed = await send({ method: "POST", target: `/v1/sessions/${m.id}/tools/glob`, json: { pattern: "**" } });
  if (!okTool(listed)) return [`glob in ${m.id}: ${listed.status} ${listed.body.toString("utf8").slice(0, 200)}`];
  const seen = new Set(listed.json.files);
  for (const p of seen) if (!PATHS.includes(p)) problems.push(`${m.id}: unexpected file ${JSON.stringify(p)}`);
  for (const p of PATHS) {
    const want = m.get(p);
    const mayBeAbsent = want === null || want.either?.includes(null);
    const mayBePresent = want !== null && (!want.either || want.either.some((o) => o !== null));
    if (seen.has(p) && !mayBePresent) problems.push(`${m.id}: ${JSON.stringify(p)} is there, the model says it was deleted or never written`);
    if (!seen.has(p) && !mayBeAbsent) problems.push(`${m.id}: ${JSON.stringify(p)} is missing`);
  }
  for (const p of paths ?? PATHS) {
    if (!seen.has(p) && m.get(p) === null) continue;
    const r = await send({ method: "GET", target: fileUrl(m.id, p) });
    if (r.status !== 200 && r.status !== 404) problems.push(`${m.id}: GET ${p} answered ${r.status}`);
    else {
      const e = m.check(p, r.status === 200 ? r.body : null);
      if (e) problems.push(`${m.id}: ${e}`);
    }
  }
  return problems;
}
