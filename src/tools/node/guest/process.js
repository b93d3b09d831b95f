// `process`, `console` and the timers inside QuickJS. Output goes to the host in order (stdout and
// stderr share one queue there, so `2>&1` keeps their order); timers live here and the host's
// loop asks for the next one (src/tools/node/loop.ts).
import EventEmitter from "events";
import util from "util";
import { Buffer } from "buffer";
import { call } from "./host.js";

/** Thrown by process.exit to unwind the script; the host ignores everything after exit. */
export class ExitSignal {
  constructor(code) {
    this.code = code;
  }
}

export function makeProcess(boot) {
  const p = new EventEmitter();
  p.argv = boot.argv;
  p.argv0 = "node";
  p.execArgv = [];
  p.execPath = "/usr/bin/node";
  p.env = boot.env;
  p.exitCode = undefined;
  p.pid = boot.pid;
  p.ppid = boot.pid - 1;
  p.platform = "linux";
  p.arch = "x64";
  p.version = boot.version;
  p.versions = { node: boot.version.slice(1), quickjs: "2024-01-13", engine: "quickjs" };
  p.release = { name: "node" };
  p.title = "node";
  p.config = {};
  p.cwd = () => call("cwd");
  p.chdir = (d) => call("chdir", String(d));
  p.exit = (code) => {
    if (code !== undefined) p.exitCode = code;
    const c = p.exitCode === undefined ? 0 : Number(p.exitCode) | 0;
    if (!p._exiting) {
      p._exiting = true;
      try {
        p.emit("exit", c);
      } catch {}
    }
    call("exit", c);
    throw new ExitSignal(c);
  };
  p.abort = () => p.exit(134);
  p.kill = () => {
    throw new Error("process.kill is not supported here: there are no other processes to signal");
  };
  p.hrtime = (prev) => {
    const ns = BigInt(Math.round(call("now") * 1e6));
    const t = [Number(ns / 1000000000n), Number(ns % 1000000000n)];
    if (!prev) return t;
    let s = t[0] - prev[0],
      n = t[1] - prev[1];
    if (n < 0) {
      s--;
      n += 1e9;
    }
    return [s, n];
  };
  p.hrtime.bigint = () => BigInt(Math.round(call("now") * 1e6));
  p.uptime = () => call("now") / 1000;
  p.memoryUsage = () => {
    const m = call("memory");
    return { rss: m, heapTotal: m, heapUsed: m, external: 0, arrayBuffers: 0 };
  };
  p.memoryUsage.rss = () => call("memory");
  p.cpuUsage = () => ({ user: 0, system: 0 });
  p.umask = () => 0o022;
  p.getuid = () => 65534;
  p.getgid = () => 65534;
  p.geteuid = () => 65534;
  p.getegid = () => 65534;
  p.emitWarning = (w) => call("write", 2, `(node:${boot.pid}) ${typeof w === "string" ? `Warning: ${w}` : `${w.name}: ${w.message}`}\n`);
  p.nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
  p.stdout = stream(1);
  p.stderr = stream(2);
  p.stdin = makeStdin();
  return p;
}

function stream(fd) {
  const s = new EventEmitter();
  s.fd = fd;
  s.isTTY = false;
  s.writable = true;
  s.columns = undefined;
  s.write = (chunk, enc, cb) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof enc === "string" ? enc : "utf8");
    call("write", fd, text);
    const done = typeof enc === "function" ? enc : cb;
    if (done) queueMicrotask(done);
    return true;
  };
  s.end = (chunk, cb) => {
    if (chunk && typeof chunk !== "function") s.write(chunk);
    if (typeof chunk === "function") chunk();
    else if (cb) cb();
  };
  s.cork = s.uncork = () => {};
  s.getColorDepth = () => 1;
  s.hasColors = () => false;
  return s;
}

/** stdin as a readable stream; its bytes come from the host when first asked for. */
function makeStdin() {
  const s = new EventEmitter();
  s.fd = 0;
  s.isTTY = false;
  let encoding = null,
    started = false,
    done = false;
  const read = () => Buffer.from(call("stdin"));
  const start = () => {
    if (started) return;
    started = true;
    setTimeout(() => {
      const data = read();
      if (data.length) s.emit("data", encoding ? data.toString(encoding) : data);
      done = true;
      s.emit("end");
      s.emit("close");
    }, 0);
  };
  s.setEncoding = (e) => {
    encoding = e || "utf8";
    return s;
  };
  s.resume = () => {
    start();
    return s;
  };
  s.pause = () => s;
  s.unref = s.ref = () => s;
  s.read = () => (done ? null : ((done = true), read()));
  s.on("newListener", (ev) => {
    if (ev === "data" || ev === "end" || ev === "readable") start();
  });
  s.pipe = (dest) => {
    s.on("data", (c) => dest.write(c));
    s.on("end", () => dest !== globalThis.process.stdout && dest.end && dest.end());
    return dest;
  };
  s[Symbol.asyncIterator] = async function* () {
    const data = read();
    done = true;
    if (data.length) yield encoding ? data.toString(encoding) : data;
  };
  return s;
}

