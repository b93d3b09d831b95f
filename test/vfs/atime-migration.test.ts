import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { oldNodeTable } from "./old-schema";
import { RELATIME_MS, Workspace } from "../../src/vfs/workspace";

describe("access times", () => {
  it("migrates a session made before them: atime reads as mtime until set", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      oldNodeTable(sql);
      sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime) VALUES ('/workspace/old', '/workspace', 2, 0, 5000)`);
      Workspace.initialize(state.storage);
      Workspace.initialize(state.storage); // idempotent
      const ws = new Workspace(state.storage, { maxBytes: 1 << 20, maxFiles: 100 });
      expect(ws.stat("/workspace/old")).toMatchObject({ mtimeMs: 5000, atimeMs: 5000 });
      ws.setTimes("/workspace/old", { atimeMs: 7000 });
      expect(ws.stat("/workspace/old")).toMatchObject({ mtimeMs: 5000, atimeMs: 7000 });
    });
  });

  it("moves atime on reads by the relatime rule, with one write per write at most", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    await runInDurableObject(stub, (_obj, state) => {
      Workspace.initialize(state.storage);
      let now = 1_000_000;
      // Counts the UPDATE statements the workspace sends, to show which reads cost a write.
      let updates = 0;
      const real = state.storage.sql;
      const sql = new Proxy(real, {
        get: (t, k) => (k === "exec" ? (q: string, ...a: SqlStorageValue[]) => (q.startsWith("UPDATE") && updates++, t.exec(q, ...a)) : Reflect.get(t, k)),
      });
      const host = { sql, transactionSync: <T>(fn: () => T) => state.storage.transactionSync(fn) };
      const ws = new Workspace(host, { maxBytes: 1 << 20, maxFiles: 100 }, () => now);
      ws.writeFile("/workspace/f", "x");
      expect(ws.stat("/workspace/f")).toMatchObject({ mtimeMs: 1_000_000, atimeMs: 1_000_000 });
      now += 10;
      updates = 0;
      ws.noteRead("/workspace/f"); // atime <= mtime: moves
      expect(ws.stat("/workspace/f")?.atimeMs).toBe(1_000_010);
      expect(updates).toBe(1);
      const gen = ws.generation;
      for (let i = 0; i < 100; i++) {
        now += 10;
        ws.noteRead("/workspace/f"); // atime after mtime and fresh: stays, nothing written
      }
      expect(ws.stat("/workspace/f")?.atimeMs).toBe(1_000_010);
      expect([updates, ws.generation]).toEqual([1, gen]);
      now += RELATIME_MS;
      ws.noteRead("/workspace/f"); // a day old: moves
      expect(ws.stat("/workspace/f")?.atimeMs).toBe(now);
      // A write moves mtime only; the next read then moves atime again.
      const readAt = now;
      now += 10;
      ws.writeFile("/workspace/f", "y");
      expect(ws.stat("/workspace/f")).toMatchObject({ mtimeMs: now, atimeMs: readAt });
      now += 10;
      ws.noteRead("/workspace/f");
      expect(ws.stat("/workspace/f")?.atimeMs).toBe(now);
      // touch -m keeps atime, touch -a keeps mtime; touch sets both.
      ws.setTimes("/workspace/f", { mtimeMs: 5 });
      expect(ws.stat("/workspace/f")).toMatchObject({ mtimeMs: 5, atimeMs: now });
      ws.setTimes("/workspace/f", { atimeMs: 7 });
      expect(ws.stat("/workspace/f")).toMatchObject({ mtimeMs: 5, atimeMs: 7 });
      ws.touch("/workspace/f", 9);
      expect(ws.stat("/workspace/f")).toMatchObject({ mtimeMs: 9, atimeMs: 9 });
    });
  });
});
