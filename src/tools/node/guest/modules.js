// CommonJS inside QuickJS, as Node resolves it: built-ins (with or without `node:`), relative and
// absolute files (.js, .json, .cjs, .mjs refused as in Node 20, directories with package.json
// "main" or index.js) and packages in node_modules folders up from the requiring file.
import pathLib from "path-browserify";
import { call } from "./host.js";

const path = pathLib.posix || pathLib;

function notFound(request, parent) {
  const e = new Error(`Cannot find module '${request}'\nRequire stack:\n- ${parent}`);
  e.code = "MODULE_NOT_FOUND";
  e.requireStack = [parent];
  return e;
}
const kind = (p) => call("probe", p);
const readJson = (p) => JSON.parse(call("readText", p));

function asFile(p) {
  if (kind(p) === "file") return p;
  for (const ext of [".js", ".json", ".cjs", ".mjs"]) if (kind(p + ext) === "file") return p + ext;
  return null;
}
function exportsTarget(exp) {
  if (typeof exp === "string") return exp;
  if (Array.isArray(exp)) return exp.map(exportsTarget).find(Boolean);
  if (exp && typeof exp === "object") {
    if ("." in exp) return exportsTarget(exp["."]);
    for (const k of ["node", "require", "import", "default"])
      if (k in exp) {
        const t = exportsTarget(exp[k]);
        if (t) return t;
      }
  }
  return null;
}
function asDir(p) {
  const pj = path.join(p, "package.json");
  if (kind(pj) === "file") {
    const pkg = readJson(pj);
    const main = exportsTarget(pkg.exports) || pkg.main;
    if (main) {
      const m = asFile(path.resolve(p, main)) || asIndex(path.resolve(p, main));
      if (m) return m;
    }
  }
  return asIndex(p);
}
const asIndex = (p) => ["index.js", "index.json", "index.cjs"].map((n) => path.join(p, n)).find((f) => kind(f) === "file") || null;

export function resolveFile(request, fromDir, parent) {
  if (request.startsWith("./") || request.startsWith("../") || request.startsWith("/") || request === "." || request === "..") {
    const p = path.resolve(fromDir, request);
    const r = asFile(p) || asDir(p);
    if (r) return r;
    throw notFound(request, parent);
  }
  const parts = request.split("/");
  const pkgName = request.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  const sub = parts.slice(request.startsWith("@") ? 2 : 1).join("/");
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== "node_modules") {
      const base = path.join(dir, "node_modules", pkgName);
      if (kind(base) === "dir") {
        let r;
        if (sub) {
          const pj = path.join(base, "package.json");
          const pkg = kind(pj) === "file" ? readJson(pj) : {};
          const mapped = pkg.exports && typeof pkg.exports === "object" && exportsTarget(pkg.exports[`./${sub}`]);
          const p = path.resolve(base, mapped || sub);
          r = asFile(p) || asDir(p);
        } else r = asDir(base);
        if (r) return r;
      }
    }
    if (dir === "/") break;
  }
  throw notFound(request, parent);
}

/** Whether a file is an ES module: .mjs, or .js under a package.json saying "type": "module". */
export function isEsm(file) {
  if (file.endsWith(".mjs")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const pj = path.join(dir, "package.json");
    if (kind(pj) === "file") {
      try {
        return readJson(pj).type === "module";
      } catch {
        return false;
      }
    }
    if (dir === "/") return false;
  }
}

export function makeModules(builtins) {
  const cache = Object.create(null);
  class Module {
    constructor(id, parent) {
      this.id = id;
      this.filename = id;
      this.path = path.dirname(id);
      this.exports = {};
      this.parent = parent;
      this.loaded = false;
      this.children = [];
      this.paths = [];
    }
  }
  const load = (filename, parent) => {
    if (cache[filename]) return cache[filename].exports;
    if (isEsm(filename)) {
      const e = new Error(
        `require() of ES Module ${filename} from ${parent ? parent.filename : "[eval]"} not supported.\nInstead change the require to a dynamic import() which is available in all CommonJS modules.`,
      );
      e.code = "ERR_REQUIRE_ESM";
      throw e;
    }
    const m = new Module(filename, parent);
    cache[filename] = m;
    try {
      if (filename.endsWith(".json")) {
        try {
          m.exports = JSON.parse(call("readText", filename));
        } catch (e) {
          if (e instanceof SyntaxError) e.message = `${filename}: ${e.message}`;
          throw e;
        }
      } else if (filename.endsWith(".node")) {
        throw nativeAddon(filename);
      } else {
        const src = call("readText", filename).replace(/^#!.*/, "");
        const fn = globalThis.__compile(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, filename);
        fn.call(m.exports, m.exports, makeRequire(m), m, filename, path.dirname(filename));
      }
      m.loaded = true;
    } catch (e) {
      delete cache[filename];
      throw e;
    }
    return m.exports;
  };
  const makeRequire = (m) => {
    const req = (request) => {
      if (typeof request !== "string") {
        const e = new TypeError(`The "id" argument must be of type string. Received ${typeof request}`);
        e.code = "ERR_INVALID_ARG_TYPE";
        throw e;
      }
      const b = builtins(request);
      if (b !== undefined) return b;
      return load(resolveFile(request, m.path, m.filename), m);
    };
    req.resolve = (request) => (builtins(request) !== undefined ? request : resolveFile(request, m.path, m.filename));
    req.cache = cache;
    req.main = mainModule;
    return req;
  };
  let mainModule;
  return {
    Module,
    cache,
    runMain(filename) {
      const m = new Module(filename, null);
      m.id = ".";
      mainModule = m;
      cache[filename] = m;
      const src = call("readText", filename).replace(/^#!.*/, "");
      const fn = globalThis.__compile(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, filename);
      fn.call(m.exports, m.exports, makeRequire(m), m, filename, path.dirname(filename));
      m.loaded = true;
    },
    requireFrom(dir) {
      const m = new Module(path.join(dir, "[eval]"), null);
      m.path = dir;
      return makeRequire(m);
    },
  };
}

function nativeAddon(filename) {
  const e = new Error(
    `Cannot load native addon ${filename}: this node runs JavaScript in QuickJS inside the sandbox and cannot load compiled .node modules. Use a pure-JavaScript package instead.`,
  );
  e.code = "ERR_DLOPEN_FAILED";
  return e;
}
