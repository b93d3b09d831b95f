// The smaller built-ins: os, url, crypto, child_process, http(s), assert, stream, readline,
// string_decoder, querystring, timers/promises, perf_hooks. What needs the outside (hashes,
// URL parsing, the shell, the network) asks the host; the rest is plain JS here.
import EventEmitter from "events";
import { Buffer } from "buffer";
import util from "util";
import assert from "assert";
import { call, callWaiting, nodeError } from "./host.js";

const lazy = (f) => Object.assign(f, { __lazy: true });

// URL: parsed by the host's WHATWG parser; this class keeps the parts and rebuilds href.
const PARTS = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash", "origin"];
class URLSearchParams {
  constructor(init) {
    this._list = [];
    this._url = null;
    if (typeof init === "string") this._parse(init);
    else if (init instanceof URLSearchParams) this._list = init._list.map((p) => [...p]);
    else if (init && typeof init === "object") {
      const entries = Symbol.iterator in init ? init : Object.entries(init);
      for (const [k, v] of entries) this._list.push([String(k), String(v)]);
    }
  }
  _parse(s) {
    this._list = [];
    s = s.replace(/^\?/, "");
    if (!s) return;
    for (const part of s.split("&")) {
      if (!part) continue;
      const i = part.indexOf("=");
      const dec = (x) => {
        try {
          return decodeURIComponent(x.replace(/\+/g, " "));
        } catch {
          return x;
        }
      };
      this._list.push(i < 0 ? [dec(part), ""] : [dec(part.slice(0, i)), dec(part.slice(i + 1))]);
    }
  }
  _update() {
    if (this._url) {
      const s = this.toString();
      this._url._set("search", s ? `?${s}` : "");
    }
  }
  append(k, v) {
    this._list.push([String(k), String(v)]);
    this._update();
  }
  delete(k) {
    this._list = this._list.filter(([n]) => n !== k);
    this._update();
  }
  get(k) {
    const e = this._list.find(([n]) => n === k);
    return e ? e[1] : null;
  }
  getAll(k) {
    return this._list.filter(([n]) => n === k).map(([, v]) => v);
  }
  has(k) {
    return this._list.some(([n]) => n === k);
  }
  set(k, v) {
    const i = this._list.findIndex(([n]) => n === k);
    if (i < 0) this._list.push([String(k), String(v)]);
    else {
      this._list[i][1] = String(v);
      this._list = this._list.filter(([n], j) => n !== k || j === i);
    }
    this._update();
  }
  sort() {
    this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this._update();
  }
  forEach(fn, self) {
    for (const [k, v] of this._list) fn.call(self, v, k, this);
  }
  keys() {
    return this._list.map(([k]) => k)[Symbol.iterator]();
  }
  values() {
    return this._list.map(([, v]) => v)[Symbol.iterator]();
  }
  entries() {
    return this._list.map((p) => [...p])[Symbol.iterator]();
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  get size() {
    return this._list.length;
  }
  toString() {
    const enc = (s) =>
      encodeURIComponent(s)
        .replace(/%20/g, "+")
        .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    return this._list.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
  }
  [util.inspect.custom]() {
    return `URLSearchParams { ${this._list.map(([k, v]) => `'${k}' => '${v}'`).join(", ")} }`;
  }
}
class URL {
  constructor(input, base) {
    const r = call("url", String(input), base === undefined ? null : String(base));
    if (r === null) {
      const e = new TypeError("Invalid URL");
      e.code = "ERR_INVALID_URL";
      e.input = String(input);
      throw e;
    }
    this._p = r;
    this._sp = new URLSearchParams(r.search);
    this._sp._url = this;
  }
  _set(part, value) {
    const r = call("urlSet", this._p.href, part, String(value));
    if (r) {
      this._p = r;
      if (part !== "search") this._sp._parse(r.search);
    }
  }
  get searchParams() {
    return this._sp;
  }
  toString() {
    return this._p.href;
  }
  toJSON() {
    return this._p.href;
  }
  static canParse(i, b) {
    return call("url", String(i), b === undefined ? null : String(b)) !== null;
  }
  [util.inspect.custom]() {
    return `URL ${util.inspect(Object.fromEntries([...PARTS.map((k) => [k, this._p[k]]), ["searchParams", this._sp]]))}`;
  }
}
for (const k of PARTS) {
  Object.defineProperty(URL.prototype, k, {
    get() {
      return this._p[k];
    },
    set(v) {
      if (k !== "origin") {
        this._set(k, v);
        if (k === "search") this._sp._parse(this._p.search);
      }
    },
    enumerable: true,
  });
}
const fileURLToPath = (u) => {
  const url = typeof u === "string" ? new URL(u) : u;
  if (url.protocol !== "file:") {
    const e = new TypeError("The URL must be of scheme file");
    e.code = "ERR_INVALID_URL_SCHEME";
    throw e;
  }
  return decodeURIComponent(url.pathname);
};
const pathToFileURL = (p) => new URL(`file://${encodeURI(globalThis.__node.require("path").resolve(p)).replace(/[?#]/g, encodeURIComponent)}`);

// TextEncoder / TextDecoder over buffer's UTF-8.
class TextEncoder {
  get encoding() {
    return "utf-8";
  }
  encode(s = "") {
    const b = Buffer.from(String(s), "utf8");
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  }
}
class TextDecoder {
  constructor(enc = "utf-8") {
    this.encoding = String(enc).toLowerCase().replace("utf8", "utf-8");
  }
  decode(b) {
    if (b === undefined) return "";
    return Buffer.from(b instanceof ArrayBuffer ? b : b.buffer, b.byteOffset || 0, b.byteLength).toString(this.encoding === "utf-8" ? "utf8" : this.encoding);
  }
}

// crypto: hashes, HMAC and random bytes from the host.
class Hash {
  constructor(alg, key) {
    this._alg = String(alg).toLowerCase();
    this._key = key;
    this._parts = [];
    call("hashCheck", this._alg);
  }
  update(data, enc) {
    this._parts.push(typeof data === "string" ? Buffer.from(data, enc || "utf8") : Buffer.from(data));
    return this;
  }
  digest(enc) {
    const all = Buffer.concat(this._parts);
    const key = this._key === undefined ? null : typeof this._key === "string" ? Buffer.from(this._key) : Buffer.from(this._key);
    const out = Buffer.from(
      call("hash", this._alg, all.buffer.slice(all.byteOffset, all.byteOffset + all.length), key && key.buffer.slice(key.byteOffset, key.byteOffset + key.length)),
    );
    return enc && enc !== "buffer" ? out.toString(enc) : out;
  }
}
const randomBytes = (n, cb) => {
  const b = Buffer.from(call("random", n));
  if (cb) {
    setTimeout(() => cb(null, b), 0);
    return undefined;
  }
  return b;
};
const crypto = {
  createHash: (alg) => new Hash(alg),
  createHmac: (alg, key) => new Hash(alg, key),
  randomBytes,
  randomUUID: () => call("uuid"),
  randomInt: (min, max) => {
    if (max === undefined) {
      max = min;
      min = 0;
    }
    return min + Math.floor(Math.random() * (max - min));
  },
  getRandomValues: (arr) => {
    const b = randomBytes(arr.byteLength);
    new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength).set(b);
    return arr;
  },
  timingSafeEqual: (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0,
  getHashes: () => ["md5", "sha1", "sha256", "sha384", "sha512"],
};
crypto.webcrypto = { getRandomValues: crypto.getRandomValues, randomUUID: crypto.randomUUID };

// child_process: every command goes through the session's shell (policy, log, limits).
function shellQuote(a) {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${String(a).replace(/'/g, "'\\''")}'`;
}
function commandLine(file, args) {
  return [file, ...(args || [])].map(shellQuote).join(" ");
}
// The shell's bytes cross as latin1 strings (one char per byte), so nothing is lost on the way.
function inputOf(o) {
  return o && o.input !== undefined && o.input !== null ? Buffer.from(o.input).toString("latin1") : null;
}
const text = (bytes) => Buffer.from(bytes, "latin1").toString();
function runSync(script, options = {}) {
  return callWaiting("execSync", script, options.cwd ? String(options.cwd) : null, options.env ? JSON.stringify(options.env) : null, inputOf(options));
}
function execError(cmd, r) {
  const stdout = text(r.stdout),
    stderr = text(r.stderr);
  const e = new Error(`Command failed: ${cmd}\n${stderr}`);
  e.status = r.status;
  e.signal = null;
  e.code = r.status;
  e.cmd = cmd;
  e.stdout = stdout;
  e.stderr = stderr;
  e.output = [null, stdout, stderr];
  return e;
}
const bufOr = (bytes, enc) => {
  const b = Buffer.from(bytes, "latin1");
  return enc && enc !== "buffer" ? b.toString(enc) : b;
};
/** stdio as three entries, as Node normalizes it ('pipe' where not given). */
function stdioOf(options) {
  const s = options.stdio;
  if (s === undefined || s === null) return ["pipe", "pipe", "pipe"];
  if (typeof s === "string") return [s, s, s];
  return [0, 1, 2].map((i) => (s[i] === undefined || s[i] === null ? "pipe" : s[i]));
}
/**
 * spawnSync's result, Node's shape ({status, signal, output, pid, stdout, stderr}): the command
 * ran through the session's shell and finished; 'inherit' (or the fd itself) writes its output to
 * the script's own stdout/stderr (after the command ends, stdout first), 'ignore' drops it.
 */
function runSyncResult(cmd, options) {
  const r = runSync(cmd, options);
  const io = stdioOf(options);
  const route = (fd, bytes) => {
    const m = io[fd];
    if (m === "inherit" || m === fd || (m && typeof m === "object" && m.fd === fd)) {
      if (bytes) call("write", fd, text(bytes));
      return null;
    }
    if (m === "ignore") return null;
    return bufOr(bytes, options.encoding);
  };
  const stdout = route(1, r.stdout);
  const stderr = route(2, r.stderr);
  return { status: r.status, signal: null, output: [null, stdout, stderr], pid: 0, stdout, stderr };
}
/** Node's checkExecSyncError: `Command failed: <cmd>` (and the captured stderr), with the result's fields. */
function checkSync(ret, cmd) {
  if (ret.status === 0) return;
  let msg = `Command failed: ${cmd}`;
  if (ret.stderr && ret.stderr.length > 0) msg += `\n${ret.stderr.toString()}`;
  throw Object.assign(new Error(msg), ret);
}
function execSync(cmd, options) {
  options = options || {};
  const ret = runSyncResult(String(cmd), options);
  // As in Node: without an explicit stdio, the command's stderr also goes to the script's stderr.
  if (options.stdio === undefined && ret.stderr && ret.stderr.length) call("write", 2, ret.stderr.toString());
  checkSync(ret, cmd);
  return ret.stdout;
}
function spawnSync(file, args, options) {
  if (!Array.isArray(args)) {
    options = args;
    args = [];
  }
  options = options || {};
  const cmd = options.shell ? [file, ...args].join(" ") : commandLine(file, args);
  return runSyncResult(cmd, options);
}
function execFileSync(file, args, options) {
  if (!Array.isArray(args)) {
    options = args;
    args = [];
  }
  options = options || {};
  const ret = runSyncResult(commandLine(file, args), options);
  if (options.stdio === undefined && ret.stderr && ret.stderr.length) call("write", 2, ret.stderr.toString());
  checkSync(ret, [file, ...args].join(" "));
  return ret.stdout;
}
function exec(cmd, options, cb) {
  if (typeof options === "function") {
    cb = options;
    options = {};
  }
  options = options || {};
  const child = new EventEmitter();
  child.stdout = new EventEmitter();
  child.stderr = new EventEmitter();
  call("exec", String(cmd), options.cwd ? String(options.cwd) : null, options.env ? JSON.stringify(options.env) : null, null).then((r) => {
    if (r.stdout) child.stdout.emit("data", text(r.stdout));
    if (r.stderr) child.stderr.emit("data", text(r.stderr));
    child.stdout.emit("end");
    child.stderr.emit("end");
    const err = r.status === 0 ? null : execError(cmd, r);
    if (cb) cb(err, bufOr(r.stdout, options.encoding || "utf8"), bufOr(r.stderr, options.encoding || "utf8"));
    child.emit("exit", r.status, null);
    child.emit("close", r.status, null);
  });
  return child;
}
// As in Node, util.promisify(exec) resolves with { stdout, stderr }.
exec[util.promisify.custom] = (cmd, options) =>
  new Promise((resolve, reject) => exec(cmd, options, (e, stdout, stderr) => (e ? reject(Object.assign(e, { stdout, stderr })) : resolve({ stdout, stderr }))));
function execFile(file, args, options, cb) {
  if (typeof args === "function") {
    cb = args;
    args = [];
    options = {};
  } else if (typeof options === "function") {
    cb = options;
    options = {};
  }
  return exec(commandLine(file, args || []), options, cb);
}
function spawn(file, args, options) {
  if (!Array.isArray(args)) {
    options = args;
    args = [];
  }
  options = options || {};
  const cmd = options.shell ? [file, ...args].join(" ") : commandLine(file, args);
  const child = exec(cmd, options);
  child.stdin = {
    write() {
      throw new Error("writing to a spawned command's stdin is not supported here; pass the input with execSync(cmd, { input })");
    },
    end() {},
  };
  if (options.stdio === "inherit") {
    child.stdout.on("data", (d) => call("write", 1, String(d)));
    child.stderr.on("data", (d) => call("write", 2, String(d)));
  }
  return child;
}
const childProcess = {
  execSync,
  spawnSync,
  execFileSync,
  exec,
  execFile,
  spawn,
  fork: () => {
    throw new Error("child_process.fork is not supported here: there is one node process per command; run `node other.js` with execSync instead.");
  },
};

// fetch and http(s).get: through the host's one fetch path and URL policy.
class Headers {
  constructor(init) {
    this._m = new Map();
    if (init) for (const [k, v] of init instanceof Headers ? init.entries() : Array.isArray(init) ? init : Object.entries(init)) this.append(k, v);
  }
  append(k, v) {
    k = k.toLowerCase();
    this._m.set(k, this._m.has(k) ? `${this._m.get(k)}, ${v}` : String(v));
  }
  set(k, v) {
    this._m.set(k.toLowerCase(), String(v));
  }
  get(k) {
    const v = this._m.get(k.toLowerCase());
    return v === undefined ? null : v;
  }
  has(k) {
    return this._m.has(k.toLowerCase());
  }
  delete(k) {
    this._m.delete(k.toLowerCase());
  }
  entries() {
    return [...this._m.entries()].sort()[Symbol.iterator]();
  }
  keys() {
    return [...this._m.keys()].sort()[Symbol.iterator]();
  }
  forEach(fn) {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}
class Response {
  constructor(r) {
    this.status = r.status;
    this.statusText = r.statusText;
    this.ok = r.status >= 200 && r.status < 300;
    this.url = r.url;
    this.redirected = r.redirected;
    this.headers = new Headers(r.headers);
    this._body = r.body;
    this.bodyUsed = false;
  }
  _take() {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.bodyUsed = true;
    return Buffer.from(this._body);
  }
  async text() {
    return this._take().toString("utf8");
  }
  async json() {
    return JSON.parse(this._take().toString("utf8"));
  }
  async arrayBuffer() {
    const b = this._take();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
  }
}
async function fetchFn(input, init = {}) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const headers = init.headers ? Object.fromEntries(new Headers(init.headers).entries()) : {};
  let body = init.body;
  if (body !== undefined && body !== null && typeof body !== "string") {
    const b = Buffer.from(body);
    body = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
  }
  const r = await call("fetch", url, JSON.stringify({ method: init.method || "GET", headers, redirect: init.redirect || "follow" }), body === undefined ? null : body);
  if (r.error) {
    const e = new TypeError("fetch failed");
    e.cause = new Error(r.error);
    if (r.denied) e.cause.code = "EACCES";
    throw e;
  }
  return new Response({ ...r, body: Buffer.from(r.body || "", "base64") });
}
function httpModule(scheme) {
  const request = (input, options, cb) => {
    if (typeof options === "function") {
      cb = options;
      options = {};
    }
    let url;
    if (typeof input === "string" || input instanceof URL) url = String(input);
    else {
      options = input;
      url = `${scheme}//${options.hostname || options.host || "localhost"}${options.port ? `:${options.port}` : ""}${options.path || "/"}`;
    }
    options = options || {};
    const req = new EventEmitter();
    const chunks = [];
    req.write = (c) => {
      chunks.push(Buffer.from(c));
      return true;
    };
    req.setHeader = (k, v) => {
      (options.headers ||= {})[k] = v;
    };
    req.setTimeout = () => req;
    req.destroy = () => req;
    req.abort = () => req;
    req.end = (c) => {
      if (c) req.write(c);
      fetchFn(url, { method: options.method || "GET", headers: options.headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: "manual" }).then(
        async (r) => {
          const res = new EventEmitter();
          res.statusCode = r.status;
          res.statusMessage = r.statusText;
          res.headers = Object.fromEntries(r.headers.entries());
          res.setEncoding = (e) => {
            res._enc = e;
            return res;
          };
          res.resume = () => res;
          const body = Buffer.from(await r.arrayBuffer());
          if (cb) cb(res);
          req.emit("response", res);
          setTimeout(() => {
            if (body.length) res.emit("data", res._enc ? body.toString(res._enc) : body);
            res.emit("end");
          }, 0);
        },
        (e) => {
          const err = new Error(e.cause ? e.cause.message : e.message);
          err.code = e.cause && e.cause.code === "EACCES" ? "EACCES" : "ECONNREFUSED";
          req.emit("error", err);
        },
      );
      return req;
    };
    return req;
  };
  return {
    request,
    get: (i, o, cb) => {
      const r = request(i, o, cb);
      r.end();
      return r;
    },
    STATUS_CODES: {},
    Agent: class Agent {},
    createServer: () => {
      throw new Error(`${scheme.slice(0, -1)}.createServer is not supported here: nothing can listen for connections in this sandbox.`);
    },
  };
}

// stream: the little scripts use (Readable.from, pipeline of simple streams).
function streamModule() {
  class Stream extends EventEmitter {}
  class Readable extends Stream {
    static from(iterable) {
      const r = new Readable();
      setTimeout(async () => {
        for await (const c of iterable) r.emit("data", c);
        r.emit("end");
        r.emit("close");
      }, 0);
      r[Symbol.asyncIterator] = async function* () {
        yield* iterable;
      };
      return r;
    }
    pipe(dest) {
      this.on("data", (c) => dest.write(c));
      this.on("end", () => dest.end && dest !== globalThis.process.stdout && dest.end());
      return dest;
    }
    setEncoding() {
      return this;
    }
  }
  class Writable extends Stream {
    constructor(o = {}) {
      super();
      this._w = o.write;
    }
    write(c, e, cb) {
      if (this._w) this._w(c, typeof e === "string" ? e : "buffer", typeof e === "function" ? e : cb || (() => {}));
      return true;
    }
    end(c) {
      if (c) this.write(c);
      setTimeout(() => this.emit("finish"), 0);
      return this;
    }
  }
  class Transform extends Stream {}
  return { Stream, Readable, Writable, Transform, PassThrough: Transform, Duplex: Transform };
}

// readline over stdin (or any emitter of data/end): 'line' and 'close', and for await.
function readlineModule() {
  const createInterface = (opts) => {
    const input = opts.input || opts;
    const rl = new EventEmitter();
    let buf = "",
      closed = false;
    const lines = [];
    const flush = (final) => {
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const l = buf.slice(0, i).replace(/\r$/, "");
        buf = buf.slice(i + 1);
        lines.push(l);
        rl.emit("line", l);
      }
      if (final) {
        if (buf) {
          lines.push(buf);
          rl.emit("line", buf);
        }
        buf = "";
        closed = true;
        rl.emit("close");
      }
    };
    input.on("data", (c) => {
      buf += String(c);
      flush(false);
    });
    input.on("end", () => flush(true));
    rl.close = () => {
      if (!closed) {
        closed = true;
        rl.emit("close");
      }
    };
    rl.on("newListener", () => {});
    rl.question = (q, cb) => {
      call("write", 1, q);
      rl.once("line", cb);
    };
    rl.setPrompt = () => {};
    rl.prompt = () => {};
    rl.write = () => {};
    rl[Symbol.asyncIterator] = async function* () {
      while (!closed || lines.length) {
        if (lines.length) yield lines.shift();
        else
          await new Promise((r) => {
            rl.once("line", () => r());
            rl.once("close", () => r());
          });
      }
    };
    return rl;
  };
  return { createInterface };
}

function osModule() {
  return {
    EOL: "\n",
    platform: () => "linux",
    type: () => "Linux",
    arch: () => "x64",
    release: () => "6.1.0",
    hostname: () => "toolshed",
    homedir: () => globalThis.process.env.HOME || "/workspace",
    tmpdir: () => globalThis.process.env.TMPDIR || "/tmp",
    cpus: () => [{ model: "Toolshed QuickJS", speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
    totalmem: () => 128 * 1024 * 1024,
    freemem: () => 64 * 1024 * 1024,
    uptime: () => 0,
    loadavg: () => [0, 0, 0],
    userInfo: () => ({ uid: 65534, gid: 65534, username: "agent", homedir: "/workspace", shell: "/bin/bash" }),
    networkInterfaces: () => ({}),
    endianness: () => "LE",
    availableParallelism: () => 1,
    machine: () => "x86_64",
    version: () => "#1 SMP",
    constants: { signals: {}, errno: {} },
    devNull: "/dev/null",
  };
}

const querystring = {
  parse: (s) => {
    const o = {};
    for (const [k, v] of new URLSearchParams(s)) o[k] = k in o ? [].concat(o[k], v) : v;
    return o;
  },
  stringify: (o) =>
    Object.entries(o)
      .flatMap(([k, v]) => [].concat(v).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`))
      .join("&"),
  escape: encodeURIComponent,
  unescape: decodeURIComponent,
};
querystring.decode = querystring.parse;
querystring.encode = querystring.stringify;

class StringDecoder {
  constructor(enc = "utf8") {
    this.enc = enc;
    this.rest = Buffer.alloc(0);
  }
  write(b) {
    const all = Buffer.concat([this.rest, Buffer.from(b)]);
    let end = all.length;
    if (this.enc === "utf8" || this.enc === "utf-8") {
      let i = all.length - 1,
        n = 0;
      while (i >= 0 && n < 4 && (all[i] & 0xc0) === 0x80) {
        i--;
        n++;
      }
      if (i >= 0) {
        const lead = all[i];
        const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (need > n + 1) end = i;
      }
    }
    this.rest = all.subarray(end);
    return all.subarray(0, end).toString(this.enc);
  }
  end(b) {
    const s = b ? this.write(b) : "";
    const r = this.rest.toString(this.enc);
    this.rest = Buffer.alloc(0);
    return s + r;
  }
}

export function makeExtras({ timers }) {
  const t = timers.api;
  const timersPromises = {
    setTimeout: (ms, v) => new Promise((r) => t.setTimeout(() => r(v), ms)),
    setImmediate: (v) => new Promise((r) => t.setImmediate(() => r(v))),
    setInterval: () => {
      throw new Error("timers/promises setInterval is not supported here; use a loop with await setTimeout(ms).");
    },
    scheduler: { wait: (ms) => new Promise((r) => t.setTimeout(r, ms)) },
  };
  const performance = { now: () => call("now"), timeOrigin: Date.now() - call("now"), mark() {}, measure() {} };
  util.promisify ??=
    (fn) =>
    (...a) =>
      new Promise((res, rej) => fn(...a, (e, v) => (e ? rej(e) : res(v))));
  return {
    os: lazy(osModule),
    url: {
      URL,
      URLSearchParams,
      fileURLToPath,
      pathToFileURL,
      parse: (s) => {
        const u = new URL(s);
        return {
          protocol: u.protocol,
          host: u.host,
          hostname: u.hostname,
          port: u.port || null,
          pathname: u.pathname,
          search: u.search || null,
          query: u.search.slice(1) || null,
          hash: u.hash || null,
          href: u.href,
          path: u.pathname + u.search,
        };
      },
      format: (u) => (u instanceof URL ? u.href : String(u)),
    },
    crypto,
    child_process: childProcess,
    http: lazy(() => httpModule("http:")),
    https: lazy(() => httpModule("https:")),
    assert,
    "assert/strict": assert.strict,
    stream: lazy(streamModule),
    "stream/promises": lazy(() => ({
      pipeline: async () => {
        throw new Error("stream/promises pipeline is not supported here; read the whole input and write the result.");
      },
      finished: async () => {},
    })),
    readline: lazy(readlineModule),
    "readline/promises": lazy(() => readlineModule()),
    string_decoder: { StringDecoder },
    querystring,
    "timers/promises": timersPromises,
    perf_hooks: { performance },
    "util/types": util.types || {},
    zlib: lazy(() => {
      throw Object.assign(new Error("Cannot use 'zlib' here: compression is not built into this node. Use the gzip/gunzip commands through child_process.execSync."), {
        code: "ERR_NOT_SUPPORTED",
      });
    }),
    async_hooks: {
      AsyncLocalStorage: class {
        run(s, f, ...a) {
          this._s = s;
          return f(...a);
        }
        getStore() {
          return this._s;
        }
      },
    },
    __globals: {
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      fetch: fetchFn,
      Headers,
      Response,
      performance,
      AbortController: class AbortController {
        constructor() {
          this.signal = new EventEmitter();
          this.signal.aborted = false;
        }
        abort() {
          this.signal.aborted = true;
          this.signal.emit("abort");
        }
      },
      structuredClone: (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v))),
      atob: (s) => Buffer.from(s, "base64").toString("latin1"),
      btoa: (s) => Buffer.from(String(s), "latin1").toString("base64"),
      crypto: { randomUUID: crypto.randomUUID, getRandomValues: crypto.getRandomValues },
    },
  };
}
void nodeError;
