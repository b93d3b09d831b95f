import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import { ALL_RIGHTS, WorkspaceFilestat, fdstat } from "./filestat";

/**
 * `/dev`, preopened beside `/workspace` so programs can name the few device files scripts
 * rely on (`grep -f /dev/null`, `cat /dev/stdin`, `awk ... > "/dev/stderr"`). It is not the
 * host's /dev: `null` and `zero` are in-memory devices and `stdin`/`stdout`/`stderr` are the
 * run's own streams (as on Linux, where they are links to the process's fds 0-2). Nothing else
 * exists here and nothing can be created.
 */
const DEVICES = ["null", "zero", "stdin", "stdout", "stderr"] as const;
type Device = (typeof DEVICES)[number];

/** Inode numbers well above anything SQLite hands out for the workspace. */
const DEV_INO_BASE = 1n << 40n;
const inoOf = (name: Device | ".") => DEV_INO_BASE + BigInt(name === "." ? 0 : DEVICES.indexOf(name) + 1);

const DIR_RIGHTS = ALL_RIGHTS & ~BigInt(wasi.RIGHTS_FD_READ | wasi.RIGHTS_FD_WRITE | wasi.RIGHTS_FD_SEEK);

function charDeviceStat(name: Device): WorkspaceFilestat {
  return new WorkspaceFilestat(inoOf(name), wasi.FILETYPE_CHARACTER_DEVICE, 0n);
}

/**
 * /dev/null and /dev/zero. They keep the seek right so wasi-libc's isatty() says no (it treats
 * a character device without seek/tell as a terminal).
 */
class MemoryDeviceFd extends Fd {
  constructor(private readonly name: "null" | "zero") {
    super();
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_CHARACTER_DEVICE, 0, ALL_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: charDeviceStat(this.name) };
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    return { ret: wasi.ERRNO_SUCCESS, data: new Uint8Array(this.name === "zero" ? Math.min(size, 1 << 16) : 0) };
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

export class DevDirFd extends Fd {
  constructor(
    /** The run's fds 0, 1 and 2: /dev/stdin and friends open these very streams. */
    private readonly stdio: readonly [Fd, Fd, Fd],
    private readonly preopenName?: string,
  ) {
    super();
  }

  /** The device a relative name denotes, "." for the directory itself, or an errno. */
  private lookup(rel: string): Device | "." | number {
    const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.length === 0) return ".";
    if (parts.includes("..")) return wasi.ERRNO_NOTCAPABLE;
    if (parts.length > 1) return (DEVICES as readonly string[]).includes(parts[0]!) ? wasi.ERRNO_NOTDIR : wasi.ERRNO_NOENT;
    return (DEVICES as readonly string[]).includes(parts[0]!) ? (parts[0] as Device) : wasi.ERRNO_NOENT;
  }

  private dirStat(): WorkspaceFilestat {
    return new WorkspaceFilestat(inoOf("."), wasi.FILETYPE_DIRECTORY, 0n);
  }

  override fd_prestat_get(): { ret: number; prestat: wasi.Prestat | null } {
    if (this.preopenName === undefined) return { ret: wasi.ERRNO_BADF, prestat: null };
    return { ret: wasi.ERRNO_SUCCESS, prestat: wasi.Prestat.dir(this.preopenName) };
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_DIRECTORY, 0, DIR_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: this.dirStat() };
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
    const name = DEVICES[n - 2];
    if (!name) return { ret: wasi.ERRNO_SUCCESS, dirent: null };
    return { ret: wasi.ERRNO_SUCCESS, dirent: new wasi.Dirent(cookie + 1n, inoOf(name), name, wasi.FILETYPE_CHARACTER_DEVICE) };
  }

  override path_open(_dirflags: number, rel: string, oflags: number): { ret: number; fd_obj: Fd | null } {
    const dev = this.lookup(rel);
    if (typeof dev === "number") return { ret: oflags & wasi.OFLAGS_CREAT && dev === wasi.ERRNO_NOENT ? wasi.ERRNO_ACCES : dev, fd_obj: null };
    if (oflags & wasi.OFLAGS_EXCL) return { ret: wasi.ERRNO_EXIST, fd_obj: null };
    if (dev === ".") return { ret: wasi.ERRNO_SUCCESS, fd_obj: new DevDirFd(this.stdio) };
    if (oflags & wasi.OFLAGS_DIRECTORY) return { ret: wasi.ERRNO_NOTDIR, fd_obj: null };
    if (dev === "null" || dev === "zero") return { ret: wasi.ERRNO_SUCCESS, fd_obj: new MemoryDeviceFd(dev) };
    // The same stream object under a second fd number, like dup(): closing it leaves fd 0-2 open.
    const index = dev === "stdin" ? 0 : dev === "stdout" ? 1 : 2;
    return { ret: wasi.ERRNO_SUCCESS, fd_obj: new SharedStreamFd(this.stdio[index]) };
  }

  override path_filestat_get(_flags: number, rel: string): { ret: number; filestat: wasi.Filestat | null } {
    const dev = this.lookup(rel);
    if (typeof dev === "number") return { ret: dev, filestat: null };
    return { ret: wasi.ERRNO_SUCCESS, filestat: dev === "." ? this.dirStat() : charDeviceStat(dev) };
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
    const dev = this.lookup(rel);
    return { ret: typeof dev === "number" ? dev : wasi.ERRNO_INVAL, data: null };
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

/** A second fd on one of the run's standard streams; closing it does not close the stream. */
class SharedStreamFd extends Fd {
  constructor(private readonly target: Fd) {
    super();
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
