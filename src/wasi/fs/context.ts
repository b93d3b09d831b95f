import { wasi } from "@bjorn3/browser_wasi_shim";
import { PolicyDenied, type Denial } from "../../policy/denied";
import { ROOT } from "../../vfs/paths";
import { isVfsError } from "../../vfs/errors";
import type { GuardedFs } from "../../policy/guarded-fs";
import { resolveFailure } from "../../policy/paths";
import { isWithin } from "../../vfs/paths";
import { VFS_ERRNO, deniedErrno } from "./errno";

/** What every open workspace file fd offers the context, so renames and unlinks can reach it. */
export interface OpenFile {
  path: string;
  /** Makes pending writes visible now (before a rename moves the file away from its path). */
  commit(): void;
  /** The file's name may go next: take a copy of its content that does not need the name. */
  keep(): void;
  /** The name stayed after all: drop the copy keep() took. */
  unkeep(): void;
  /** The file is gone (unlinked or replaced): it lives on in the kept copy; writes never resurrect it. */
  orphan(): void;
}

/**
 * State shared by all fds of one program run: the guarded workspace, the first policy denial
 * (the runner reports it), the first unexpected host error, and the files open right now.
 */
export class WasiFsContext {
  denial: Denial | undefined;
  hostError: string | undefined;
  readonly openFiles = new Set<OpenFile>();
  /** Bytes the open files' read-ahead windows hold together (bounded by LIMITS.readAheadTotalBytes). */
  readAheadHeld = 0;
  /**
   * Sizes of the open files read through the session's chunk cache. Files that would take this
   * past the cache's size stream instead: many files read side by side (sort merging 40 runs)
   * through one cache evicted each other's read-ahead and fetched every chunk four times.
   */
  cacheReadBytes = 0;

  /** `umask`: the caller's file-creation mask (WASI's path_open carries no mode, so 0666/0777 less this). */
  constructor(
    readonly fs: GuardedFs,
    readonly umask = 0o022,
  ) {}

  /**
   * Runs one filesystem step and turns what it throws into an errno: workspace errors map to
   * their POSIX twins, policy refusals are recorded (first one wins) and become EACCES/EPERM,
   * anything else is a host fault, reported as EIO so the program can still say what failed.
   */
  attempt(step: () => number): number {
    try {
      return step();
    } catch (e) {
      return this.errnoOf(e);
    }
  }

  /** As `attempt`, for calls that answer with a record (`{ret, data}` and the like). */
  attemptWith<T extends { ret: number }>(step: () => T, failed: (errno: number) => T): T {
    try {
      return step();
    } catch (e) {
      return failed(this.errnoOf(e));
    }
  }

  errnoOf(e: unknown): number {
    if (isVfsError(e)) return VFS_ERRNO[e.code];
    if (e instanceof PolicyDenied) {
      this.denial ??= e.denial;
      return deniedErrno(e.rule);
    }
    this.hostError ??= e instanceof Error ? e.message : String(e);
    return wasi.ERRNO_IO;
  }

  /**
   * The absolute workspace path `input` names relative to directory `base`. WASI paths are
   * always relative to a directory fd; an absolute one means the program bypassed its libc's
   * preopen mapping, which a sandbox must not honour. `..` may move around inside the
   * workspace but never out of it (resolvePath refuses, and the refusal is recorded).
   * `follow` false leaves a link in the last component unfollowed (lstat, unlink, rename, readlink).
   * `creating`: the call would make a new name there (open with O_CREAT, mkdir, symlink, a rename's
   * target). A name Debian lacks too is ENOENT to a lookup, but creating it where its directory
   * exists (`/nope`) stays refused (AbsentPath).
   */
  resolve(base: string, input: string, follow = true, creating = false): string | number {
    if (input === "") return wasi.ERRNO_NOENT;
    if (input.startsWith("/")) return wasi.ERRNO_NOTCAPABLE;
    // In the workspace-only view the root's ".." (what `ls -a` and `find` look at) is the root,
    // as in a chroot; the machine view has a real `/` above it.
    if (!this.fs.system && base === ROOT && /^(\.\/)*\.\.\/?$/.test(input)) return ROOT;
    try {
      return this.fs.resolve(base, input, follow);
    } catch (e) {
      return this.errnoOf(resolveFailure(e, creating));
    }
  }

  /** Commits open files at or below `path` and points them at `to` (after a rename). */
  moved(from: string, to: string): void {
    for (const f of this.openFiles) {
      if (isWithin(f.path, from)) f.path = to + f.path.slice(from.length);
    }
  }

  commitUnder(path: string): void {
    for (const f of this.openFiles) if (isWithin(f.path, path)) f.commit();
  }

  orphanUnder(path: string): void {
    for (const f of this.openFiles) if (isWithin(f.path, path)) f.orphan();
  }

  /**
   * Runs `remove` (an unlink, or a rename over `path`); the files open at or below `path` keep
   * their content afterwards, as open files outlive their name on POSIX.
   */
  unlinking<T>(path: string, remove: () => T): T {
    const open = [...this.openFiles].filter((f) => isWithin(f.path, path));
    try {
      for (const f of open) f.keep();
      const out = remove();
      for (const f of open) f.orphan();
      return out;
    } finally {
      for (const f of open) f.unkeep();
    }
  }
}

/**
 * An fd whose fd_write is done with the bytes when it returns (it copied or discarded them):
 * fd_write hands it a view of the program's memory instead of a copy of each piece.
 */
export interface BorrowingWriter {
  readonly borrowsWrites: boolean;
}
