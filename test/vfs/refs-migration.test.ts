import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { initializeCheckpoints } from "../../src/checkpoints/schema";
import { Checkpoints } from "../../src/checkpoints/store";
import { checkConsistency } from "../../src/vfs/consistency";
import { Workspace } from "../../src/vfs/workspace";
import { oldNodeTable } from "./old-schema";

describe("schema migration for shared content (blob reference counts)", () => {
  it("keeps a session made before checkpoints: each blob counts its one owner, and history can share it", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      oldNodeTable(sql);
      // The blob table as it was: no refs column; one committed blob owned by one file.
      sql.exec(`CREATE TABLE vfs_blobs (id INTEGER PRIMARY KEY AUTOINCREMENT, committed INTEGER NOT NULL DEFAULT 0)`);
      sql.exec(`CREATE TABLE vfs_chunks (blob INTEGER NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (blob, idx)) WITHOUT ROWID`);
      sql.exec(`INSERT INTO vfs_blobs (id, committed) VALUES (7, 1)`);
      sql.exec(`INSERT INTO vfs_chunks (blob, idx, data) VALUES (7, 0, ?)`, new TextEncoder().encode("old data").buffer);
      sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime, blob) VALUES ('/workspace/f', '/workspace', 1, 8, 1, 7)`);
      Workspace.initialize(state.storage);
      Workspace.initialize(state.storage); // idempotent
      initializeCheckpoints(state.storage);
      expect(sql.exec(`SELECT refs FROM vfs_blobs WHERE id = 7`).one().refs).toBe(1);
      expect(checkConsistency(sql)).toEqual([]);
      const ws = new Workspace(state.storage, { maxBytes: 1 << 20, maxFiles: 100 });
      const cps = new Checkpoints(ws);
      const cp = cps.create("before");
      ws.writeFile("/workspace/f", "new data");
      // The old content lives on in the checkpoint, counted once.
      expect(sql.exec(`SELECT refs FROM vfs_blobs WHERE id = 7`).one().refs).toBe(1);
      expect(checkConsistency(sql)).toEqual([]);
      cps.restore(cp.id);
      expect(ws.readText("/workspace/f")).toBe("old data");
      expect(sql.exec(`SELECT refs FROM vfs_blobs WHERE id = 7`).one().refs).toBe(2);
      expect(checkConsistency(sql)).toEqual([]);
    });
  });
});
