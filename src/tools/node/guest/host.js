// Inside QuickJS: the one door to the host (src/tools/node/host-api.ts). Every operation is
// `__host(op, ...args)`; results come back as JSON text (or an ArrayBuffer for bytes), errors
// as {"e": {code, message, ...}} so each module can shape them as Node does.
const raw = globalThis.__host;

const unpack = (r) => {
  const v = JSON.parse(r);
  if (v && v.e) throw nodeError(v.e);
  return v.v;
};

export function call(op, ...args) {
  const r = raw(op, ...args);
  if (typeof r === "string") return unpack(r);
  // A promise (fetch, exec) settles with the same JSON text.
  if (r && typeof r.then === "function") return r.then(unpack);
  return r;
}

/** A host call that may wait: the guest is suspended until the host answers (JSPI; src/tools/node/suspend.ts). */
export function callWaiting(op, ...args) {
  const wait = globalThis.__hostWait;
  return wait ? unpack(wait(op, ...args)) : call(op, ...args);
}

const MESSAGES = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  ENOTDIR: "not a directory",
  EISDIR: "illegal operation on a directory",
  ENOTEMPTY: "directory not empty",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EINVAL: "invalid argument",
  EDQUOT: "disk quota exceeded",
  ELOOP: "too many symbolic links encountered",
  EBUSY: "resource busy or locked",
};
const ERRNO = { ENOENT: -2, EEXIST: -17, ENOTDIR: -20, EISDIR: -21, ENOTEMPTY: -39, EACCES: -13, EPERM: -1, EINVAL: -22, EDQUOT: -122, ELOOP: -40, EBUSY: -16 };

/** A Node-shaped system error: `ENOENT: no such file or directory, open 'x'` with code, errno, syscall, path. */
export function nodeError(e) {
  if (!e.code || !(e.code in MESSAGES)) {
    const err = new Error(e.message);
    if (e.code) err.code = e.code;
    return err;
  }
  let msg = `${e.code}: ${MESSAGES[e.code]}, ${e.syscall}`;
  if (e.path !== undefined) msg += ` '${e.path}'`;
  if (e.dest !== undefined) msg += ` -> '${e.dest}'`;
  const err = new Error(msg);
  err.errno = ERRNO[e.code];
  err.code = e.code;
  err.syscall = e.syscall;
  if (e.path !== undefined) err.path = e.path;
  if (e.dest !== undefined) err.dest = e.dest;
  // The policy's reason, so a refused .env read tells the model why (Node has no such field).
  if (e.reason) err.reason = e.reason;
  return err;
}
