import type { SqlHost } from "../vfs/workspace";

/**
 * Checkpoints are copy-on-write at the level of tree rows: taking one writes a single row.
 * From then on, the first change to each path (in `vfs_nodes`) copies that path's previous row
 * into `cp_delta` under the newest checkpoint (`present = 0` when the path did not exist yet).
 * So checkpoint K's tree is the live tree with, for every path that changed since, the oldest
 * saved row at or after K put back. A saved row keeps its file's blob alive by a reference
 * (`vfs_blobs.refs`); no file content is ever copied.
 *
 * The copying is done by SQLite triggers, so every writer of `vfs_nodes` (the workspace, a
 * restore, a migration) is covered without being told, in the same transaction as its change.
 */
const CHECKPOINT_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS cp_checkpoints (
     id      INTEGER PRIMARY KEY AUTOINCREMENT,
     label   TEXT,
     created INTEGER NOT NULL,
     kind    TEXT NOT NULL,
     files   INTEGER NOT NULL,
     size    INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS cp_delta (
     path    TEXT NOT NULL,
     cp      INTEGER NOT NULL,
     present INTEGER NOT NULL,
     parent  TEXT,
     kind    INTEGER,
     size    INTEGER,
     mtime   INTEGER,
     atime   INTEGER,
     mode    INTEGER,
     blob    INTEGER,
     target  TEXT,
     PRIMARY KEY (path, cp)
   ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS cp_delta_by_cp ON cp_delta(cp)`,
  // Scratch rows of one restore (cleared in its transaction).
  `CREATE TABLE IF NOT EXISTS cp_scratch (
     path    TEXT PRIMARY KEY,
     present INTEGER NOT NULL,
     parent  TEXT,
     kind    INTEGER,
     size    INTEGER,
     mtime   INTEGER,
     atime   INTEGER,
     mode    INTEGER,
     blob    INTEGER,
     target  TEXT
   )`,
  // Totals kept across prunes: what retention has freed so far.
  `CREATE TABLE IF NOT EXISTS cp_stats (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
  ...triggers(),
];

function triggers(): string[] {
  const epoch = `(SELECT MAX(id) FROM cp_checkpoints)`;
  const when = `WHEN EXISTS (SELECT 1 FROM cp_checkpoints)`;
  // The row as it was, saved once per path per checkpoint; its blob gains the saved row's reference.
  const saveOld = `
    UPDATE vfs_blobs SET refs = refs + 1 WHERE id = OLD.blob
      AND NOT EXISTS (SELECT 1 FROM cp_delta WHERE path = OLD.path AND cp = ${epoch});
    INSERT OR IGNORE INTO cp_delta (path, cp, present, parent, kind, size, mtime, atime, mode, blob, target)
      VALUES (OLD.path, ${epoch}, 1, OLD.parent, OLD.kind, OLD.size, OLD.mtime, OLD.atime, OLD.mode, OLD.blob, OLD.target);`;
  const markNew = `INSERT OR IGNORE INTO cp_delta (path, cp, present) VALUES (NEW.path, ${epoch}, 0);`;
  return [
    `CREATE TRIGGER IF NOT EXISTS cp_on_insert AFTER INSERT ON vfs_nodes ${when} BEGIN ${markNew} END`,
    `CREATE TRIGGER IF NOT EXISTS cp_on_delete AFTER DELETE ON vfs_nodes ${when} BEGIN ${saveOld} END`,
    `CREATE TRIGGER IF NOT EXISTS cp_on_update AFTER UPDATE ON vfs_nodes ${when} BEGIN ${saveOld} ${markNew} END`,
  ];
}

/** Creates the tables and triggers (idempotent); the log gains its link to checkpoints. */
export function initializeCheckpoints(host: SqlHost): void {
  for (const stmt of CHECKPOINT_SCHEMA) host.sql.exec(stmt);
  host.sql.exec(`DELETE FROM cp_scratch`);
  const hasLog = host.sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'`).toArray().length > 0;
  if (hasLog) {
    const columns = host.sql.exec<{ name: string }>(`PRAGMA table_info(tool_calls)`).toArray();
    if (!columns.some((c) => c.name === "checkpoint")) host.sql.exec(`ALTER TABLE tool_calls ADD COLUMN checkpoint INTEGER`);
  }
}

/** Columns of a tree row, in the order the stores use. */
export const ROW_COLUMNS = "path, parent, kind, size, mtime, atime, mode, blob, target";
