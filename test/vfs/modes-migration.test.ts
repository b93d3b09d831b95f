import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../src/vfs/workspace";

describe("schema migration for file modes and the stored roots", () => {
  it("keeps a session made before modes, /tmp and /usr/local/bin working", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      // The tables as they were before this change, with one file in them.
      sql.exec(`DROP TABLE IF EXISTS vfs_nodes`);
      sql.exec(
        `CREATE TABLE vfs_nodes (path TEXT PRIMARY KEY, parent TEXT NOT NULL, kind INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0, mtime INTEGER NOT NULL, blob INTEGER)`,
      );
      sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime) VALUES ('/workspace', '', 2, 0, 1)`);
      sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime) VALUES ('/workspace/old', '/workspace', 2, 0, 1)`);
      Workspace.initialize(state.storage);
      Workspace.initialize(state.storage); // idempotent
      const ws = new Workspace(state.storage, { maxBytes: 1 << 20, maxFiles: 100 });
      expect(ws.stat("/workspace/old")?.mode).toBe(0o755);
      expect(ws.stat("/tmp")?.kind).toBe("dir");
      expect(ws.stat("/usr/local/bin")?.kind).toBe("dir");
      expect(ws.usage().files).toBe(1);
      ws.writeFile("/workspace/old/f", "x");
      expect(ws.stat("/workspace/old/f")?.mode).toBe(0o644);
      ws.setMode("/workspace/old/f", 0o750);
      ws.writeFile("/workspace/old/f", "replaced");
      expect(ws.stat("/workspace/old/f")?.mode).toBe(0o750);
      ws.eraseAll();
      expect([ws.stat("/tmp")?.kind, ws.stat("/workspace/old"), ws.usage().files]).toEqual(["dir", null, 0]);
    });
  });
});
