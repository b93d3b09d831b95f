import type { NodeInfo, Workspace } from "./workspace";
import { faultPoint } from "./faults";
import { CHUNK_SIZE } from "./schema";

/**
 * Pending changes to one file. Writes land in a fresh blob (an overlay of changed chunks)
 * while the old version stays visible to everyone else; `commit()` fills the overlay's gaps
 * from the old blob with a SQL copy and swaps it in atomically. Only the chunk being edited
 * is held in memory, so a 100 MB sequential write stays small.
 */
export class FileEditor {
  private overlay: number | null = null;
  /** Base chunks with idx >= this are gone (truncated away) and read as zeros. */
  private baseChunks: number;
  private cache: { idx: number; data: Uint8Array; dirty: boolean } | null = null;
  private done = false;

  constructor(
    private readonly ws: Workspace,
    readonly path: string,
    private base: number | null,
    private _size: number,
    /** Size of the version this editor replaces; quotas count growth beyond it. */
    private readonly previousSize: number = _size,
    /** Permission bits for a file this editor creates (an existing file keeps its own). */
    private readonly mode?: number,
  ) {
    this.baseChunks = base === null ? 0 : Math.ceil(_size / CHUNK_SIZE);
  }

  get size(): number {
    return this._size;
  }

  private overlayId(): number {
    if (this.overlay === null) this.overlay = this.ws.newBlob();
    return this.overlay;
  }

  /**
   * The chunk as it currently reads (overlay, else base, else zeros), padded to full size, in
   * `into` when given (its old bytes are overwritten).
   */
  private loadChunk(idx: number, into?: Uint8Array): Uint8Array {
    if (this.cache?.idx === idx) return this.cache.data;
    const out = into ? into.fill(0) : new Uint8Array(CHUNK_SIZE);
    // Past the end nothing is stored (truncate drops those rows): a file written from start
    // to end asks SQLite nothing per chunk.
    if (idx * CHUNK_SIZE >= this._size) return out;
    const from = (blob: number): boolean => {
      const rows = this.ws.sql.exec<{ data: ArrayBuffer }>(`SELECT data FROM vfs_chunks WHERE blob = ? AND idx = ?`, blob, idx).toArray();
      if (rows.length === 0) return false;
      out.set(new Uint8Array(rows[0]!.data).subarray(0, CHUNK_SIZE));
      return true;
    };
    if (!(this.overlay !== null && from(this.overlay)) && this.base !== null && idx < this.baseChunks) from(this.base);
    return out;
  }

  private cacheChunk(idx: number): { idx: number; data: Uint8Array; dirty: boolean } {
    if (this.cache?.idx !== idx) {
      this.flush();
      // The buffer moves on to the next chunk: SQLite copied the flushed bytes.
      const buffer = this.cache?.data;
      this.cache = null;
      this.cache = { idx, data: this.loadChunk(idx, buffer), dirty: false };
    }
    return this.cache!;
  }

  /** Writes the edited chunk into the overlay. */
  flush(): void {
    const c = this.cache;
    if (!c?.dirty) return;
    const len = Math.max(0, Math.min(CHUNK_SIZE, this._size - c.idx * CHUNK_SIZE));
    // A whole chunk is bound as it is (SQLite copies it); a short last one is cut to its length.
    const bytes = len === CHUNK_SIZE ? c.data.buffer : c.data.slice(0, len).buffer;
    this.ws.sql.exec(`INSERT OR REPLACE INTO vfs_chunks (blob, idx, data) VALUES (?, ?, ?)`, this.overlayId(), c.idx, bytes);
    c.dirty = false;
    faultPoint("chunk-stored");
  }

  read(offset: number, length: number): Uint8Array {
    const end = Math.min(this._size, offset + length);
    if (end <= offset) return new Uint8Array(0);
    const out = new Uint8Array(end - offset);
    for (let pos = offset; pos < end; ) {
      const idx = Math.floor(pos / CHUNK_SIZE);
      const within = pos - idx * CHUNK_SIZE;
      const n = Math.min(CHUNK_SIZE - within, end - pos);
      out.set(this.loadChunk(idx).subarray(within, within + n), pos - offset);
      pos += n;
    }
    return out;
  }

