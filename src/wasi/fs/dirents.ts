import { wasi } from "@bjorn3/browser_wasi_shim";

/** d_next u64, d_ino u64, d_namlen u32, d_type u8, padding: WASI preview1's dirent header. */
const DIRENT_HEAD = 24;
const utf8 = new TextEncoder();

/** UTF-8 bytes of a name; names are nearly always ASCII, which needs no encoder call. */
export function nameBytes(name: string): Uint8Array {
  const out = new Uint8Array(name.length);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x80) return utf8.encode(name);
    out[i] = c;
  }
  return out;
}

/** One line of a listing, ready to copy out: cookie n is entry n, so d_next is n + 1. */
export interface ListedEntry {
  name: Uint8Array;
  ino: bigint;
  type: number;
}

/** A directory fd whose fd_readdir writes straight into the program's memory (imports.ts). */
export interface DirectReaddir {
  readdirInto(memory: ArrayBuffer, buf: number, bufLen: number, cookie: bigint): { ret: number; used: number };
}

export const hasDirectReaddir = (fd: unknown): fd is DirectReaddir => typeof (fd as Partial<DirectReaddir> | undefined)?.readdirInto === "function";

/**
 * fd_readdir of `list` from `cookie` into the program's buffer. Libcs list with small buffers
 * (Rust's std starts at 128 bytes), so one directory takes dozens of calls; each must be cheap.
 * As WASI specifies, an entry that does not fit is cut off and the buffer reported full, which
 * tells the program to call again (with a bigger buffer if one entry alone is too large).
 */
export function writeDirents(list: readonly ListedEntry[], memory: ArrayBuffer, buf: number, bufLen: number, cookie: bigint): { ret: number; used: number } {
  const view = new DataView(memory);
  const bytes = new Uint8Array(memory);
  let used = 0;
  for (let n = Number(cookie); n < list.length; n++) {
    const e = list[n]!;
    const size = DIRENT_HEAD + e.name.length;
    const room = bufLen - used;
    const whole = size <= room;
    const at = whole ? buf + used : 0;
    const target = whole ? view : new DataView(new ArrayBuffer(size));
    target.setBigUint64(at, BigInt(n + 1), true);
    target.setBigUint64(at + 8, e.ino, true);
    target.setUint32(at + 16, e.name.length, true);
    target.setUint32(at + 20, e.type, true);
    if (whole) {
      bytes.set(e.name, at + DIRENT_HEAD);
      used += size;
      continue;
    }
    const cut = new Uint8Array(target.buffer);
    cut.set(e.name, DIRENT_HEAD);
    bytes.set(cut.subarray(0, room), buf + used);
    return { ret: wasi.ERRNO_SUCCESS, used: bufLen };
  }
  return { ret: wasi.ERRNO_SUCCESS, used };
}
