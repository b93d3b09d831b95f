import { wasi } from "@bjorn3/browser_wasi_shim";
import type { NodeInfo } from "../../vfs/workspace";

/**
 * A filestat with the layout WASI preview1 defines (dev@0 ino@8 filetype@16 nlink@24 size@32
 * atim@40 mtim@48 ctim@56). The shim 0.4.2 writes the three timestamps at 38/46/52, which
 * garbles mtimes, so every filestat this package hands out serializes itself.
 */
export class WorkspaceFilestat extends wasi.Filestat {
  override write_bytes(view: DataView, ptr: number): void {
    view.setBigUint64(ptr, this.dev, true);
    view.setBigUint64(ptr + 8, this.ino, true);
    view.setUint8(ptr + 16, this.filetype);
    view.setBigUint64(ptr + 24, this.nlink, true);
    view.setBigUint64(ptr + 32, this.size, true);
    view.setBigUint64(ptr + 40, this.atim, true);
    view.setBigUint64(ptr + 48, this.mtim, true);
    view.setBigUint64(ptr + 56, this.ctim, true);
  }
}

const FILETYPES: Record<NodeInfo["kind"], number> = {
  file: wasi.FILETYPE_REGULAR_FILE,
  dir: wasi.FILETYPE_DIRECTORY,
  symlink: wasi.FILETYPE_SYMBOLIC_LINK,
};

export const filetypeOf = (info: Pick<NodeInfo, "kind">): number => FILETYPES[info.kind];

/** lookupflags bit 0: follow a link in the last component (stat rather than lstat). */
export const LOOKUP_SYMLINK_FOLLOW = 1;

const msToNs = (ms: number): bigint => BigInt(Math.floor(ms)) * 1_000_000n;

/** What a directory's size reads as: one 4 KiB block, as on ext4, so `ls -l`, `stat` and `du` print Linux's numbers. */
const DIR_SIZE = 4096;

/** `size` overrides the stored size (a file fd with unsaved writes reports what it will commit). */
export function filestatOf(info: NodeInfo, size: number = info.size, nlink = 1n): WorkspaceFilestat {
  const st = new WorkspaceFilestat(BigInt(info.ino), filetypeOf(info), BigInt(info.kind === "dir" ? DIR_SIZE : size));
  st.nlink = nlink;
  st.mtim = st.ctim = msToNs(info.mtimeMs);
  st.atim = msToNs(info.atimeMs);
  return st;
}

/** Every right WASI preview1 defines (bits 0..28); fds narrow it to what they can do. */
export const ALL_RIGHTS = (1n << 29n) - 1n;

export function fdstat(filetype: number, flags: number, rights: bigint): wasi.Fdstat {
  const st = new wasi.Fdstat(filetype, flags);
  st.fs_rights_base = rights;
  st.fs_rights_inherited = ALL_RIGHTS;
  return st;
}

/** The times a set_times call asks for, in ms; a time the call leaves alone is absent. */
export function requestedTimes(atim: bigint, mtim: bigint, fstFlags: number, now: number): { atimeMs?: number; mtimeMs?: number } {
  const pick = (t: bigint, set: number, setNow: number) => (fstFlags & setNow ? now : fstFlags & set ? Number(t / 1_000_000n) : undefined);
  const times: { atimeMs?: number; mtimeMs?: number } = {};
  const a = pick(atim, wasi.FSTFLAGS_ATIM, wasi.FSTFLAGS_ATIM_NOW);
  const m = pick(mtim, wasi.FSTFLAGS_MTIM, wasi.FSTFLAGS_MTIM_NOW);
  if (a !== undefined) times.atimeMs = a;
  if (m !== undefined) times.mtimeMs = m;
  return times;
}
