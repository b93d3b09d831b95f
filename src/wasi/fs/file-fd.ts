import { LIMITS } from "../../limits";
import { releaseBytes } from "../../vfs/chunk-cache";
import { CHUNK_SIZE, READ_AHEAD_CHUNKS } from "../../vfs/schema";
import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import { VfsError } from "../../vfs/errors";
import type { FileEditor } from "../../vfs/file-editor";
import type { BorrowingWriter, OpenFile, WasiFsContext } from "./context";
import { ALL_RIGHTS, fdstat, filestatOf, requestedTimes } from "./filestat";

export interface FileMode {
  read: boolean;
  write: boolean;
  append: boolean;
}

/** Files up to this size are read through the session's chunk cache; bigger ones stream (see readAt). */
const CHUNK_CACHE_BYTES = LIMITS.chunkCacheBytes;
const MAX_WINDOW_CHUNKS = Math.max(1, Math.floor(LIMITS.readAheadBytes / CHUNK_SIZE));
const READ_AHEAD_TOTAL = LIMITS.readAheadTotalBytes;

const READ_RIGHTS = BigInt(wasi.RIGHTS_FD_READ);
const WRITE_RIGHTS = BigInt(wasi.RIGHTS_FD_WRITE | wasi.RIGHTS_FD_ALLOCATE | wasi.RIGHTS_FD_FILESTAT_SET_SIZE | wasi.RIGHTS_FD_DATASYNC | wasi.RIGHTS_FD_SYNC);

/**
 * An open workspace file. Reads fetch only the byte range asked for (Workspace.read), never the
 * whole file. Writes go to a FileEditor created on the first change and committed on close or
 * sync, so other readers see the old content or the new, never a half-written file. O_TRUNC
 * opens the editor at once so the truncation itself lands on close.
 *
 * A file unlinked (or renamed over) while open lives on for this fd, as on POSIX (Python's
 * `tempfile.TemporaryFile` creates, unlinks, then writes and reads): before the name goes,
 * `keep()` gives the fd an editor that holds the whole content itself (FileEditor.detach, a
 * SQL copy); after, `orphan()` reads and writes only that editor, which is dropped on close
 * and never lands in the tree.
 */
export class WorkspaceFileFd extends Fd implements OpenFile, BorrowingWriter {
  /** Writes are copied into the file editor's chunk. */
  readonly borrowsWrites = true;
  private pos = 0;
  private editor: FileEditor | null = null;
  /** Times set while writes were pending; applied after the commit (which stamps "now"). */
  private pendingTimes: { atimeMs?: number; mtimeMs?: number } | null = null;
  /** Set at the first read: the access time moves at most once per open (Workspace.noteRead). */
  private readNoted = false;
  private orphaned = false;
  /** A private copy taken by keep() for an fd with no pending writes; orphan() adopts it. */
  private spare: FileEditor | null = null;

  constructor(
    private readonly ctx: WasiFsContext,
    public path: string,
    private readonly mode: FileMode,
    truncate: boolean,
  ) {
    super();
    if (truncate) this.editor = ctx.fs.openEditor(path, { truncate: true });
    ctx.openFiles.add(this);
  }

  private get fs() {
    return this.ctx.fs;
  }

  private ensureEditor(): FileEditor {
    // Writing on through an fd whose file was unlinked without a kept copy would resurrect it on close.
    if (this.orphaned && !this.editor) throw new VfsError("ENOENT", this.path);
    this.editor ??= this.fs.openEditor(this.path);
    return this.editor;
  }

  private size(): number {
    if (this.orphaned) return this.editor?.size ?? 0;
    return this.editor?.size ?? this.fs.stat(this.path)?.size ?? 0;
  }

