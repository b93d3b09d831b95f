// The Node side of `node` inside QuickJS: built-in modules, globals, the module system and the
// hooks the host's loop calls (src/tools/node/run.ts). Bundled at build time with the npm
// libraries it uses (path-browserify, events, buffer, util, assert) by scripts/bundle-node-runtime.mjs.
import pathLib from "path-browserify";
import EventEmitter from "events";
import { Buffer } from "buffer";
import util from "util";
import { call } from "./host.js";
import { fs } from "./fs.js";
import { ExitSignal, makeConsole, makeProcess, makeTimers } from "./process.js";
import { isEsm, makeModules, resolveFile } from "./modules.js";
import { makeExtras } from "./extras.js";
import { format, inspect } from "./format.js";

util.format = format;
util.inspect = inspect;

const path = pathLib.posix || pathLib;
path.posix = path;
path.win32 = path;

function unsupported(name, why) {
  const e = new Error(`Cannot use '${name}' here: ${why}`);
  e.code = "ERR_NOT_SUPPORTED";
  return e;
}

globalThis.__nodeBoot = function (bootJson) {
  const boot = JSON.parse(bootJson);
  const timers = makeTimers();
  Object.assign(globalThis, timers.api);
  globalThis.queueMicrotask ??= (fn) => Promise.resolve().then(fn);
  const process = makeProcess(boot);
  globalThis.process = process;
  globalThis.Buffer = Buffer;
  globalThis.global = globalThis;
  const out = (fd, text) => call("write", fd, text);
  globalThis.console = makeConsole(out);

  const mods = {};
  const builtin = (name) => {
    const bare = name.startsWith("node:") ? name.slice(5) : name;
    if (Object.prototype.hasOwnProperty.call(mods, bare)) {
      const m = mods[bare];
      return typeof m === "function" && m.__lazy ? (mods[bare] = m()) : m;
    }
    if (name.startsWith("node:") || REFUSED[bare]) {
      if (REFUSED[bare]) throw unsupported(bare, REFUSED[bare]);
      const e = new Error(`No such built-in module: ${name}`);
      e.code = "ERR_UNKNOWN_BUILTIN_MODULE";
      throw e;
    }
    return undefined;
  };
  const lazy = (f) => Object.assign(f, { __lazy: true });
  const modules = makeModules(builtin);
  const extras = makeExtras({ builtin, process, timers });
  Object.assign(mods, {
    fs,
    path,
    events: EventEmitter,
    buffer: { Buffer, constants: { MAX_LENGTH: 2 ** 32 }, kMaxLength: 2 ** 32 },
    util,
    process,
    console: globalThis.console,
    "fs/promises": fs.promises,
    "path/posix": path,
    module: lazy(() => ({ builtinModules: Object.keys(mods), createRequire: (f) => modules.requireFrom(path.dirname(String(f).replace(/^file:\/\//, ""))) })),
    timers: timers.api,
    ...extras,
  });
  EventEmitter.EventEmitter = EventEmitter;
  util.promisify.custom ??= Symbol.for("nodejs.util.promisify.custom");
  util.types ??= {};
  util.isDeepStrictEqual ??= (a, b) => {
    try {
      builtin("assert").deepStrictEqual(a, b);
      return true;
    } catch {
      return false;
    }
  };
  for (const g of [
    "URL",
    "URLSearchParams",
    "TextEncoder",
    "TextDecoder",
    "fetch",
    "AbortController",
    "structuredClone",
    "atob",
    "btoa",
    "crypto",
    "performance",
    "Headers",
    "Response",
  ]) {
    if (extras.__globals[g] && !(g in globalThis)) globalThis[g] = extras.__globals[g];
  }

  const hooks = {
    runMain(file) {
      modules.runMain(file);
    },
    evalCode(code, printResult) {
      globalThis.require = modules.requireFrom(process.cwd());
      globalThis.module = { exports: {}, filename: "[eval]" };
      globalThis.exports = globalThis.module.exports;
      globalThis.__filename = "[eval]";
      globalThis.__dirname = ".";
      // null: only the set-up; the host then runs the code from the top (so it may wait, run.ts).
      if (code === null) return;
      const r = globalThis.__compile(code, "[eval]", true);
      if (printResult) console.log(r);
    },
    isEsm,
    resolve: (request, fromFile) => resolveFile(request, path.dirname(fromFile), fromFile),
    exportNames(name) {
      const m = builtin(name);
      return Object.keys(Object(m)).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default");
    },
    cjsExports(file) {
      return modules.requireFrom(path.dirname(file))(file);
    },
    nextTimer: timers.next,
    fireTimer: timers.fire,
    exitCode: () => (process.exitCode === undefined ? 0 : Number(process.exitCode) | 0),
    emitExit(code) {
      if (!process._exiting) {
        process._exiting = true;
        process.emit("exit", code);
      }
    },
    beforeExit(code) {
      process.emit("beforeExit", code);
    },
    isExit: (e) => e instanceof ExitSignal,
    // What Node prints for an uncaught exception (the engine's stack, not V8's).
    describe(e) {
      if (e instanceof Error) {
        const head = e.message ? `${e.name || "Error"}: ${e.message}` : String(e.name || "Error");
        // QuickJS's frames, without the runtime's own (Node's stack shows V8's; see docs/node.md).
        const frames = String(e.stack || "")
          .split("\n")
          .filter((l) => l.trim() && !/<node(:runtime)?>/.test(l));
        const own = Object.keys(e).filter((k) => k !== "stack" && k !== "message");
        const extra = own.length ? ` {\n${own.map((k) => `  ${k}: ${util.inspect(e[k])}`).join(",\n")}\n}` : "";
        return `${[head, ...frames].join("\n")}${extra}`;
      }
      return `Uncaught ${util.inspect(e)}`;
    },
  };
  globalThis.__node = { require: builtin, hooks };
  return hooks;
};

/** Modules that cannot exist in this sandbox, with the reason Node's users need. */
const REFUSED = {
  worker_threads: "there are no threads in this sandbox; run the work in the same script or as another `node` command through child_process.",
  cluster: "there is one process per command in this sandbox.",
  net: "raw sockets are not available; use fetch() or http.get(), which go through the session's URL policy.",
  tls: "raw sockets are not available; use fetch() or https.get(), which go through the session's URL policy.",
  dgram: "UDP sockets are not available in this sandbox.",
  dns: "name lookups are done by fetch() itself under the session's URL policy.",
  inspector: "there is no debugger here.",
  v8: "this node runs on QuickJS, not V8.",
  vm: "running code in new contexts is not supported; use require() or import().",
  repl: "there is no interactive terminal; run a script with node -e or a file.",
  http2: "HTTP/2 sessions are not available; use fetch().",
};
