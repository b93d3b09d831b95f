import { ChunkCache } from "./chunk-cache";
import { VfsError } from "./errors";
import { faultPoint } from "./faults";
import { FileEditor } from "./file-editor";
import { ROOT, STORED_ROOTS, isWithin, parentOf } from "./paths";
import { CHUNK_SIZE, DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, KIND_DIR, KIND_FILE, KIND_SYMLINK, SCHEMA } from "./schema";
import { LIMITS } from "../limits";

type NodeKind = "file" | "dir" | "symlink";

export interface NodeInfo {
  path: string;
  /** Stable while the node exists (survives renames); WASI uses it as the inode number. */
  ino: number;
  kind: NodeKind;
  size: number;
  mtimeMs: number;
  /** Last access (reads move it by the relatime rule, see noteRead). */
  atimeMs: number;
  /** Permission bits (0o7777 at most). */
  mode: number;
  /** What a symbolic link points at, as written when it was made (links only). */
  target?: string;
  /** 0 when root owns it (the read-only system tree, /tmp as on Debian); absent: the session's user. */
  uid?: number;
}

export interface Quotas {
  maxBytes: number;
  /** Files and directories, the root not counted. */
  maxFiles: number;
}

/** The part of DurableObjectStorage the workspace needs; synchronous by design. */
export interface SqlHost {
  sql: SqlStorage;
  transactionSync<T>(fn: () => T): T;
}

interface NodeRow extends Record<string, SqlStorageValue> {
  rowid: number;
  path: string;
  kind: number;
  size: number;
  mtime: number;
  blob: number | null;
  /** Permission bits; null means the default for the kind (0644 files, 0755 directories). */
  mode: number | null;
  /** Last access; null means the same as mtime (rows from before access times, files never read). */
  atime: number | null;
  /** A symbolic link's target text; null for files and directories. */
  target: string | null;
}

const NODE_COLUMNS = "rowid, path, kind, size, mtime, blob, mode, atime, target";

/** relatime: a read moves the access time only when it is not after the last write or is a day old. */
export const RELATIME_MS = LIMITS.relatimeMs;

/** What a new node stores for `mode`: null when it is the kind's default, so old and new rows agree. */
const storedMode = (kind: number, mode: number | undefined): number | null =>
  mode === undefined || mode === (kind === KIND_DIR ? DEFAULT_DIR_MODE : DEFAULT_FILE_MODE) ? null : mode & 0o7777;

/**
 * File bytes kept in memory for re-reads (see ChunkCache). The isolate's 128 MB are shared with
 * every Wasm instance (64 MiB each at most), so this stays modest.
 */
const CHUNK_CACHE_BYTES = LIMITS.chunkCacheBytes;
/** Node rows remembered between changes; past this many the memo (and the listings) start over, so a walk of a huge tree holds a few MB at most. */
const NODE_MEMO_LIMIT = 20_000;

/** Half-open key range [lo, hi) that holds exactly the strict descendants of `dir`. */
function subtreeRange(dir: string): [string, string] {
  // "/" is 0x2F and "0" is 0x30, so every "dir/..." key sorts inside ["dir/", "dir0").
  return [`${dir}/`, `${dir}0`];
}

/** Links show mode 0777, as on Linux (their own bits are never used). */
const LINK_MODE = 0o777;

function toInfo(r: NodeRow): NodeInfo {
  const info: NodeInfo = {
    path: r.path,
    ino: r.rowid,
    kind: r.kind === KIND_DIR ? "dir" : r.kind === KIND_SYMLINK ? "symlink" : "file",
    mode: r.mode ?? (r.kind === KIND_DIR ? DEFAULT_DIR_MODE : r.kind === KIND_SYMLINK ? LINK_MODE : DEFAULT_FILE_MODE),
    size: r.size,
    mtimeMs: r.mtime,
    atimeMs: r.atime ?? r.mtime,
  };
  if (r.target !== null) info.target = r.target;
  return info;
}

/** Refuses reading or writing a link node's contents: callers follow links first (GuardedFs does). */
function checkContent(r: NodeRow, path: string): void {
  if (r.kind === KIND_DIR) throw new VfsError("EISDIR", path);
  if (r.kind === KIND_SYMLINK) throw new VfsError("EINVAL", path, "is a symbolic link; follow it first");
}

/**
 * A session's files, stored in its Durable Object's SQLite and reached synchronously so
 * WASI syscalls can call it directly. Every path given here is absolute and normalized
 * (the policy module resolves user input first); nothing outside ROOT can be named.
 */
