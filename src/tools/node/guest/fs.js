// `fs` inside QuickJS: every call goes to the session's GuardedFs through the host (so `.env`
// and paths outside the workspace are refused as from bash), shaped as Node's sync, callback
// and promise APIs. The callback and promise forms run the sync call and settle on a later turn.
import { Buffer } from "buffer";
import { call, nodeError } from "./host.js";

const S_IFMT = 0o170000,
  S_IFREG = 0o100000,
  S_IFDIR = 0o040000,
  S_IFLNK = 0o120000;

function pathArg(p, name = "path") {
  if (p instanceof URL) p = p.pathname;
  if (Buffer.isBuffer(p)) p = p.toString();
  if (typeof p !== "string") {
    const e = new TypeError(`The "${name}" argument must be of type string or an instance of Buffer or URL. Received ${describe(p)}`);
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }
  return p;
}
function describe(v) {
  if (v === undefined || v === null) return String(v);
  if (typeof v === "function") return `function ${v.name}`;
  if (typeof v === "object") return v.constructor && v.constructor.name ? `an instance of ${v.constructor.name}` : "an instance of Object";
  return `type ${typeof v} (${JSON.stringify(v)})`;
}
const encodingOf = (o) => (typeof o === "string" ? o : o && o.encoding) || null;

