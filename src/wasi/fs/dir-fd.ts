import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import type { NodeInfo } from "../../vfs/workspace";
import type { WasiFsContext } from "./context";
import { ALL_RIGHTS, LOOKUP_SYMLINK_FOLLOW, fdstat, filestatOf, filetypeOf, requestedTimes } from "./filestat";
import { WorkspaceNode } from "./node";
import { type ListedEntry, nameBytes, writeDirents } from "./dirents";

const DIR_RIGHTS = ALL_RIGHTS & ~BigInt(wasi.RIGHTS_FD_READ | wasi.RIGHTS_FD_WRITE | wasi.RIGHTS_FD_SEEK);
/** Encoded entries per workspace listing; the workspace hands out the same array until a change. */
const encodedListings = new WeakMap<readonly NodeInfo[], ListedEntry[]>();

/**
 * A workspace directory as a WASI fd: the preopened `/workspace`, or any directory a program
 * opens. It holds only its path; children are looked up with one stat per path operation, and a
 * listing is read from the workspace only when the program reads the directory (fd_readdir),
 * one snapshot per pass (cookie 0 starts a new one).
 */
export class WorkspaceDirFd extends Fd {
  private listing: ListedEntry[] | null = null;

  constructor(
    private readonly ctx: WasiFsContext,
    readonly path: string,
    /** The name a preopen is announced under (fd_prestat_dir_name); absent for opened dirs. */
    private readonly preopenName?: string,
  ) {
    super();
  }

  private get fs() {
    return this.ctx.fs;
  }

  /**
   * Runs `step` on the absolute path `rel` names, or returns the errno for a bad path. `follow`
   * false leaves a link in the last component as it is (what unlink, rename and readlink act on).
   */
  private at(rel: string, step: (path: string) => number, follow = true, creating = false): number {
    const path = this.ctx.resolve(this.path, rel, follow, creating);
    if (typeof path === "number") return path;
    return this.ctx.attempt(() => step(path));
  }

  override fd_prestat_get(): { ret: number; prestat: wasi.Prestat | null } {
    if (this.preopenName === undefined) return { ret: wasi.ERRNO_BADF, prestat: null };
    return { ret: wasi.ERRNO_SUCCESS, prestat: wasi.Prestat.dir(this.preopenName) };
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_DIRECTORY, 0, DIR_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return this.ctx.attemptWith<{ ret: number; filestat: wasi.Filestat | null }>(
      () => ({ ret: wasi.ERRNO_SUCCESS, filestat: filestatOf(this.fs.mustStat(this.path)) }),
      (ret) => ({ ret, filestat: null }),
    );
  }

  override fd_filestat_set_times(atim: bigint, mtim: bigint, fstFlags: number): number {
    return this.ctx.attempt(() => {
      const times = requestedTimes(atim, mtim, fstFlags, this.fs.ws.now());
      if (times.atimeMs !== undefined || times.mtimeMs !== undefined) this.fs.setTimes(this.path, times);
      return wasi.ERRNO_SUCCESS;
    });
  }

  override fd_read(): { ret: number; data: Uint8Array } {
    return { ret: wasi.ERRNO_ISDIR, data: new Uint8Array(0) };
  }

  override fd_pread(): { ret: number; data: Uint8Array } {
    return { ret: wasi.ERRNO_ISDIR, data: new Uint8Array(0) };
  }

  override fd_write(): { ret: number; nwritten: number } {
    return { ret: wasi.ERRNO_BADF, nwritten: 0 };
  }

  override fd_pwrite(): { ret: number; nwritten: number } {
    return { ret: wasi.ERRNO_BADF, nwritten: 0 };
  }