  write(offset: number, data: Uint8Array): number {
    this.ensureOpen();
    const newSize = Math.max(this._size, offset + data.length);
    this.checkGrowth(newSize);
    let done = 0;
    while (done < data.length) {
      const pos = offset + done;
      const idx = Math.floor(pos / CHUNK_SIZE);
      const within = pos - idx * CHUNK_SIZE;
      const n = Math.min(CHUNK_SIZE - within, data.length - done);
      const c = this.cacheChunk(idx);
      c.data.set(data.subarray(done, done + n), within);
      c.dirty = true;
      done += n;
      this._size = Math.max(this._size, pos + n);
    }
    return data.length;
  }

  append(data: Uint8Array): number {
    return this.write(this._size, data);
  }

  truncate(size: number): void {
    this.ensureOpen();
    if (size >= this._size) {
      this.checkGrowth(size);
      this._size = size;
      return;
    }
    const keepChunks = Math.ceil(size / CHUNK_SIZE);
    // The chunk that now ends the file keeps its head and zeroes its tail.
    if (size % CHUNK_SIZE !== 0) {
      const c = this.cacheChunk(keepChunks - 1);
      c.data.fill(0, size % CHUNK_SIZE);
      c.dirty = true;
    }
    if (this.cache && this.cache.idx >= keepChunks) this.cache = null;
    if (this.overlay !== null) {
      this.ws.sql.exec(`DELETE FROM vfs_chunks WHERE blob = ? AND idx >= ?`, this.overlay, keepChunks);
    }
    this.baseChunks = Math.min(this.baseChunks, size % CHUNK_SIZE === 0 ? keepChunks : keepChunks - 1);
    this._size = size;
  }

  /**
   * Copies the chunks still read from the old version into the overlay, so the editor no longer
   * depends on it: the file it edits can be unlinked (its blob dropped) while a program keeps
   * reading and writing it through an open fd, as POSIX allows. A SQL copy, nothing loaded into
   * memory; `commit()` still works afterwards and installs the same content.
   */
  detach(): void {
    this.ensureOpen();
    this.flush();
    if (this.base === null) return;
    this.copyBase(this.overlayId());
    this.base = null;
    this.baseChunks = 0;
  }

  /** Fills `blob`'s gaps below the file's end from the old version's chunks. */
  private copyBase(blob: number): void {
    if (this.base === null) return;
    this.ws.sql.exec(
      `INSERT INTO vfs_chunks (blob, idx, data)
         SELECT ?, idx, data FROM vfs_chunks
          WHERE blob = ? AND idx < ? AND idx NOT IN (SELECT idx FROM vfs_chunks WHERE blob = ?)`,
      blob,
      this.base,
      Math.min(Math.ceil(this._size / CHUNK_SIZE), this.baseChunks),
      blob,
    );
  }

  /** Makes the new content visible, atomically. The editor cannot be used afterwards. */
  commit(): NodeInfo {
    this.ensureOpen();
    this.flush();
    const blob = this.overlayId();
    this.copyBase(blob);
    this.done = true;
    try {
      return this.ws.installBlob(this.path, blob, this._size, this.mode);
    } catch (e) {
      this.ws.dropBlob(blob);
      throw e;
    }
  }

  /** Throws the pending changes away; the file keeps its previous content. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    this.cache = null;
    if (this.overlay !== null) this.ws.dropBlob(this.overlay);
  }

  /** True when the editor no longer reads from the version it replaces (detach(), or a truncation to nothing). */
  get detached(): boolean {
    return this.base === null;
  }

  get closed(): boolean {
    return this.done;
  }

  private checkGrowth(newSize: number): void {
    if (newSize > this._size) this.ws.checkQuota(this.path, newSize - this.previousSize, 0);
  }

  private ensureOpen(): void {
    if (this.done) throw new Error(`file editor for ${this.path} is already closed`);
  }
}