  /**
   * Programs read in small blocks (often 8 KiB); fetching whole stored chunks and serving the
   * rest from memory turns thousands of SQL reads into a few. The workspace's generation counter
   * tells when another writer changed the file underneath.
   *
   * Two ways, by the file's size. A file that fits the session's chunk cache, with the other
   * files this program reads that way (WasiFsContext.cacheReadBytes), goes through it
   * (Workspace.readChunk, 3 chunks ahead), so the next program reading it costs no SQL. Any other
   * file is streamed: this fd holds a window of chunks of its own, from one query that grows
   * (1, 2, 4, ... chunks, up to LIMITS.readAheadBytes) while the reads go on where the last
   * window ended, and frees each chunk as soon as the reads pass it (releaseBytes). Memory then
   * stays at a window per open file, however big the file, and no chunk is copied but once,
   * into the program's memory.
   */
  private readAt(offset: number, length: number): Uint8Array {
    if (this.orphaned) {
      if (!this.editor) throw new VfsError("ENOENT", this.path);
      return this.editor.read(offset, length);
    }
    if (!this.readNoted) {
      this.readNoted = true;
      this.fs.noteRead(this.path);
    }
    if (this.editor) return this.editor.read(offset, length);
    const gen = this.fs.ws.generation;
    const idx = Math.floor(offset / CHUNK_SIZE);
    let w = this.window;
    if (w && w.gen !== gen) {
      this.dropWindow();
      w = null;
    }
    let data = w && idx >= w.first && idx < w.first + w.chunks.length ? w.chunks[idx - w.first] : undefined;
    if (data && w?.own) {
      // Chunks before this one are behind the reader now: free them.
      for (let i = w.released; i < idx - w.first; i++) this.release(w, i);
      w.released = Math.max(w.released, idx - w.first);
    }
    if (!data) {
      if (length >= CHUNK_SIZE && offset % CHUNK_SIZE !== 0) return this.fs.read(this.path, offset, length);
      // Reading on from where the last window ended: a bigger window, in one query.
      const sequential = w !== null && idx === w.first + w.chunks.length;
      const size = this.size();
      this.dropWindow();
      if (this.viaCache(size)) {
        const chunk = this.fs.readChunk(this.path, idx, sequential ? READ_AHEAD_CHUNKS : 0);
        w = { gen, first: idx, chunks: [chunk], own: false, released: 0 };
      } else {
        const grown = sequential ? Math.min(w!.chunks.length * 2, MAX_WINDOW_CHUNKS) : 1;
        const room = Math.floor((READ_AHEAD_TOTAL - this.ctx.readAheadHeld) / CHUNK_SIZE);
        const chunks = this.fs.readChunks(this.path, idx, Math.max(1, Math.min(grown, room)));
        for (const c of chunks) this.ctx.readAheadHeld += c.length;
        w = { gen, first: idx, chunks, own: true, released: 0 };
      }
      this.window = w;
      data = w.chunks[0];
      if (!data) return new Uint8Array(0);
    }
    const at = offset - idx * CHUNK_SIZE;
    // A read crossing the chunk's end is short; callers read again for the rest.
    return data.subarray(Math.min(at, data.length), Math.min(at + length, data.length));
  }

  /**
   * The chunks this fd read last. `own`: they came from readChunks and nobody else holds them,
   * so they are freed as the reader passes them and when the window goes (`released`: how many
   * of the first ones are gone already). Their bytes count in the context's readAheadHeld.
   */
  private window: { gen: number; first: number; chunks: (Uint8Array | undefined)[]; own: boolean; released: number } | null = null;

  private release(w: NonNullable<typeof this.window>, i: number): void {
    const c = w.chunks[i];
    if (!c) return;
    this.ctx.readAheadHeld -= c.length;
    releaseBytes(c);
    // Absent now: a read going back fetches it again.
    w.chunks[i] = undefined;
  }

  /** The bytes this fd counts in the context's cacheReadBytes; undefined until its first fetch. */
  private cacheShare: number | undefined;

  private viaCache(size: number): boolean {
    if (this.cacheShare === undefined) {
      this.cacheShare = size <= CHUNK_CACHE_BYTES - this.ctx.cacheReadBytes ? Math.max(size, 1) : 0;
      this.ctx.cacheReadBytes += this.cacheShare;
    }
    return this.cacheShare > 0 && size <= CHUNK_CACHE_BYTES;
  }

