import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import type { BorrowingWriter } from "./context";
import { ALL_RIGHTS, WorkspaceFilestat, fdstat } from "./filestat";
import { LIMITS } from "../../limits";
import { HOST_DEVICE, HostDeviceFd } from "./host-device";

/**
 * `/dev`, preopened beside `/workspace` so programs can name the few device files scripts
 * rely on (`grep -f /dev/null`, `cat /dev/stdin`, `awk ... > "/dev/stderr"`, `diff <(a) <(b)`).
 * It is not the host's /dev: `null` and `zero` are in-memory devices, `stdin`/`stdout`/`stderr`
 * and `fd/0`-`fd/2` are the run's own streams (as on Linux, where they are links to the
 * process's fds), and `fd/N` above 2 are the caller's other open fds: readable ones captured
 * as bytes (a shell's `<(cmd)` or `3<file`), writable ones collected (a shell's `>(cmd)`). Nothing else exists here and nothing can be created.
 */
const DEVICES = ["null", "zero", "random", "urandom", "stdin", "stdout", "stderr"] as const;
type Device = (typeof DEVICES)[number];

/** Inode numbers well above anything SQLite hands out for the workspace. */
const DEV_INO_BASE = 1n << 40n;
const inoOf = (name: Device | ".") => DEV_INO_BASE + BigInt(name === "." ? 0 : DEVICES.indexOf(name) + 1);

const DIR_RIGHTS = ALL_RIGHTS & ~BigInt(wasi.RIGHTS_FD_READ | wasi.RIGHTS_FD_WRITE | wasi.RIGHTS_FD_SEEK);

function charDeviceStat(name: Device): WorkspaceFilestat {
  return new WorkspaceFilestat(inoOf(name), wasi.FILETYPE_CHARACTER_DEVICE, 0n);
}

type MemoryDevice = "null" | "zero" | "random" | "urandom";
const MEMORY_DEVICES: readonly string[] = ["null", "zero", "random", "urandom"];

/** Bytes one read of an endless device hands out (getRandomValues takes at most 64 KiB). */
const DEVICE_READ_BYTES = LIMITS.deviceReadBytes;

/**
 * /dev/null, /dev/zero, /dev/random and /dev/urandom. They keep the seek right so wasi-libc's isatty() says no (it treats
 * a character device without seek/tell as a terminal).
 */
class MemoryDeviceFd extends Fd implements BorrowingWriter {
  /** Writes are dropped. */
  readonly borrowsWrites = true;

  constructor(private readonly name: MemoryDevice) {
    super();
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_CHARACTER_DEVICE, 0, ALL_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: charDeviceStat(this.name) };
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    const data = new Uint8Array(this.name === "null" ? 0 : Math.min(size, DEVICE_READ_BYTES));
    if (this.name === "random" || this.name === "urandom") crypto.getRandomValues(data);
    return { ret: wasi.ERRNO_SUCCESS, data };
  }

  override fd_pread(size: number): { ret: number; data: Uint8Array } {
    return this.fd_read(size);
  }

  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    return { ret: wasi.ERRNO_SUCCESS, nwritten: data.length };
  }

  override fd_pwrite(data: Uint8Array): { ret: number; nwritten: number } {
    return this.fd_write(data);
  }

  override fd_seek(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SUCCESS, offset: 0n };
  }

  override fd_tell(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SUCCESS, offset: 0n };
  }

  override fd_filestat_set_size(): number {
    return wasi.ERRNO_SUCCESS;
  }
}

/** What a path under /dev names. */
type DevTarget = { dir: "dev" | "fd" } | { device: Device } | { fdNum: number } | { host: true };

export class DevDirFd extends Fd {
  /**
   * Set for runs the host answers (python3): /dev/toolshed opens a fresh request
   * (host-device.ts); `true` when the run can suspend while the host works.
   */
  hostDevice: { canWait: boolean } | null = null;

  constructor(
    /** The run's fds 0, 1 and 2: /dev/stdin and friends open these very streams. */
    private readonly stdio: readonly [Fd, Fd, Fd],
    /** Contents of the caller's other open fds (a shell's `3<file`, `<(cmd)`), as /dev/fd/N. */
    private readonly fdFiles: Readonly<Record<number, Uint8Array>> = {},
    /** Writable fds of the caller (a shell's `>(cmd)`): what the program writes is collected. */
    private readonly fdSinks: ReadonlyMap<number, Fd> = new Map(),
    private readonly preopenName?: string,
    /** "dev" for /dev itself, "fd" for /dev/fd opened as a directory. */
    private readonly which: "dev" | "fd" = "dev",
  ) {
    super();
  }

