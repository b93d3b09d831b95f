import { WASI, wasi } from "@bjorn3/browser_wasi_shim";
import { WorkspaceDirFd } from "./fs/dir-fd";
import { WorkspaceFileFd } from "./fs/file-fd";
import { hasDirectReaddir } from "./fs/dirents";
import type { BorrowingWriter } from "./fs/context";

/** Thrown from inside a syscall to end the run; unwinds the Wasm stack back to the runner. */
export class RunStopped extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = "RunStopped";
  }
}

/**
 * Thrown by proc_exit to unwind the program. Not an Error: capturing a stack trace through the
 * Wasm frames cost about a twentieth of a small program's start, on every exit.
 */
export class ProgramExit {
  constructor(readonly code: number) {}
}

export interface SyscallGuard {
  /** Called before every syscall; throws RunStopped to end the program. */
  check(memory: WebAssembly.Memory | undefined): void;
}

type Imports = Record<string, (...args: any[]) => unknown>;

const borrowsWrites = (f: unknown): boolean => (f as Partial<BorrowingWriter> | undefined)?.borrowsWrites === true;

const SUBSCRIPTION_SIZE = 48;
const EVENT_SIZE = 32;

/**
 * The shim's import table with the parts that do not fit a Worker replaced:
 * - poll_oneoff busy-waits on a clock that never advances in production; here every
 *   subscription is ready at once (stdin and files never block) and a clock wait "elapses"
 *   instantly by moving a virtual clock forward, so `sleep` loops end without burning CPU;
 * - the socket calls and proc_raise throw strings; here they fail with an errno;
 * - path_rename is one Workspace.rename instead of the shim's unlink-then-link of inodes;
 * - path_symlink makes a workspace link; path_link is refused (no hard links);
 * - path_readlink cuts a long target to the buffer as readlink(2) does (the shim answers EBADF,
 *   which breaks Rust's read_link, which grows its buffer only when the answer fills it);
 * - fd_readdir and path_filestat_get, the calls a tree walk makes per entry, skip the shim's
 *   per-call allocations (fs/dirents.ts: the workspace's and the Python library's listings);
 * - args_sizes_get counts UTF-8 bytes: the shim counts UTF-16 units but args_get writes UTF-8,
 *   so a non-ASCII argument overran the buffer libc sized from it (and corrupted the next
 *   allocation: `cp 'üñí/b c' d/x.txt` created `d/x.tx3`).
 * - proc_exit throws a ProgramExit rather than the shim's WASIProcExit (an Error).
 * - fd_read on a workspace file copies each chunk's bytes straight into the program's memory.
 * - fd_write hands a BorrowingWriter a view of the program's memory, not the shim's copy of
 *   every piece (200 MB written was 200 MB of garbage, which grew the process by hundreds of MB).
 * Every call first passes the guard (memory cap, step budget).
 */