  /** Forgets the window, freeing what it still holds of its own. */
  private dropWindow(): void {
    const w = this.window;
    if (!w) return;
    this.window = null;
    if (!w.own) return;
    for (let i = w.released; i < w.chunks.length; i++) this.release(w, i);
  }

  commit(): void {
    const ed = this.editor;
    // An orphan's writes never land (a new file may have taken its old name).
    if (!ed || this.orphaned) return;
    this.editor = null;
    ed.commit();
    if (this.pendingTimes !== null) {
      this.fs.setTimes(this.path, this.pendingTimes);
      this.pendingTimes = null;
    }
  }

  keep(): void {
    if (this.orphaned) return;
    if (this.editor) this.editor.detach();
    else if (!this.spare) {
      // Never committed, so no write check: a read-only fd keeps reading what it opened. A copy
      // that cannot be taken (a write-only fd on a file the rules keep from reading) leaves the
      // fd as before: reads and writes after the unlink fail with ENOENT; the unlink goes on.
      let copy: FileEditor | null = null;
      try {
        copy = this.fs.openEditor(this.path, { write: false });
        copy.detach();
        this.spare = copy;
      } catch {
        copy?.abort();
      }
    }
  }

  unkeep(): void {
    this.spare?.abort();
    this.spare = null;
  }

  orphan(): void {
    if (this.orphaned) return;
    this.orphaned = true;
    if (this.spare) {
      this.editor?.abort();
      this.editor = this.spare;
      this.spare = null;
    } else if (this.editor && !this.editor.detached) {
      // No copy was kept: the old content is gone with its name.
      this.editor.abort();
      this.editor = null;
    }
    this.dropWindow();
  }

  /** Drops pending writes without a commit (a program that trapped or was stopped). */
  abandon(): void {
    this.orphaned = true;
    this.dropWindow();
    this.editor?.abort();
    this.editor = null;
    this.unkeep();
    this.ctx.openFiles.delete(this);
  }

  override fd_close(): number {
    this.ctx.openFiles.delete(this);
    this.dropWindow();
    this.ctx.cacheReadBytes -= this.cacheShare ?? 0;
    this.cacheShare = 0;
    if (this.orphaned) {
      this.editor?.abort();
      this.editor = null;
      return wasi.ERRNO_SUCCESS;
    }
    return this.ctx.attempt(() => {
      this.commit();
      return wasi.ERRNO_SUCCESS;
    });
  }

