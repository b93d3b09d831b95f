import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkConsistency } from "../../src/vfs/consistency";
import { CHUNK_SIZE } from "../../src/vfs/schema";
import { Workspace } from "../../src/vfs/workspace";
import { oldNodeTable } from "./old-schema";

describe("schema migration of vfs_chunks to a rowid table", () => {
  it("copies a WITHOUT ROWID table's chunks into the new table, once, and the file reads back whole", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      oldNodeTable(sql);
      sql.exec(`CREATE TABLE vfs_blobs (id INTEGER PRIMARY KEY AUTOINCREMENT, committed INTEGER NOT NULL DEFAULT 0, refs INTEGER NOT NULL DEFAULT 1)`);
      sql.exec(`CREATE TABLE vfs_chunks (blob INTEGER NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (blob, idx)) WITHOUT ROWID`);
      // A file of two and a half chunks, each chunk a different byte.
      const size = CHUNK_SIZE * 2 + 100;
      sql.exec(`INSERT INTO vfs_blobs (id, committed) VALUES (3, 1)`);
      for (let i = 0; i < 3; i++)
        sql.exec(`INSERT INTO vfs_chunks (blob, idx, data) VALUES (3, ?, ?)`, i, new Uint8Array(Math.min(CHUNK_SIZE, size - i * CHUNK_SIZE)).fill(65 + i).buffer);
      sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime, blob) VALUES ('/workspace/f', '/workspace', 1, ?, 1, 3)`, size);
      Workspace.initialize(state.storage);
      Workspace.initialize(state.storage); // idempotent: the second run finds the rowid table
      expect(sql.exec(`SELECT COUNT(*) AS n FROM vfs_chunks WHERE rowid > 0`).one().n).toBe(3);
      expect(sql.exec(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'vfs_chunks_old'`).one().n).toBe(0);
      expect(checkConsistency(sql)).toEqual([]);
      const ws = new Workspace(state.storage, { maxBytes: 1 << 30, maxFiles: 100 });
      const bytes = ws.readFile("/workspace/f");
      expect(bytes.length).toBe(size);
      expect([bytes[0], bytes[CHUNK_SIZE], bytes[size - 1]]).toEqual([65, 66, 67]);
      // Sequential chunk reads with read-ahead give the same bytes as whole reads.
      const parts = [0, 1, 2].map((i) => ws.readChunk("/workspace/f", i, 3));
      expect(parts.map((p) => p.length)).toEqual([CHUNK_SIZE, CHUNK_SIZE, 100]);
      expect(ws.readChunk("/workspace/f", 3, 3).length).toBe(0);
      ws.writeFile("/workspace/g", "new");
      expect(ws.readText("/workspace/g")).toBe("new");
    });
  });
});