export function buildImports(shim: WASI, guard: SyscallGuard): Imports {
  const base = shim.wasiImport as Imports;
  const memory = () => shim.inst?.exports.memory as WebAssembly.Memory | undefined;
  const view = () => new DataView(memory()!.buffer);
  const decoder = new TextDecoder();
  const utf8 = new TextEncoder();
  const text = (ptr: number, len: number) => decoder.decode(new Uint8Array(memory()!.buffer, ptr, len));
  let sleptNs = 0n;

  const overrides: Imports = {
    args_sizes_get(argcPtr: number, bufSizePtr: number): number {
      const v = view();
      v.setUint32(argcPtr, shim.args.length, true);
      v.setUint32(
        bufSizePtr,
        shim.args.reduce((n, a) => n + utf8.encode(a).length + 1, 0),
        true,
      );
      return wasi.ERRNO_SUCCESS;
    },

    clock_time_get(id: number, precision: bigint, out: number): number {
      const ret = base.clock_time_get!(id, precision, out) as number;
      if (ret === wasi.ERRNO_SUCCESS) {
        const v = view();
        v.setBigUint64(out, v.getBigUint64(out, true) + sleptNs, true);
      }
      return ret;
    },

    poll_oneoff(inPtr: number, outPtr: number, count: number, neventsPtr: number): number {
      if (count === 0) return wasi.ERRNO_INVAL;
      const v = view();
      let longestWait = 0n;
      for (let i = 0; i < count; i++) {
        const sub = inPtr + i * SUBSCRIPTION_SIZE;
        const ev = outPtr + i * EVENT_SIZE;
        const tag = v.getUint8(sub + 8);
        for (let b = 0; b < EVENT_SIZE; b += 8) v.setBigUint64(ev + b, 0n, true);
        v.setBigUint64(ev, v.getBigUint64(sub, true), true); // userdata
        v.setUint8(ev + 10, tag);
        if (tag === wasi.EVENTTYPE_CLOCK) {
          const timeout = v.getBigUint64(sub + 24, true);
          const absolute = (v.getUint16(sub + 40, true) & wasi.SUBCLOCKFLAGS_SUBSCRIPTION_CLOCK_ABSTIME) !== 0;
          // An absolute deadline is already "now or past" on a clock that we advance on demand.
          if (!absolute && timeout > longestWait) longestWait = timeout;
        } else if (tag === wasi.EVENTTYPE_FD_READ || tag === wasi.EVENTTYPE_FD_WRITE) {
          const fd = v.getUint32(sub + 16, true);
          if (shim.fds[fd] === undefined) v.setUint16(ev + 8, wasi.ERRNO_BADF, true);
          else v.setBigUint64(ev + 16, 1n, true); // ready; at least a byte (or EOF)
        } else {
          v.setUint16(ev + 8, wasi.ERRNO_INVAL, true);
        }
      }
      sleptNs += longestWait;
      v.setUint32(neventsPtr, count, true);
      return wasi.ERRNO_SUCCESS;
    },

    proc_exit(code: number): never {
      throw new ProgramExit(code);
    },

    proc_raise: () => wasi.ERRNO_NOSYS,
    sock_accept: () => wasi.ERRNO_NOTSUP,
    sock_recv: () => wasi.ERRNO_NOTSUP,
    sock_send: () => wasi.ERRNO_NOTSUP,
    sock_shutdown: () => wasi.ERRNO_NOTSUP,

    path_rename(fd: number, oldPtr: number, oldLen: number, newFd: number, newPtr: number, newLen: number): number {
      const from = shim.fds[fd];
      const to = shim.fds[newFd];
      if (!from || !to) return wasi.ERRNO_BADF;
      if (!(from instanceof WorkspaceDirFd) || !(to instanceof WorkspaceDirFd)) return wasi.ERRNO_NOTDIR;
      return from.renameTo(text(oldPtr, oldLen), to, text(newPtr, newLen));
    },

    fd_read(fd: number, iovs: number, iovsLen: number, nreadPtr: number): number {
      const f = shim.fds[fd];
      if (!(f instanceof WorkspaceFileFd)) return base.fd_read!(fd, iovs, iovsLen, nreadPtr) as number;
      // A workspace file's bytes go straight from the stored chunk into the program's memory,
      // without the shim's per-call iovec objects.
      const mem = memory()!.buffer;
      const v = new DataView(mem);
      const into = new Uint8Array(mem);
      let nread = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        if (len === 0) continue;
        const { ret, data } = f.fd_read(len);
        if (ret !== wasi.ERRNO_SUCCESS) {
          v.setUint32(nreadPtr, nread, true);
          return ret;
        }
        into.set(data, ptr);
        nread += data.length;
        if (data.length < len) break;
      }
      v.setUint32(nreadPtr, nread, true);
      return wasi.ERRNO_SUCCESS;
    },

    fd_write(fd: number, iovs: number, iovsLen: number, nwrittenPtr: number): number {
      const f = shim.fds[fd];
      if (!borrowsWrites(f)) return base.fd_write!(fd, iovs, iovsLen, nwrittenPtr) as number;
      const mem = memory()!.buffer;
      const v = new DataView(mem);
      let nwritten = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        if (len === 0) continue;
        const { ret, nwritten: n } = f!.fd_write(new Uint8Array(mem, ptr, len));
        if (ret !== wasi.ERRNO_SUCCESS) {
          v.setUint32(nwrittenPtr, nwritten, true);
          return ret;
        }
        nwritten += n;
        if (n !== len) break;
      }
      v.setUint32(nwrittenPtr, nwritten, true);
      return wasi.ERRNO_SUCCESS;
    },

    fd_readdir(fd: number, buf: number, bufLen: number, cookie: bigint, usedPtr: number): number {
      const dir = shim.fds[fd];
      if (!hasDirectReaddir(dir)) return base.fd_readdir!(fd, buf, bufLen, cookie, usedPtr) as number;
      const { ret, used } = dir.readdirInto(memory()!.buffer, buf, bufLen, cookie);
      view().setUint32(usedPtr, used, true);
      return ret;
    },

    path_filestat_get(fd: number, flags: number, pathPtr: number, pathLen: number, out: number): number {
      const dir = shim.fds[fd];
      if (!dir) return wasi.ERRNO_BADF;
      const { ret, filestat } = dir.path_filestat_get(flags, text(pathPtr, pathLen));
      if (filestat) filestat.write_bytes(view(), out);
      return ret;
    },

    path_link(oldFd: number, _flags: number, _op: number, _ol: number, newFd: number): number {
      if (!shim.fds[oldFd] || !shim.fds[newFd]) return wasi.ERRNO_BADF;
      return wasi.ERRNO_NOTSUP;
    },

    path_symlink(targetPtr: number, targetLen: number, fd: number, pathPtr: number, pathLen: number): number {
      const dir = shim.fds[fd];
      if (!dir) return wasi.ERRNO_BADF;
      if (!(dir instanceof WorkspaceDirFd)) return wasi.ERRNO_NOTSUP;
      return dir.symlinkAt(text(targetPtr, targetLen), text(pathPtr, pathLen));
    },

    path_readlink(fd: number, pathPtr: number, pathLen: number, buf: number, bufLen: number, usedPtr: number): number {
      const dir = shim.fds[fd];
      if (!dir) return wasi.ERRNO_BADF;
      const { ret, data } = dir.path_readlink(text(pathPtr, pathLen));
      const bytes = data === null ? new Uint8Array(0) : utf8.encode(data).subarray(0, bufLen);
      new Uint8Array(memory()!.buffer).set(bytes, buf);
      view().setUint32(usedPtr, bytes.length, true);
      return ret;
    },
  };

  const all: Imports = { ...base, ...overrides };
  const guarded: Imports = {};
  for (const [name, fn] of Object.entries(all)) {
    guarded[name] = (...args: unknown[]) => {
      guard.check(memory());
      return fn(...args);
    };
  }
  return guarded;
}