  override fd_sync(): number {
    if (this.orphaned) return wasi.ERRNO_SUCCESS;
    return this.ctx.attempt(() => {
      this.commit();
      return wasi.ERRNO_SUCCESS;
    });
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    let rights = ALL_RIGHTS;
    if (!this.mode.read) rights &= ~READ_RIGHTS;
    if (!this.mode.write) rights &= ~WRITE_RIGHTS;
    const flags = this.mode.append ? wasi.FDFLAGS_APPEND : 0;
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_REGULAR_FILE, flags, rights) };
  }

  override fd_fdstat_set_flags(flags: number): number {
    this.mode.append = (flags & wasi.FDFLAGS_APPEND) !== 0;
    return wasi.ERRNO_SUCCESS;
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return this.ctx.attemptWith<{ ret: number; filestat: wasi.Filestat | null }>(
      () => {
        const info = this.fs.stat(this.path);
        if (!info || this.orphaned) {
          // Unlinked while open: POSIX still answers fstat, with no links left.
          const ghost = { path: this.path, ino: 0, kind: "file" as const, size: this.editor?.size ?? 0, mtimeMs: 0, atimeMs: 0, mode: 0o644 };
          return { ret: wasi.ERRNO_SUCCESS, filestat: filestatOf(ghost, ghost.size, 0n) };
        }
        return { ret: wasi.ERRNO_SUCCESS, filestat: filestatOf(info, this.editor?.size ?? info.size) };
      },
      (ret) => ({ ret, filestat: null }),
    );
  }

  override fd_filestat_set_size(size: bigint): number {
    if (!this.mode.write) return wasi.ERRNO_BADF;
    if (size > BigInt(Number.MAX_SAFE_INTEGER)) return wasi.ERRNO_FBIG;
    return this.ctx.attempt(() => {
      this.ensureEditor().truncate(Number(size));
      return wasi.ERRNO_SUCCESS;
    });
  }

  override fd_allocate(offset: bigint, len: bigint): number {
    if (!this.mode.write) return wasi.ERRNO_BADF;
    const end = offset + len;
    if (end > BigInt(Number.MAX_SAFE_INTEGER)) return wasi.ERRNO_FBIG;
    return this.ctx.attempt(() => {
      if (Number(end) > this.size()) this.ensureEditor().truncate(Number(end));
      return wasi.ERRNO_SUCCESS;
    });
  }

  override fd_filestat_set_times(atim: bigint, mtim: bigint, fstFlags: number): number {
    return this.ctx.attempt(() => {
      const times = requestedTimes(atim, mtim, fstFlags, this.fs.ws.now());
      if (times.atimeMs === undefined && times.mtimeMs === undefined) return wasi.ERRNO_SUCCESS;
      if (this.editor) this.pendingTimes = { ...this.pendingTimes, ...times };
      else this.fs.setTimes(this.path, times);
      return wasi.ERRNO_SUCCESS;
    });
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    if (!this.mode.read) return { ret: wasi.ERRNO_BADF, data: new Uint8Array(0) };
    return this.ctx.attemptWith(
      () => {
        const data = this.readAt(this.pos, size);
        this.pos += data.length;
        return { ret: wasi.ERRNO_SUCCESS, data };
      },
      (ret) => ({ ret, data: new Uint8Array(0) }),
    );
  }

  override fd_pread(size: number, offset: bigint): { ret: number; data: Uint8Array } {
    if (!this.mode.read) return { ret: wasi.ERRNO_BADF, data: new Uint8Array(0) };
    return this.ctx.attemptWith(
      () => ({ ret: wasi.ERRNO_SUCCESS, data: this.readAt(Number(offset), size) }),
      (ret) => ({ ret, data: new Uint8Array(0) }),
    );
  }

  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    if (!this.mode.write) return { ret: wasi.ERRNO_BADF, nwritten: 0 };
    return this.ctx.attemptWith(
      () => {
        const ed = this.ensureEditor();
        if (this.mode.append) this.pos = ed.size;
        ed.write(this.pos, data);
        this.pos += data.length;
        return { ret: wasi.ERRNO_SUCCESS, nwritten: data.length };
      },
      (ret) => ({ ret, nwritten: 0 }),
    );
  }

  override fd_pwrite(data: Uint8Array, offset: bigint): { ret: number; nwritten: number } {
    if (!this.mode.write) return { ret: wasi.ERRNO_BADF, nwritten: 0 };
    if (offset + BigInt(data.length) > BigInt(Number.MAX_SAFE_INTEGER)) return { ret: wasi.ERRNO_FBIG, nwritten: 0 };
    return this.ctx.attemptWith(
      () => {
        this.ensureEditor().write(Number(offset), data);
        return { ret: wasi.ERRNO_SUCCESS, nwritten: data.length };
      },
      (ret) => ({ ret, nwritten: 0 }),
    );
  }

  override fd_seek(offset: bigint, whence: number): { ret: number; offset: bigint } {
    return this.ctx.attemptWith(
      () => {
        let base: number;
        if (whence === wasi.WHENCE_SET) base = 0;
        else if (whence === wasi.WHENCE_CUR) base = this.pos;
        else if (whence === wasi.WHENCE_END) base = this.size();
        else return { ret: wasi.ERRNO_INVAL, offset: BigInt(this.pos) };
        const next = BigInt(base) + offset;
        if (next < 0n || next > BigInt(Number.MAX_SAFE_INTEGER)) return { ret: wasi.ERRNO_INVAL, offset: BigInt(this.pos) };
        this.pos = Number(next);
        return { ret: wasi.ERRNO_SUCCESS, offset: next };
      },
      (ret) => ({ ret, offset: BigInt(this.pos) }),
    );
  }

  override fd_tell(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SUCCESS, offset: BigInt(this.pos) };
  }
}