class Stats {
  constructor(s) {
    this.dev = 2049;
    this.mode = s.mode;
    this.nlink = 1;
    this.uid = 65534;
    this.gid = 65534;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = s.ino;
    this.size = s.size;
    this.blocks = Math.ceil(s.size / 512);
    this.atimeMs = s.atimeMs;
    this.mtimeMs = s.mtimeMs;
    this.ctimeMs = s.mtimeMs;
    this.birthtimeMs = s.mtimeMs;
    this.atime = new Date(s.atimeMs);
    this.mtime = new Date(s.mtimeMs);
    this.ctime = new Date(s.mtimeMs);
    this.birthtime = new Date(s.mtimeMs);
  }
  isFile() {
    return (this.mode & S_IFMT) === S_IFREG;
  }
  isDirectory() {
    return (this.mode & S_IFMT) === S_IFDIR;
  }
  isSymbolicLink() {
    return (this.mode & S_IFMT) === S_IFLNK;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
}
class Dirent {
  constructor(name, kind, dir) {
    this.name = name;
    this._k = kind;
    this.path = dir;
    this.parentPath = dir;
  }
  isFile() {
    return this._k === "file";
  }
  isDirectory() {
    return this._k === "dir";
  }
  isSymbolicLink() {
    return this._k === "symlink";
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
}

const decode = (ab, enc) => {
  const b = Buffer.from(ab);
  return enc && enc !== "buffer" ? b.toString(enc) : b;
};
const payload = (data, enc) => {
  if (typeof data === "string") return enc && enc !== "utf8" && enc !== "utf-8" ? Buffer.from(data, enc).buffer : data;
  if (data instanceof Uint8Array) return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const e = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
  e.code = "ERR_INVALID_ARG_TYPE";
  throw e;
};

function readFileSync(p, options) {
  const enc = encodingOf(options);
  if (p === 0 || p === "/dev/stdin") return decode(call("stdin"), enc);
  p = pathArg(p);
  if (enc === "utf8" || enc === "utf-8") return call("readText", p);
  return decode(call("readFile", p), enc);
}
function writeFileSync(p, data, options) {
  const enc = encodingOf(options);
  const flag = options && typeof options === "object" && options.flag;
  if (p === 1 || p === 2) return void call("write", p, typeof data === "string" ? data : Buffer.from(data).toString());
  call("writeFile", pathArg(p), payload(data, enc), flag === "a" || flag === "a+", flag === "wx" || flag === "wx+");
}
function appendFileSync(p, data, options) {
  call("writeFile", pathArg(p), payload(data, encodingOf(options)), true, false);
}
function existsSync(p) {
  try {
    return call("stat", pathArg(p), true, "access") !== null;
  } catch {
    return false;
  }
}
function statSync(p, options) {
  try {
    return new Stats(call("stat", pathArg(p), true, "stat"));
  } catch (e) {
    if (options && options.throwIfNoEntry === false && e.code === "ENOENT") return undefined;
    throw e;
  }
}
function lstatSync(p, options) {
  try {
    return new Stats(call("stat", pathArg(p), false, "lstat"));
  } catch (e) {
    if (options && options.throwIfNoEntry === false && e.code === "ENOENT") return undefined;
    throw e;
  }
}
function accessSync(p) {
  call("stat", pathArg(p), true, "access");
}
function readdirSync(p, options) {
  p = pathArg(p);
  const entries = call("readdir", p);
  const withTypes = options && typeof options === "object" && options.withFileTypes;
  const recursive = options && typeof options === "object" && options.recursive;
  const out = [];
  const walk = (dir, rel, list) => {
    for (const [name, kind] of list) {
      const relName = rel ? `${rel}/${name}` : name;
      out.push(withTypes ? new Dirent(name, kind, rel ? `${p}/${rel}` : p) : relName);
      if (recursive && kind === "dir") walk(dir, relName, call("readdir", `${p}/${relName}`));
    }
  };
  walk(p, "", entries);
  const enc = encodingOf(options);
  return enc === "buffer" && !withTypes ? out.map((n) => Buffer.from(n)) : out;
}
function mkdirSync(p, options) {
  const recursive = typeof options === "object" && options !== null && !!options.recursive;
  const first = call("mkdir", pathArg(p), recursive);
  return recursive ? (first === null ? undefined : first) : undefined;
}
function rmSync(p, options) {
  options = options || {};
  call("rm", pathArg(p), !!options.recursive, !!options.force, "rm");
}
function rmdirSync(p, options) {
  call("rmdir", pathArg(p), !!(options && options.recursive));
}
function unlinkSync(p) {
  call("unlink", pathArg(p));
}
function renameSync(a, b) {
  call("rename", pathArg(a, "oldPath"), pathArg(b, "newPath"));
}
function copyFileSync(a, b, mode) {
  call("copyFile", pathArg(a, "src"), pathArg(b, "dest"), (mode & 1) === 1);
}
function cpSync(a, b, options) {
  call("cp", pathArg(a, "src"), pathArg(b, "dest"), !!(options && options.recursive));
}
function realpathSync(p) {
  return call("realpath", pathArg(p));
}
function chmodSync(p, mode) {
  call("chmod", pathArg(p), typeof mode === "string" ? parseInt(mode, 8) : mode);
}
function utimesSync(p, atime, mtime) {
  call("utimes", pathArg(p), +atime * (atime instanceof Date ? 1 : 1000), +mtime * (mtime instanceof Date ? 1 : 1000));
}
function mkdtempSync(prefix) {
  for (;;) {
    const name = prefix + Math.random().toString(36).slice(2, 8);
    if (!existsSync(name)) {
      mkdirSync(name);
      return name;
    }
  }
}
function symlinkSync(target, p) {
  call("symlink", pathArg(target, "target"), pathArg(p));
}
function readlinkSync(p) {
  return call("readlink", pathArg(p));
}

// File descriptors: enough for open/write/close and open/read/close, kept as whole-file buffers.
const fds = new Map();
let nextFd = 3;
function openSync(p, flags = "r") {
  p = pathArg(p);
  const f = typeof flags === "string" ? flags : "r";
  let data;
  if (f.startsWith("r")) data = Buffer.from(call("readFile", p));
  else {
    if (f.includes("x") && existsSync(p)) throw nodeError({ code: "EEXIST", syscall: "open", path: p });
    data = f.startsWith("a") && existsSync(p) ? Buffer.from(call("readFile", p)) : Buffer.alloc(0);
    call("writeFile", p, data.buffer.slice(data.byteOffset, data.byteOffset + data.length), false, false);
  }
  const fd = nextFd++;
  fds.set(fd, { path: p, data, pos: f.startsWith("a") ? data.length : 0, write: !f.startsWith("r") || f.includes("+") });
  return fd;
}
const fdOf = (fd) => {
  const f = fds.get(fd);
  if (!f) throw nodeError({ code: "EBADF", message: "EBADF: bad file descriptor" });
  return f;
};
function writeSync(fd, data, ...rest) {
  if (fd === 1 || fd === 2) {
    const s = typeof data === "string" ? data : Buffer.from(data).toString();
    call("write", fd, s);
    return Buffer.byteLength(s);
  }
  const f = fdOf(fd);
  const bytes = typeof data === "string" ? Buffer.from(data, typeof rest[1] === "string" ? rest[1] : "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const pos = typeof rest[0] === "number" && typeof data === "string" ? rest[0] : f.pos;
  const end = pos + bytes.length;
  if (end > f.data.length) {
    const grown = Buffer.alloc(end);
    f.data.copy(grown);
    f.data = grown;
  }
  bytes.copy(f.data, pos);
  f.pos = end;
  f.dirty = true;
  return bytes.length;
}
function readSync(fd, buffer, offset = 0, length = buffer.length - offset, position = null) {
  if (typeof offset === "object" && offset !== null) ({ offset = 0, length = buffer.length - offset, position = null } = offset);
  const f = fdOf(fd);
  const pos = typeof position === "number" ? position : f.pos;
  const n = Math.max(0, Math.min(length, f.data.length - pos));
  f.data.copy(buffer, offset, pos, pos + n);
  if (typeof position !== "number") f.pos += n;
  return n;
}
function fsyncSync(fd) {
  const f = fdOf(fd);
  if (f.dirty) call("writeFile", f.path, f.data.buffer.slice(f.data.byteOffset, f.data.byteOffset + f.data.length), false, false);
  f.dirty = false;
}
function closeSync(fd) {
  fsyncSync(fd);
  fds.delete(fd);
}
function fstatSync(fd) {
  return statSync(fdOf(fd).path);
}

const sync = {
  readFileSync,
  writeFileSync,
  appendFileSync,
  existsSync,
  statSync,
  lstatSync,
  accessSync,
  readdirSync,
  mkdirSync,
  rmSync,
  rmdirSync,
  unlinkSync,
  renameSync,
  copyFileSync,
  cpSync,
  realpathSync,
  chmodSync,
  utimesSync,
  mkdtempSync,
  symlinkSync,
  readlinkSync,
  openSync,
  writeSync,
  readSync,
  closeSync,
  fstatSync,
  fsyncSync,
};

// Callback forms: the same work, the callback called on a later turn as Node does.
const callbacks = {};
const promises = {};
for (const [name, fn] of Object.entries(sync)) {
  const base = name.slice(0, -4);
  callbacks[base] = function (...args) {
    const cb = args.pop();
    if (typeof cb !== "function") {
      const e = new TypeError(`The "cb" argument must be of type function. Received ${describe(cb)}`);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    let result,
      error = null;
    try {
      result = fn(...args);
    } catch (e) {
      error = e;
    }
    setTimeout(() => (base === "exists" ? cb(result) : error ? cb(error) : cb(null, result)), 0);
  };
  if (base !== "exists")
    promises[base] = (...args) =>
      new Promise((resolve, reject) => {
        try {
          resolve(fn(...args));
        } catch (e) {
          reject(e);
        }
      });
}
promises.constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 };
// fs.realpathSync.native, as scripts sometimes call it.
realpathSync.native = realpathSync;
callbacks.realpath.native = callbacks.realpath;

function createReadStream(p, options) {
  const { Readable } = globalThis.__node.require("stream");
  const data = readFileSync(p, options);
  return Readable.from([data]);
}
function createWriteStream(p, options) {
  const EventEmitter = globalThis.__node.require("events");
  const flags = (options && options.flags) || "w";
  const s = new EventEmitter();
  if (!flags.startsWith("a")) writeFileSync(p, "");
  s.write = (chunk, enc, cb) => {
    appendFileSync(p, chunk);
    if (typeof enc === "function") enc();
    else if (cb) cb();
    return true;
  };
  s.end = (chunk, cb) => {
    if (typeof chunk === "function") {
      cb = chunk;
      chunk = undefined;
    }
    if (chunk !== undefined && chunk !== null) appendFileSync(p, chunk);
    setTimeout(() => {
      s.emit("finish");
      s.emit("close");
      if (cb) cb();
    }, 0);
    return s;
  };
  s.path = p;
  setTimeout(() => s.emit("open", 3), 0);
  return s;
}

export const fs = {
  ...sync,
  ...callbacks,
  promises,
  createReadStream,
  createWriteStream,
  Stats,
  Dirent,
  constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2 },
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
};