export class Workspace {
  private usageCache: { bytes: number; files: number } | null = null;
  /** Whether any symbolic link exists (null: ask SQLite). Sessions without links skip link resolution. */
  private linksCache: boolean | null = null;
  /** Bumped by every change to what a path names or holds; read caches compare it. */
  generation = 0;
  /**
   * Rows (or their absence) by path, valid until the next change: a program walking a tree
   * stats every entry its directory listing just returned, and each answer here saves a query.
   */
  private readonly nodeMemo = new Map<string, NodeRow | null>();
  /** Directory listings, likewise until the next change (tree walks list the same dirs again). */
  private readonly listingMemo = new Map<string, readonly NodeInfo[]>();
  readonly chunkCache = new ChunkCache(CHUNK_CACHE_BYTES);

  constructor(
    private readonly host: SqlHost,
    readonly quotas: Quotas,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Creates the tables and the root, and drops blobs an interrupted write left behind. */
  static initialize(host: SqlHost): void {
    for (const stmt of SCHEMA) host.sql.exec(stmt);
    Workspace.migrateChunks(host);
    // Sessions made before file modes existed: their rows read as the defaults (mode NULL).
    const columns = host.sql.exec<{ name: string }>(`PRAGMA table_info(vfs_nodes)`).toArray();
    if (!columns.some((c) => c.name === "mode")) host.sql.exec(`ALTER TABLE vfs_nodes ADD COLUMN mode INTEGER`);
    // Access times came later still: NULL reads as "same as mtime".
    if (!columns.some((c) => c.name === "atime")) host.sql.exec(`ALTER TABLE vfs_nodes ADD COLUMN atime INTEGER`);
    // Symbolic links keep their target text here (null for every other node).
    if (!columns.some((c) => c.name === "target")) host.sql.exec(`ALTER TABLE vfs_nodes ADD COLUMN target TEXT`);
    // Shared content came with checkpoints: until then each blob had exactly one owner, so 1.
    const blobColumns = host.sql.exec<{ name: string }>(`PRAGMA table_info(vfs_blobs)`).toArray();
    if (!blobColumns.some((c) => c.name === "refs")) host.sql.exec(`ALTER TABLE vfs_blobs ADD COLUMN refs INTEGER NOT NULL DEFAULT 1`);
    host.sql.exec(`DELETE FROM vfs_release`);
    // Sessions made before /tmp and /usr/local/bin existed get them here too.
    for (const root of STORED_ROOTS) {
      host.sql.exec(
        `INSERT OR IGNORE INTO vfs_nodes (path, parent, kind, size, mtime) VALUES (?, ?, ?, 0, ?)`,
        root,
        root === ROOT ? "" : parentOf(root),
        KIND_DIR,
        Date.now(),
      );
    }
    host.sql.exec(`DELETE FROM vfs_chunks WHERE blob IN (SELECT id FROM vfs_blobs WHERE committed = 0)`);
    host.sql.exec(`DELETE FROM vfs_blobs WHERE committed = 0`);
  }

  /**
   * Sessions made before vfs_chunks became a rowid table (see SCHEMA) have it WITHOUT ROWID,
   * where `rowid` is no column. Their chunks are copied once into the new table, in one
   * transaction: a session restarted halfway still has the old table whole.
   */
  private static migrateChunks(host: SqlHost): void {
    try {
      host.sql.exec(`SELECT rowid FROM vfs_chunks LIMIT 0`);
      return;
    } catch {
      // WITHOUT ROWID: converted below.
    }
    host.transactionSync(() => {
      host.sql.exec(`ALTER TABLE vfs_chunks RENAME TO vfs_chunks_old`);
      host.sql.exec(SCHEMA.find((s) => s.includes("TABLE IF NOT EXISTS vfs_chunks"))!);
      host.sql.exec(`INSERT INTO vfs_chunks (blob, idx, data) SELECT blob, idx, data FROM vfs_chunks_old ORDER BY blob, idx`);
      host.sql.exec(`DROP TABLE vfs_chunks_old`);
    });
  }

  get sql(): SqlStorage {
    return this.host.sql;
  }

  now(): number {
    return this.clock();
  }

  /**
   * Runs `fn` atomically. A rollback may undo rows the caches already saw (even a new blob id,
   * which SQLite can then hand out again), so a failed transaction forgets everything cached.
   */
  transaction<T>(fn: () => T): T {
    try {
      return this.host.transactionSync(fn);
    } catch (e) {
      this.changed();
      this.chunkCache.clear();
      this.linksCache = null;
      // Recounted now: adjustUsage after a later write would otherwise count that write twice.
      this.usageCache = null;
      this.usage();
      throw e;
    }
  }

  /** Called after every write to vfs_nodes: cached lookups and fd read caches start over. */
  private changed(): void {
    this.generation++;
    this.nodeMemo.clear();
    this.listingMemo.clear();
  }

  /** Remembers what a listing or lookup returned (until the next change). */
  private remember(path: string, row: NodeRow | null): void {
    if (this.nodeMemo.size >= NODE_MEMO_LIMIT) {
      this.nodeMemo.clear();
      this.listingMemo.clear();
    }
    this.nodeMemo.set(path, row);
  }

  // ---- lookups -------------------------------------------------------------------------

  private row(path: string): NodeRow | null {
    const memo = this.nodeMemo.get(path);
    if (memo !== undefined) return memo;
    const rows = this.sql.exec<NodeRow>(`SELECT ${NODE_COLUMNS} FROM vfs_nodes WHERE path = ?`, path).toArray();
    const row = rows[0] ?? null;
    this.remember(path, row);
    return row;
  }

  private mustRow(path: string): NodeRow {
    const r = this.row(path);
    if (!r) throw new VfsError("ENOENT", path);
    return r;
  }

  stat(path: string): NodeInfo | null {
    const r = this.row(path);
    return r ? toInfo(r) : null;
  }

  mustStat(path: string): NodeInfo {
    return toInfo(this.mustRow(path));
  }

  /** Direct children of a directory, sorted by name. The array is shared: never modify it. */
  readdir(path: string): readonly NodeInfo[] {
    const r = this.mustRow(path);
    if (r.kind !== KIND_DIR) throw new VfsError("ENOTDIR", path);
    const memo = this.listingMemo.get(path);
    if (memo) return memo;
    const list: NodeInfo[] = [];
    // raw() rows: about half the cost of building an object per row.
    for (const [rowid, child, kind, size, mtime, blob, mode, atime, target] of this.sql
      .exec(`SELECT ${NODE_COLUMNS} FROM vfs_nodes WHERE parent = ? ORDER BY path`, path)
      .raw() as IterableIterator<[number, string, number, number, number, number | null, number | null, number | null, string | null]>) {
      const row: NodeRow = { rowid, path: child, kind, size, mtime, blob, mode, atime, target };
      this.remember(child, row);
      list.push(toInfo(row));
    }
    this.listingMemo.set(path, list);
    return list;
  }

  /** Every node strictly below `dir`, in path order, without touching file contents. */
  walk(dir: string): NodeInfo[] {
    const [lo, hi] = subtreeRange(dir);
    return this.sql.exec<NodeRow>(`SELECT ${NODE_COLUMNS} FROM vfs_nodes WHERE path >= ? AND path < ? ORDER BY path`, lo, hi).toArray().map(toInfo);
  }

  usage(): { bytes: number; files: number } {
    if (!this.usageCache) {
      const r = this.sql
        .exec<{ bytes: number; files: number }>(`SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) - ? AS files FROM vfs_nodes`, STORED_ROOTS.length)
        .one();
      this.usageCache = { bytes: r.bytes, files: r.files };
    }
    return this.usageCache;
  }

  private adjustUsage(bytes: number, files: number): void {
    const u = this.usage();
    u.bytes += bytes;
    u.files += files;
  }

  /** Throws EDQUOT when growing usage by `bytes`/`files` would pass a quota. */
  checkQuota(path: string, bytes: number, files: number): void {
    const u = this.usage();
    if (bytes > 0 && u.bytes + bytes > this.quotas.maxBytes) {
      throw new VfsError(
        "EDQUOT",
        path,
        `workspace byte quota exceeded (${u.bytes + bytes} > ${this.quotas.maxBytes} bytes); delete files or raise TOOLSHED_QUOTA_BYTES`,
      );
    }
    if (files > 0 && u.files + files > this.quotas.maxFiles) {
      throw new VfsError(
        "EDQUOT",
        path,
        `workspace file-count quota exceeded (max ${this.quotas.maxFiles} files and directories); delete files or raise TOOLSHED_QUOTA_FILES`,
      );
    }
  }

  // ---- directories ---------------------------------------------------------------------

  /** Ensures the parent of `path` is an existing directory, creating missing ones if asked. */
  ensureParent(path: string, create: boolean): void {
    const parent = parentOf(path);
    const r = this.row(parent);
    if (r) {
      if (r.kind !== KIND_DIR) throw new VfsError("ENOTDIR", parent);
      return;
    }
    if (!create) throw new VfsError("ENOENT", parent);
    this.mkdir(parent, { recursive: true });
  }

  /** `mode`: permission bits of the new directory (and of parents `recursive` creates). */
  mkdir(path: string, opts: { recursive?: boolean; mode?: number } = {}): void {
    const existing = this.row(path);
    if (existing) {
      if (opts.recursive && existing.kind === KIND_DIR) return;
      throw new VfsError("EEXIST", path);
    }
    if (opts.recursive && !this.row(parentOf(path))) this.mkdir(parentOf(path), opts);
    this.ensureParent(path, false);
    this.checkQuota(path, 0, 1);
    this.sql.exec(
      `INSERT INTO vfs_nodes (path, parent, kind, size, mtime, mode) VALUES (?, ?, ?, 0, ?, ?)`,
      path,
      parentOf(path),
      KIND_DIR,
      this.now(),
      storedMode(KIND_DIR, opts.mode),
    );
    this.changed();
    this.adjustUsage(0, 1);
    this.touchDir(parentOf(path));
    faultPoint("dir-created");
  }

  private touchDir(path: string): void {
    this.sql.exec(`UPDATE vfs_nodes SET atime = COALESCE(atime, mtime), mtime = ? WHERE path = ?`, this.now(), path);
    this.changed();
  }

  // ---- file contents -------------------------------------------------------------------

  /** Reads `length` bytes at `offset` (fewer at end of file). */
  read(path: string, offset: number, length: number): Uint8Array {
    const r = this.mustRow(path);
    checkContent(r, path);
    return this.readBlob(r.blob, r.size, offset, length);
  }

  readFile(path: string): Uint8Array {
    const r = this.mustRow(path);
    checkContent(r, path);
    return this.readBlob(r.blob, r.size, 0, r.size);
  }

  readText(path: string): string {
    return new TextDecoder().decode(this.readFile(path));
  }

  /**
   * Chunk `idx` of a file (shorter at the end of the file; empty past it). It may be the cached
   * copy itself: callers only read it.
   */
  readChunk(path: string, idx: number, ahead = 0): Uint8Array {
    const r = this.mustRow(path);
    checkContent(r, path);
    const start = idx * CHUNK_SIZE;
    const expected = Math.max(0, Math.min(CHUNK_SIZE, r.size - start));
    if (r.blob === null || expected === 0) return new Uint8Array(expected);
    let chunk = this.chunkCache.get(r.blob, idx);
    if (!chunk) {
      // One query for this chunk and up to `ahead` after it (a sequential reader's next reads),
      // each kept in the cache: fewer statements, and no copy of the row's bytes.
      const last = Math.min(idx + ahead, Math.ceil(r.size / CHUNK_SIZE) - 1);
      for (const [i, data] of this.sql.exec(`SELECT idx, data FROM vfs_chunks WHERE blob = ? AND idx >= ? AND idx <= ?`, r.blob, idx, last).raw() as IterableIterator<
        [number, ArrayBuffer]
      >) {
        const bytes = new Uint8Array(data);
        this.chunkCache.put(r.blob, i, bytes);
        if (i === idx) chunk = bytes;
      }
    }
    // A stored chunk shorter than its place in the file (sparse tail, or absent) reads padded with zeros.
    if (chunk && chunk.length === expected) return chunk;
    return this.readBlob(r.blob, r.size, start, expected);
  }

  /**
   * Chunks `first` .. `first + count - 1` of a file (fewer at its end), each exactly as long as
   * its place in the file, in one query and without the chunk cache: every array returned is
   * the caller's own (SQLite's row buffer itself, or a fresh zero-padded copy for a sparse or
   * short chunk), so a streaming reader may free it (`releaseBytes`) once consumed. Used for
   * files too big for the cache, where caching would only churn it.
   */
  readChunks(path: string, first: number, count: number): Uint8Array[] {
    const r = this.mustRow(path);
    checkContent(r, path);
    const last = Math.min(first + count, Math.ceil(r.size / CHUNK_SIZE)) - 1;
    const out: Uint8Array[] = [];
    if (last < first) return out;
    const expected = (idx: number) => Math.min(CHUNK_SIZE, r.size - idx * CHUNK_SIZE);
    if (r.blob !== null) {
      for (const [i, data] of this.sql.exec(`SELECT idx, data FROM vfs_chunks WHERE blob = ? AND idx >= ? AND idx <= ?`, r.blob, first, last).raw() as IterableIterator<
        [number, ArrayBuffer]
      >) {
        if (data.byteLength === expected(i)) out[i - first] = new Uint8Array(data);
      }
    }
    // Absent (sparse) or short rows read as zeros, as readBlob reads them.
    for (let i = first; i <= last; i++) out[i - first] ??= r.blob === null ? new Uint8Array(expected(i)) : this.readBlob(r.blob, r.size, i * CHUNK_SIZE, expected(i));
    return out;
  }

  /** Yields the file's bytes chunk by chunk, one SQL row at a time, so memory stays flat. */
  *chunks(path: string): Generator<Uint8Array> {
    const r = this.mustRow(path);
    checkContent(r, path);
    const count = Math.ceil(r.size / CHUNK_SIZE);
    for (let idx = 0; idx < count; idx++) {
      const len = Math.min(CHUNK_SIZE, r.size - idx * CHUNK_SIZE);
      yield this.readBlob(r.blob, r.size, idx * CHUNK_SIZE, len);
    }
  }

  /** Bytes of a blob; chunks that are absent (sparse) or short read as zeros. */
  readBlob(blob: number | null, size: number, offset: number, length: number): Uint8Array {
    const end = Math.min(size, offset + length);
    if (blob === null || end <= offset) return new Uint8Array(0);
    const out = new Uint8Array(end - offset);
    const place = (idx: number, bytes: Uint8Array) => {
      const chunkStart = idx * CHUNK_SIZE;
      const from = Math.max(offset, chunkStart);
      const to = Math.min(end, chunkStart + bytes.length);
      if (to > from) out.set(bytes.subarray(from - chunkStart, to - chunkStart), from - offset);
    };
    let first = Math.floor(offset / CHUNK_SIZE);
    let last = Math.floor((end - 1) / CHUNK_SIZE);
    // Cached chunks at either end narrow the query; a hole in the middle is simply re-read.
    for (let hit; first <= last && (hit = this.chunkCache.get(blob, first)); first++) place(first, hit);
    for (let hit; last >= first && (hit = this.chunkCache.get(blob, last)); last--) place(last, hit);
    if (first > last) return out;
    const rows = this.sql.exec<{ idx: number; data: ArrayBuffer }>(`SELECT idx, data FROM vfs_chunks WHERE blob = ? AND idx >= ? AND idx <= ?`, blob, first, last);
    for (const { idx, data } of rows) {
      const bytes = new Uint8Array(data);
      this.chunkCache.put(blob, idx, bytes);
      place(idx, bytes);
    }
    return out;
  }

  /** Replaces (or creates) a file in one step: readers see the old bytes or the new, never half. */
  writeFile(path: string, data: Uint8Array | string, opts: { createParents?: boolean; mode?: number } = {}): NodeInfo {
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    const editor = this.openEditor(path, { create: true, truncate: true, createParents: opts.createParents, mode: opts.mode });
    try {
      editor.write(0, bytes);
      return editor.commit();
    } catch (e) {
      editor.abort();
      throw e;
    }
  }

  /**
   * Opens a file for random-access changes that stay invisible until `commit()` swaps them in.
   * Unchanged chunks are shared with the old version by SQL copies, never loaded into memory.
   */
  openEditor(path: string, opts: { create?: boolean; truncate?: boolean; exclusive?: boolean; createParents?: boolean; mode?: number } = {}): FileEditor {
    const r = this.row(path);
    if (r) {
      if (opts.exclusive) throw new VfsError("EEXIST", path);
      checkContent(r, path);
      return new FileEditor(this, path, opts.truncate ? null : r.blob, opts.truncate ? 0 : r.size, r.size);
    }
    if (!opts.create) throw new VfsError("ENOENT", path);
    this.ensureParent(path, opts.createParents ?? false);
    this.checkQuota(path, 0, 1);
    return new FileEditor(this, path, null, 0, 0, opts.mode);
  }

  /**
   * A committed copy of a file's bytes that later writes to the file do not touch (the outbox
   * keeps what was sent). One SQL statement copies the chunks; null for an empty file.
   */
  copyBlob(path: string): { blob: number | null; size: number } {
    const r = this.mustRow(path);
    checkContent(r, path);
    if (r.blob === null) return { blob: null, size: r.size };
    return this.transaction(() => {
      const blob = this.newBlob();
      this.sql.exec(`INSERT INTO vfs_chunks (blob, idx, data) SELECT ?, idx, data FROM vfs_chunks WHERE blob = ?`, blob, r.blob);
      this.sql.exec(`UPDATE vfs_blobs SET committed = 1 WHERE id = ?`, blob);
      return { blob, size: r.size };
    });
  }

  /** Allocates an uncommitted blob; `Workspace.initialize` drops it if never committed. */
  newBlob(): number {
    return this.sql.exec<{ id: number }>(`INSERT INTO vfs_blobs (committed) VALUES (0) RETURNING id`).one().id;
  }

  dropBlob(blob: number): void {
    this.chunkCache.dropBlob(blob);
    this.sql.exec(`DELETE FROM vfs_chunks WHERE blob = ?`, blob);
    this.sql.exec(`DELETE FROM vfs_blobs WHERE id = ?`, blob);
  }

  /** Drops one reference to a committed blob; the blob goes with its last one. */
  releaseBlob(blob: number): void {
    const left = this.sql.exec<{ refs: number }>(`UPDATE vfs_blobs SET refs = refs - 1 WHERE id = ? RETURNING refs`, blob).toArray()[0];
    if (left && left.refs <= 0) this.dropBlob(blob);
  }

  /**
   * Notes one reference to release for every row `select` yields (a query with a `blob` column;
   * nulls and repeats allowed). Call it before deleting the rows, then `applyReleases()` after,
   * inside the same transaction: rows deleted in between may pass their reference to history.
   */
  stageReleases(select: string, ...params: SqlStorageValue[]): void {
    this.sql.exec(
      `INSERT INTO vfs_release (blob, n) SELECT blob, COUNT(*) FROM (${select}) WHERE blob IS NOT NULL GROUP BY blob
         ON CONFLICT (blob) DO UPDATE SET n = n + excluded.n`,
      ...params,
    );
  }

  /** Adds one reference for every row `select` yields (as stageReleases), at once. */
  retainBlobs(select: string, ...params: SqlStorageValue[]): void {
    this.sql.exec(
      `UPDATE vfs_blobs SET refs = refs + g.n
         FROM (SELECT blob, COUNT(*) AS n FROM (${select}) WHERE blob IS NOT NULL GROUP BY blob) AS g
        WHERE vfs_blobs.id = g.blob`,
      ...params,
    );
  }

  /** Releases what stageReleases noted; blobs left without a reference are deleted. Returns the bytes freed. */
  applyReleases(): number {
    this.sql.exec(`UPDATE vfs_blobs SET refs = refs - r.n FROM vfs_release AS r WHERE vfs_blobs.id = r.blob`);
    const freed = this.sql
      .exec<{ bytes: number }>(
        `SELECT COALESCE(SUM(length(c.data)), 0) AS bytes FROM vfs_chunks c
           WHERE c.blob IN (SELECT r.blob FROM vfs_release r JOIN vfs_blobs b ON b.id = r.blob WHERE b.refs <= 0)`,
      )
      .one().bytes;
    const gone = `SELECT r.blob FROM vfs_release r JOIN vfs_blobs b ON b.id = r.blob WHERE b.refs <= 0`;
    this.sql.exec(`DELETE FROM vfs_chunks WHERE blob IN (${gone})`);
    this.sql.exec(`DELETE FROM vfs_blobs WHERE id IN (${gone})`);
    this.sql.exec(`DELETE FROM vfs_release`);
    // Blob ids are never reused, so stale cache entries only cost memory: start over if any went.
    if (freed > 0) this.chunkCache.clear();
    return freed;
  }

  /** Forgets cached lookups after another module changed vfs_nodes directly (a restore). */
  invalidate(): void {
    this.changed();
    this.usageCache = null;
    this.linksCache = null;
  }

  /** Points `path` at a finished blob, atomically, and frees the blob it replaces. */
  installBlob(path: string, blob: number, size: number, mode?: number): NodeInfo {
    return this.transaction(() => {
      const old = this.row(path);
      if (old) checkContent(old, path);
      this.checkQuota(path, size - (old?.size ?? 0), old ? 0 : 1);
      if (!old) this.ensureParent(path, false);
      const mtime = this.now();
      this.sql.exec(`UPDATE vfs_blobs SET committed = 1 WHERE id = ?`, blob);
      if (old) {
        this.sql.exec(`UPDATE vfs_nodes SET size = ?, atime = COALESCE(atime, mtime), mtime = ?, blob = ? WHERE path = ?`, size, mtime, blob, path);
        this.changed();
        if (old.blob !== null && old.blob !== blob) this.releaseBlob(old.blob);
        this.adjustUsage(size - old.size, 0);
      } else {
        this.sql.exec(
          `INSERT INTO vfs_nodes (path, parent, kind, size, mtime, blob, mode) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          path,
          parentOf(path),
          KIND_FILE,
          size,
          mtime,
          blob,
          storedMode(KIND_FILE, mode),
        );
        this.changed();
        this.adjustUsage(size, 1);
        this.touchDir(parentOf(path));
      }
      faultPoint("node-installed");
      return this.mustStat(path);
    });
  }

  /** chmod: the permission bits (0o7777 at most) of a file or directory. */
  setMode(path: string, mode: number): void {
    const r = this.mustRow(path);
    this.sql.exec(`UPDATE vfs_nodes SET mode = ? WHERE path = ?`, storedMode(r.kind, mode), path);
    this.changed();
  }

  /** Sets the modification time; the access time stays where it was. */
  setMtime(path: string, mtimeMs: number): void {
    this.setTimes(path, { mtimeMs });
  }

  /** utimensat: either time or both; what is not given stays. */
  setTimes(path: string, times: { atimeMs?: number; mtimeMs?: number }): void {
    this.mustRow(path);
    const { atimeMs, mtimeMs } = times;
    if (mtimeMs !== undefined) {
      const atime = atimeMs === undefined ? "COALESCE(atime, mtime)" : "?";
      const args = atimeMs === undefined ? [Math.floor(mtimeMs)] : [Math.floor(atimeMs), Math.floor(mtimeMs)];
      this.sql.exec(`UPDATE vfs_nodes SET atime = ${atime}, mtime = ? WHERE path = ?`, ...args, path);
    } else if (atimeMs !== undefined) {
      this.sql.exec(`UPDATE vfs_nodes SET atime = ? WHERE path = ?`, Math.floor(atimeMs), path);
    }
    this.changed();
  }

  /**
   * A read of the file's contents, with Linux's relatime rule: the access time moves only when it
   * is not after the last modification or is more than a day old, so reading a file costs a
   * SQLite write at most once after each write (and once a day). Nothing else is invalidated:
   * the contents did not change.
   */
  noteRead(path: string): void {
    const r = this.row(path);
    if (!r || r.kind !== KIND_FILE) return;
    const now = this.now();
    const atime = r.atime ?? r.mtime;
    if (atime > r.mtime && now - atime < RELATIME_MS) return;
    this.sql.exec(`UPDATE vfs_nodes SET atime = ? WHERE path = ?`, now, path);
    this.nodeMemo.set(path, { ...r, atime: now });
    this.listingMemo.delete(parentOf(path));
  }

  /** Creates an empty file if missing, else sets both times to `mtimeMs` or now (as `touch`). */
  touch(path: string, mtimeMs?: number): void {
    if (this.row(path)) {
      const t = mtimeMs ?? this.now();
      this.setTimes(path, { atimeMs: t, mtimeMs: t });
      return;
    }
    this.writeFile(path, new Uint8Array(0));
    if (mtimeMs !== undefined) this.setTimes(path, { atimeMs: mtimeMs, mtimeMs });
  }

  // ---- symbolic links ------------------------------------------------------------------

  /** Whether the workspace holds any symbolic link (cheap after the first call). */
  hasLinks(): boolean {
    this.linksCache ??= this.sql.exec<{ n: number }>(`SELECT EXISTS (SELECT 1 FROM vfs_nodes WHERE kind = ?) AS n`, KIND_SYMLINK).one().n === 1;
    return this.linksCache;
  }

  /** The target text when `path` is a symbolic link, else undefined. */
  linkTarget(path: string): string | undefined {
    const r = this.row(path);
    return r?.kind === KIND_SYMLINK ? (r.target ?? "") : undefined;
  }

  /** `ln -s target path`: the target is kept as text, never checked (dangling links are allowed). */
  symlink(target: string, path: string): NodeInfo {
    if (target === "") throw new VfsError("ENOENT", path, "a symbolic link's target cannot be empty");
    if (this.row(path)) throw new VfsError("EEXIST", path);
    const size = new TextEncoder().encode(target).length;
    return this.transaction(() => {
      this.ensureParent(path, false);
      this.checkQuota(path, size, 1);
      this.sql.exec(
        `INSERT INTO vfs_nodes (path, parent, kind, size, mtime, target) VALUES (?, ?, ?, ?, ?, ?)`,
        path,
        parentOf(path),
        KIND_SYMLINK,
        size,
        this.now(),
        target,
      );
      this.changed();
      this.linksCache = true;
      this.adjustUsage(size, 1);
      this.touchDir(parentOf(path));
      return this.mustStat(path);
    });
  }

  // ---- removal and renames -------------------------------------------------------------

  remove(path: string, opts: { recursive?: boolean } = {}): void {
    if (STORED_ROOTS.includes(path)) throw new VfsError("EBUSY", path, `${path} cannot be removed (empty it instead)`);
    const r = this.mustRow(path);
    const [lo, hi] = subtreeRange(path);
    this.transaction(() => {
      if (r.kind === KIND_DIR) {
        const children = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM vfs_nodes WHERE parent = ?`, path).one().n;
        if (children > 0 && !opts.recursive) throw new VfsError("ENOTEMPTY", path);
      }
      const freed = this.sql
        .exec<{ bytes: number; files: number }>(
          `SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) AS files FROM vfs_nodes WHERE path = ? OR (path >= ? AND path < ?)`,
          path,
          lo,
          hi,
        )
        .one();
      const where = `path = ? OR (path >= ? AND path < ?)`;
      // Blobs are released after the rows go: a checkpoint may keep them (its trigger counts first).
      this.stageReleases(`SELECT blob FROM vfs_nodes WHERE blob IS NOT NULL AND (${where})`, path, lo, hi);
      this.sql.exec(`DELETE FROM vfs_nodes WHERE ${where}`, path, lo, hi);
      this.applyReleases();
      this.changed();
      if (this.linksCache) this.linksCache = null;
      this.adjustUsage(-freed.bytes, -freed.files);
      this.touchDir(parentOf(path));
    });
  }

  /** POSIX rename: replaces a file, or an empty directory with a directory; moves whole subtrees. */
  rename(from: string, to: string): void {
    if (from === to) return;
    if (STORED_ROOTS.includes(from) || STORED_ROOTS.includes(to))
      throw new VfsError("EBUSY", from, `${STORED_ROOTS.includes(from) ? from : to} cannot be moved or replaced`);
    const src = this.mustRow(from);
    if (src.kind === KIND_DIR && isWithin(to, from)) {
      throw new VfsError("EINVAL", to, `cannot move '${from}' into itself`);
    }
    this.transaction(() => {
      this.ensureParent(to, false);
      const dst = this.row(to);
      if (dst) {
        if (src.kind === KIND_DIR && dst.kind !== KIND_DIR) throw new VfsError("ENOTDIR", to);
        if (src.kind !== KIND_DIR && dst.kind === KIND_DIR) throw new VfsError("EISDIR", to);
        this.remove(to, { recursive: false });
      }
      const [lo, hi] = subtreeRange(from);
      // Descendants first, while their keys still sort under `from`.
      this.sql.exec(
        `UPDATE vfs_nodes SET path = ? || substr(path, ?), parent = ? || substr(parent, ?)
           WHERE path >= ? AND path < ?`,
        to,
        from.length + 1,
        to,
        from.length + 1,
        lo,
        hi,
      );
      this.sql.exec(`UPDATE vfs_nodes SET path = ?, parent = ? WHERE path = ?`, to, parentOf(to), from);
      this.changed();
      this.touchDir(parentOf(from));
      this.touchDir(parentOf(to));
    });
  }

  /** Deletes every file; the stored roots stay. */
  eraseAll(): void {
    this.transaction(() => {
      const others = `path NOT IN (${STORED_ROOTS.map(() => "?").join(", ")})`;
      this.stageReleases(`SELECT blob FROM vfs_nodes WHERE ${others}`, ...STORED_ROOTS);
      this.sql.exec(`DELETE FROM vfs_nodes WHERE ${others}`, ...STORED_ROOTS);
      this.applyReleases();
      this.changed();
      this.chunkCache.clear();
      this.usageCache = null;
      this.linksCache = null;
    });
  }
}