export function makeConsole(out) {
  const counts = new Map(),
    timers = new Map();
  let indent = "";
  const line =
    (fd) =>
    (...args) =>
      out(fd, `${indent ? util.format(...args).replace(/^/gm, indent) : util.format(...args)}\n`);
  const c = {
    log: line(1),
    info: line(1),
    debug: line(1),
    error: line(2),
    warn: line(2),
    trace: (...a) => line(2)(`Trace: ${util.format(...a)}`),
    dir: (o, opts) => out(1, `${util.inspect(o, opts)}\n`),
    table: (rows) => line(1)(rows),
    assert: (v, ...a) => {
      if (!v) line(2)(a.length ? `Assertion failed: ${util.format(...a)}` : "Assertion failed");
    },
    count: (l = "default") => {
      const n = (counts.get(l) || 0) + 1;
      counts.set(l, n);
      line(1)(`${l}: ${n}`);
    },
    countReset: (l = "default") => counts.delete(l),
    time: (l = "default") => timers.set(l, call("now")),
    timeEnd: (l = "default") => {
      const t = timers.get(l);
      timers.delete(l);
      if (t !== undefined) line(1)(`${l}: ${(call("now") - t).toFixed(3)}ms`);
    },
    timeLog: (l = "default", ...a) => {
      const t = timers.get(l);
      if (t !== undefined) line(1)(`${l}: ${(call("now") - t).toFixed(3)}ms`, ...a);
    },
    group: (...a) => {
      if (a.length) line(1)(...a);
      indent += "  ";
    },
    groupEnd: () => {
      indent = indent.slice(2);
    },
  };
  c.groupCollapsed = c.group;
  return c;
}

/** Timers: a list ordered by due time then creation, as Node fires them. */
export function makeTimers() {
  let seq = 0;
  const list = new Map();
  class Timeout {
    constructor(id) {
      this._id = id;
    }
    ref() {
      return this;
    }
    unref() {
      const t = list.get(this._id);
      if (t) t.unref = true;
      return this;
    }
    hasRef() {
      return list.has(this._id);
    }
    refresh() {
      const t = list.get(this._id);
      if (t) t.due = call("now") + t.ms;
      return this;
    }
    [Symbol.toPrimitive]() {
      return this._id;
    }
  }
  const add = (fn, ms, args, repeat) => {
    if (typeof fn !== "function") {
      const e = new TypeError(`The "callback" argument must be of type function. Received ${fn === undefined ? "undefined" : typeof fn}`);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    ms = Number(ms);
    if (!(ms >= 1 && ms <= 2147483647)) ms = 1;
    const id = ++seq;
    list.set(id, { fn, args, ms, due: call("now") + ms, repeat, seq: id });
    return new Timeout(id);
  };
  const clear = (t) => {
    if (t !== undefined && t !== null) list.delete(typeof t === "object" ? t._id : Number(t));
  };
  const api = {
    setTimeout: (fn, ms, ...args) => add(fn, ms, args, false),
    setInterval: (fn, ms, ...args) => add(fn, ms, args, true),
    setImmediate: (fn, ...args) => add(fn, 0, args, false),
    clearTimeout: clear,
    clearInterval: clear,
    clearImmediate: clear,
  };
  // The host's loop: ms until the next timer that keeps the process alive, or -1.
  const next = () => {
    let best = null;
    for (const t of list.values()) if (!t.unref && (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq))) best = t;
    return best ? Math.max(0, best.due - call("now")) : -1;
  };
  // Runs the earliest due timer (one per turn, so microtasks run between them as in Node).
  const fire = () => {
    let best = null,
      bestId = 0;
    for (const [id, t] of list)
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) {
        best = t;
        bestId = id;
      }
    if (!best) return;
    if (best.repeat) {
      best.due = Math.max(best.due + best.ms, call("now"));
      best.seq = ++seq;
    } else list.delete(bestId);
    best.fn(...best.args);
  };
  return { api, next, fire };
}