  private fdNumbers(): number[] {
    const above = new Set([...Object.keys(this.fdFiles).map(Number), ...this.fdSinks.keys()].filter((n) => n > 2));
    return [0, 1, 2, ...above].sort((a, b) => a - b);
  }

  /** What a relative name denotes, or an errno. */
  private lookup(rel: string): DevTarget | number {
    const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
    if (this.which === "fd") parts.unshift("fd");
    if (this.hostDevice && parts.length === 1 && parts[0] === HOST_DEVICE) return { host: true };
    if (parts.includes("..")) return wasi.ERRNO_NOTCAPABLE;
    if (parts.length === 0) return { dir: "dev" };
    const [first, second, ...more] = parts;
    if (first === "fd") {
      if (second === undefined) return { dir: "fd" };
      if (more.length) return wasi.ERRNO_NOTDIR;
      const n = /^\d+$/.test(second) ? Number(second) : NaN;
      return this.fdNumbers().includes(n) ? { fdNum: n } : wasi.ERRNO_NOENT;
    }
    if (!(DEVICES as readonly string[]).includes(first!)) return wasi.ERRNO_NOENT;
    return second === undefined ? { device: first as Device } : wasi.ERRNO_NOTDIR;
  }

  private statOf(t: DevTarget): WorkspaceFilestat {
    if ("host" in t) return HostDeviceFd.stat();
    if ("dir" in t) return new WorkspaceFilestat(inoOf(".") + (t.dir === "fd" ? 100n : 0n), wasi.FILETYPE_DIRECTORY, 0n);
    if ("device" in t) return charDeviceStat(t.device);
    const data = this.fdFiles[t.fdNum];
    // A captured file shows its length; stdio and sinks are streams with no size to speak of.
    return new WorkspaceFilestat(inoOf(".") + 200n + BigInt(t.fdNum), data ? wasi.FILETYPE_REGULAR_FILE : wasi.FILETYPE_UNKNOWN, BigInt(data?.length ?? 0));
  }

  override fd_prestat_get(): { ret: number; prestat: wasi.Prestat | null } {
    if (this.preopenName === undefined) return { ret: wasi.ERRNO_BADF, prestat: null };
    return { ret: wasi.ERRNO_SUCCESS, prestat: wasi.Prestat.dir(this.preopenName) };
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_DIRECTORY, 0, DIR_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: this.statOf({ dir: this.which }) };
  }

  override fd_read(): { ret: number; data: Uint8Array } {
    return { ret: wasi.ERRNO_ISDIR, data: new Uint8Array(0) };
  }

  override fd_write(): { ret: number; nwritten: number } {
    return { ret: wasi.ERRNO_BADF, nwritten: 0 };
  }

  override fd_readdir_single(cookie: bigint): { ret: number; dirent: wasi.Dirent | null } {
    const n = Number(cookie);
    if (n < 2) return { ret: wasi.ERRNO_SUCCESS, dirent: new wasi.Dirent(cookie + 1n, inoOf("."), n === 0 ? "." : "..", wasi.FILETYPE_DIRECTORY) };
    const names: string[] = this.which === "fd" ? this.fdNumbers().map(String) : ["fd", ...DEVICES];
    const name = names[n - 2];
    if (name === undefined) return { ret: wasi.ERRNO_SUCCESS, dirent: null };
    const t = this.lookup(name) as DevTarget;
    const st = this.statOf(t);
    return { ret: wasi.ERRNO_SUCCESS, dirent: new wasi.Dirent(cookie + 1n, st.ino, name, st.filetype) };
  }

  override path_open(_dirflags: number, rel: string, oflags: number, rightsBase: bigint): { ret: number; fd_obj: Fd | null } {
    const t = this.lookup(rel);
    if (typeof t === "number") return { ret: oflags & wasi.OFLAGS_CREAT && t === wasi.ERRNO_NOENT ? wasi.ERRNO_ACCES : t, fd_obj: null };
    if (oflags & wasi.OFLAGS_EXCL) return { ret: wasi.ERRNO_EXIST, fd_obj: null };
    if ("dir" in t) {
      const sub = new DevDirFd(this.stdio, this.fdFiles, this.fdSinks, undefined, t.dir);
      sub.hostDevice = this.hostDevice;
      return { ret: wasi.ERRNO_SUCCESS, fd_obj: sub };
    }
    if (oflags & wasi.OFLAGS_DIRECTORY) return { ret: wasi.ERRNO_NOTDIR, fd_obj: null };
    if ("host" in t) return { ret: wasi.ERRNO_SUCCESS, fd_obj: new HostDeviceFd(this.hostDevice!.canWait) };
    if ("device" in t && MEMORY_DEVICES.includes(t.device)) return { ret: wasi.ERRNO_SUCCESS, fd_obj: new MemoryDeviceFd(t.device as MemoryDevice) };
    const index = "device" in t ? (t.device === "stdin" ? 0 : t.device === "stdout" ? 1 : 2) : t.fdNum;
    // The same stream object under a second fd number, like dup(): closing it leaves fd 0-2 open.
    if (index <= 2) return { ret: wasi.ERRNO_SUCCESS, fd_obj: new SharedStreamFd(this.stdio[index as 0 | 1 | 2]) };
    const writing = (rightsBase & BigInt(wasi.RIGHTS_FD_WRITE)) !== 0n || (oflags & wasi.OFLAGS_TRUNC) !== 0;
    const sink = this.fdSinks.get(index);
    const data = this.fdFiles[index];
    if (writing) return sink ? { ret: wasi.ERRNO_SUCCESS, fd_obj: new SharedStreamFd(sink) } : { ret: wasi.ERRNO_ACCES, fd_obj: null };
    return data ? { ret: wasi.ERRNO_SUCCESS, fd_obj: new CapturedFd(data) } : { ret: wasi.ERRNO_ACCES, fd_obj: null };
  }

  override path_filestat_get(_flags: number, rel: string): { ret: number; filestat: wasi.Filestat | null } {
    const t = this.lookup(rel);
    if (typeof t === "number") return { ret: t, filestat: null };
    return { ret: wasi.ERRNO_SUCCESS, filestat: this.statOf(t) };
  }

  override path_filestat_set_times(): number {
    return wasi.ERRNO_PERM;
  }

  override path_create_directory(): number {
    return wasi.ERRNO_ACCES;
  }

  override path_remove_directory(): number {
    return wasi.ERRNO_ACCES;
  }

  override path_unlink_file(): number {
    return wasi.ERRNO_ACCES;
  }

  override path_readlink(rel: string): { ret: number; data: string | null } {
    const t = this.lookup(rel);
    return { ret: typeof t === "number" ? t : wasi.ERRNO_INVAL, data: null };
  }

  override path_link(): number {
    return wasi.ERRNO_ACCES;
  }

  override path_lookup(): { ret: number; inode_obj: null } {
    return { ret: wasi.ERRNO_NOTSUP, inode_obj: null };
  }

  override path_unlink(): { ret: number; inode_obj: null } {
    return { ret: wasi.ERRNO_ACCES, inode_obj: null };
  }
}

