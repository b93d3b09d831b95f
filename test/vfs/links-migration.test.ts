import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { oldNodeTable } from "./old-schema";
import { Workspace } from "../../src/vfs/workspace";

describe("schema migration for symbolic links", () => {
  it("keeps a session made before links working, and lets it make links", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      oldNodeTable(sql);
      sql.exec(`INSERT INTO vfs_nodes (path, parent, kind, size, mtime, mode) VALUES ('/workspace/old', '/workspace', 2, 0, 1, 448)`);
      Workspace.initialize(state.storage);
      Workspace.initialize(state.storage); // idempotent
      const ws = new Workspace(state.storage, { maxBytes: 1 << 20, maxFiles: 100 });
      expect(ws.stat("/workspace/old")).toMatchObject({ kind: "dir", mode: 0o700 });
      expect(ws.stat("/workspace/old")?.target).toBeUndefined();
      expect(ws.hasLinks()).toBe(false);
      ws.writeFile("/workspace/old/f", "data");
      const link = ws.symlink("old/f", "/workspace/l");
      expect(link).toMatchObject({ kind: "symlink", target: "old/f", size: 5, mode: 0o777 });
      expect(ws.hasLinks()).toBe(true);
      expect(ws.readdir("/workspace").map((n) => [n.path, n.kind, n.target])).toEqual([
        ["/workspace/l", "symlink", "old/f"],
        ["/workspace/old", "dir", undefined],
      ]);
      expect(() => ws.readFile("/workspace/l")).toThrow(/symbolic link/);
      expect(() => ws.symlink("x", "/workspace/l")).toThrow(/File exists/);
      ws.rename("/workspace/l", "/workspace/old/l2");
      expect(ws.linkTarget("/workspace/old/l2")).toBe("old/f");
      ws.remove("/workspace/old/l2");
      expect(ws.hasLinks()).toBe(false);
      expect(ws.readText("/workspace/old/f")).toBe("data");
    });
  });
});