  /** [".", "..", ...children by name]; cookie 0 takes a fresh snapshot, later cookies reuse it. */
  private entries(cookie: bigint): ListedEntry[] {
    if (cookie !== 0n && this.listing !== null) return this.listing;
    const self = BigInt(this.fs.mustStat(this.path).ino);
    const children = this.fs.readdir(this.path);
    let listed = encodedListings.get(children);
    if (!listed) {
      listed = children.map((child) => ({
        name: nameBytes(child.path.slice(child.path.lastIndexOf("/") + 1)),
        ino: BigInt(child.ino),
        type: filetypeOf(child),
      }));
      encodedListings.set(children, listed);
    }
    const dot = (name: string): ListedEntry => ({ name: nameBytes(name), ino: self, type: wasi.FILETYPE_DIRECTORY });
    this.listing = [dot("."), dot(".."), ...listed];
    return this.listing;
  }

  override fd_readdir_single(cookie: bigint): { ret: number; dirent: wasi.Dirent | null } {
    return this.ctx.attemptWith(
      () => {
        const e = this.entries(cookie)[Number(cookie)];
        if (!e) return { ret: wasi.ERRNO_SUCCESS, dirent: null };
        return { ret: wasi.ERRNO_SUCCESS, dirent: new wasi.Dirent(cookie + 1n, e.ino, new TextDecoder().decode(e.name), e.type) };
      },
      (ret) => ({ ret, dirent: null }),
    );
  }

  /** fd_readdir straight into the program's memory (dirents.ts). */
  readdirInto(memory: ArrayBuffer, buf: number, bufLen: number, cookie: bigint): { ret: number; used: number } {
    return this.ctx.attemptWith(
      () => writeDirents(this.entries(cookie), memory, buf, bufLen, cookie),
      (ret) => ({ ret, used: 0 }),
    );
  }

  override path_open(dirflags: number, rel: string, oflags: number, rightsBase: bigint, _rightsInheriting: bigint, fdFlags: number): { ret: number; fd_obj: Fd | null } {
    const path = this.ctx.resolve(this.path, rel, (dirflags & LOOKUP_SYMLINK_FOLLOW) !== 0, (oflags & wasi.OFLAGS_CREAT) !== 0);
    if (typeof path === "number") return { ret: path, fd_obj: null };
    const opened = this.ctx.attemptWith(
      () => {
        // O_NOFOLLOW on a link: ELOOP, as Linux answers.
        if (this.fs.lstat(path)?.kind === "symlink") return { ret: wasi.ERRNO_LOOP, node: null };
        let info = this.fs.stat(path);
        if (info && oflags & wasi.OFLAGS_CREAT && oflags & wasi.OFLAGS_EXCL) return { ret: wasi.ERRNO_EXIST, node: null };
        if (!info) {
          if (!(oflags & wasi.OFLAGS_CREAT) || oflags & wasi.OFLAGS_DIRECTORY) return { ret: wasi.ERRNO_NOENT, node: null };
          // POSIX shows a created file at once (empty); its content still lands only on commit.
          info = this.fs.writeFile(path, new Uint8Array(0), { mode: 0o666 & ~this.ctx.umask });
        }
        return { ret: wasi.ERRNO_SUCCESS, node: new WorkspaceNode(this.ctx, info) };
      },
      (ret) => ({ ret, node: null }),
    );
    if (!opened.node) return { ret: opened.ret, fd_obj: null };
    return opened.node.path_open(oflags, rightsBase, fdFlags);
  }

  override path_filestat_get(flags: number, rel: string): { ret: number; filestat: wasi.Filestat | null } {
    let filestat: wasi.Filestat | null = null;
    const follow = (flags & LOOKUP_SYMLINK_FOLLOW) !== 0;
    const ret = this.at(
      rel,
      (path) => {
        const info = follow ? this.fs.stat(path) : this.fs.lstat(path);
        if (!info) return wasi.ERRNO_NOENT;
        filestat = filestatOf(info);
        return wasi.ERRNO_SUCCESS;
      },
      follow,
    );
    return { ret, filestat };
  }