/** /dev/fd/N for one of the caller's fds: its captured bytes, read once from the start. */
class CapturedFd extends Fd {
  private pos = 0;

  constructor(private readonly data: Uint8Array) {
    super();
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_REGULAR_FILE, 0, ALL_RIGHTS & ~BigInt(wasi.RIGHTS_FD_WRITE)) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: new WorkspaceFilestat(0n, wasi.FILETYPE_REGULAR_FILE, BigInt(this.data.length)) };
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    const data = this.data.slice(this.pos, this.pos + size);
    this.pos += data.length;
    return { ret: wasi.ERRNO_SUCCESS, data };
  }

  override fd_pread(size: number, offset: bigint): { ret: number; data: Uint8Array } {
    const at = Number(offset);
    return { ret: wasi.ERRNO_SUCCESS, data: this.data.slice(at, at + size) };
  }

  override fd_seek(offset: bigint, whence: number): { ret: number; offset: bigint } {
    const base = whence === wasi.WHENCE_CUR ? this.pos : whence === wasi.WHENCE_END ? this.data.length : 0;
    const to = base + Number(offset);
    if (to < 0) return { ret: wasi.ERRNO_INVAL, offset: 0n };
    this.pos = to;
    return { ret: wasi.ERRNO_SUCCESS, offset: BigInt(to) };
  }

  override fd_tell(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SUCCESS, offset: BigInt(this.pos) };
  }

  override fd_write(): { ret: number; nwritten: number } {
    return { ret: wasi.ERRNO_BADF, nwritten: 0 };
  }
}

/** A second fd on one of the run's standard streams; closing it does not close the stream. */
export class SharedStreamFd extends Fd implements BorrowingWriter {
  constructor(readonly target: Fd) {
    super();
  }

  get borrowsWrites(): boolean {
    return (this.target as Partial<BorrowingWriter>).borrowsWrites === true;
  }

  override fd_fdstat_get() {
    return this.target.fd_fdstat_get();
  }

  override fd_filestat_get() {
    return this.target.fd_filestat_get();
  }

  override fd_read(size: number) {
    return this.target.fd_read(size);
  }

  override fd_write(data: Uint8Array) {
    return this.target.fd_write(data);
  }

  override fd_seek(offset: bigint, whence: number) {
    return this.target.fd_seek(offset, whence);
  }

  override fd_close(): number {
    return wasi.ERRNO_SUCCESS;
  }
}
