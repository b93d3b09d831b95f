/**
 * The workspace's tables. Nodes are keyed by absolute path (one index lookup per stat, one
 * UPDATE to move a subtree); file bytes live in `vfs_chunks` under a blob id so that a
 * rewrite builds a new blob beside the old one and swaps it in atomically.
 *
 * A committed blob never changes, so several rows may share it: `refs` counts the live nodes,
 * checkpoint rows (src/checkpoints/) and outbox entries pointing at it, and the blob and its
 * chunks go when the count reaches 0. `vfs_release` is scratch space for releasing many at once.
 *
 * `vfs_chunks` is an ordinary rowid table with its key in a separate index, not WITHOUT ROWID:
 * a chunk (256 KiB) spills over about 64 overflow pages, and in a WITHOUT ROWID table (an index
 * b-tree) SQLite reads whole records, overflow included, to compare keys while seeking and to
 * take a column. Measured in workerd on 200 MB: 1.2 s of CPU to read every chunk once WITHOUT
 * ROWID, 0.17 s as a rowid table (docs/performance.md). Workspace.initialize converts old tables.
 */
export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS vfs_nodes (
     path   TEXT PRIMARY KEY,
     parent TEXT NOT NULL,
     kind   INTEGER NOT NULL,
     size   INTEGER NOT NULL DEFAULT 0,
     mtime  INTEGER NOT NULL,
     blob   INTEGER,
     mode   INTEGER
   )`,
  `CREATE INDEX IF NOT EXISTS vfs_nodes_by_parent ON vfs_nodes(parent)`,
  `CREATE TABLE IF NOT EXISTS vfs_blobs (
     id        INTEGER PRIMARY KEY AUTOINCREMENT,
     committed INTEGER NOT NULL DEFAULT 0,
     refs      INTEGER NOT NULL DEFAULT 1
   )`,
  `CREATE TABLE IF NOT EXISTS vfs_release (blob INTEGER PRIMARY KEY, n INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS vfs_chunks (
     blob INTEGER NOT NULL,
     idx  INTEGER NOT NULL,
     data BLOB NOT NULL,
     PRIMARY KEY (blob, idx)
   )`,
];

export const KIND_FILE = 1;
export const KIND_DIR = 2;
/** A symbolic link: its target text is in the `target` column (added by Workspace.initialize). */
export const KIND_SYMLINK = 3;

/** Bytes per stored chunk. SQLite rows are capped at 2 MB; 256 KiB keeps random access cheap. */
export const CHUNK_SIZE = 256 * 1024;

/**
 * Chunks a sequential reader fetches beyond the one it asked for, in the same query (1 MiB in
 * all, held in the workspace's chunk cache until read).
 */
export const READ_AHEAD_CHUNKS = 3;

/** Permission bits a node has when its row stores none (rows from before modes, and the usual case). */
export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_DIR_MODE = 0o755;