  override path_filestat_set_times(flags: number, rel: string, atim: bigint, mtim: bigint, fstFlags: number): number {
    return this.at(
      rel,
      (path) => {
        if (!this.fs.lstat(path)) return wasi.ERRNO_NOENT;
        const times = requestedTimes(atim, mtim, fstFlags, this.fs.ws.now());
        if (times.atimeMs === undefined && times.mtimeMs === undefined) return wasi.ERRNO_SUCCESS;
        // Writes made through an fd still open (`cp -p` sets the copy's times before closing it)
        // are older than this call: land them first, or their commit at close would stamp "now".
        this.ctx.commitUnder(path);
        this.fs.setTimes(path, times);
        return wasi.ERRNO_SUCCESS;
      },
      (flags & LOOKUP_SYMLINK_FOLLOW) !== 0,
    );
  }

  override path_create_directory(rel: string): number {
    // A link (even a dangling one) in the way is EEXIST, as mkdir(2) answers.
    return this.at(
      rel,
      (path) => {
        this.fs.mkdir(path, { mode: 0o777 & ~this.ctx.umask });
        return wasi.ERRNO_SUCCESS;
      },
      false,
      true,
    );
  }

  override path_remove_directory(rel: string): number {
    return this.at(
      rel,
      (path) => {
        const info = this.fs.lstat(path);
        if (!info) return wasi.ERRNO_NOENT;
        if (info.kind !== "dir") return wasi.ERRNO_NOTDIR;
        this.fs.remove(path);
        this.ctx.orphanUnder(path);
        return wasi.ERRNO_SUCCESS;
      },
      false,
    );
  }

  /** Removes a file or a link itself (never what the link points at). */
  override path_unlink_file(rel: string): number {
    return this.at(
      rel,
      (path) => {
        const info = this.fs.lstat(path);
        if (!info) return wasi.ERRNO_NOENT;
        if (info.kind === "dir") return wasi.ERRNO_ISDIR;
        if (info.kind === "symlink") this.fs.remove(path);
        else this.ctx.unlinking(path, () => this.fs.remove(path));
        return wasi.ERRNO_SUCCESS;
      },
      false,
    );
  }

  /** `ln -s target rel`: the target text is stored as given. */
  symlinkAt(target: string, rel: string): number {
    if (target === "") return wasi.ERRNO_NOENT;
    return this.at(
      rel,
      (path) => {
        this.fs.symlink(target, path);
        return wasi.ERRNO_SUCCESS;
      },
      false,
      true,
    );
  }

  /** Used by path_rename (see imports.ts): resolves both names, then one Workspace.rename. */
  renameTo(fromRel: string, target: WorkspaceDirFd, toRel: string): number {
    const to = this.ctx.resolve(target.path, toRel, false, true);
    if (typeof to === "number") return to;
    return this.at(
      fromRel,
      (from) => {
        // Pending writes travel with the file; whatever `to` named before is gone.
        this.ctx.commitUnder(from);
        if (from === to) this.fs.rename(from, to);
        else {
          // What `to` named lives on for the fds that have it open.
          this.ctx.unlinking(to, () => this.fs.rename(from, to));
          this.ctx.moved(from, to);
        }
        return wasi.ERRNO_SUCCESS;
      },
      false,
    );
  }

  override path_readlink(rel: string): { ret: number; data: string | null } {
    let data: string | null = null;
    const ret = this.at(
      rel,
      (path) => {
        data = this.fs.readlink(path);
        return wasi.ERRNO_SUCCESS;
      },
      false,
    );
    return { ret, data };
  }

  /** Hard links cannot be represented (a node has one path); the shim uses these for links only. */
  override path_link(): number {
    return wasi.ERRNO_NOTSUP;
  }

  override path_lookup(): { ret: number; inode_obj: null } {
    return { ret: wasi.ERRNO_NOTSUP, inode_obj: null };
  }

  override path_unlink(): { ret: number; inode_obj: null } {
    return { ret: wasi.ERRNO_NOTSUP, inode_obj: null };
  }
}
