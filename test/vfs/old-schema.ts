/** The node table as sessions made before access times and links had it (modes already there), with /workspace in it. */
export function oldNodeTable(sql: SqlStorage): void {
  sql.exec(`DROP TABLE IF EXISTS vfs_nodes`);
  sql.exec(
    `CREATE TABLE vfs_nodes (path TEXT PRIMARY KEY, parent TEXT NOT NULL, kind INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0, mtime INTEGER NOT NULL, blob INTEGER, mode INTEGER)`,
  );
  sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime) VALUES ('/workspace', '', 2, 0, 1)`);
}
