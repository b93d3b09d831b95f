import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isVfsError } from "../../src/vfs/errors";
import { CHUNK_SIZE } from "../../src/vfs/schema";
import { Workspace } from "../../src/vfs/workspace";
import { counting } from "../wasi/helpers";

/** Runs `fn` against a fresh workspace in a real Durable Object's SQLite. */
async function withWorkspace<T>(fn: (ws: Workspace, storage: DurableObjectStorage) => T, quotas = { maxBytes: 1 << 30, maxFiles: 1000 }): Promise<T> {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  return runInDurableObject(stub, (_obj, state) => {
    Workspace.initialize(state.storage);
    return fn(new Workspace(state.storage, quotas), state.storage);
  });
}

const pattern = (n: number, seed = 1) => {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return isVfsError(e) ? e.code : String(e);
  }
  return undefined;
};

describe("workspace", () => {
  it("stores files across chunk boundaries and reads any range back", () =>
    withWorkspace((ws) => {
      const data = pattern(CHUNK_SIZE * 3 + 123);
      ws.writeFile("/workspace/big.bin", data);
      expect(ws.stat("/workspace/big.bin")).toMatchObject({ kind: "file", size: data.length });
      expect(ws.readFile("/workspace/big.bin")).toEqual(data);
      const off = CHUNK_SIZE - 10;
      expect(ws.read("/workspace/big.bin", off, CHUNK_SIZE + 20)).toEqual(data.subarray(off, off + CHUNK_SIZE + 20));
      expect(ws.read("/workspace/big.bin", data.length - 5, 100)).toEqual(data.subarray(data.length - 5));
      const rows = ws.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM vfs_chunks`).one().n;
      expect(rows).toBe(4);
    }));

  it("an editor writing a file from start to end in reused pieces asks SQLite for nothing and stores every byte", () =>
    withWorkspace((ws, storage) => {
      const data = pattern(CHUNK_SIZE * 4 + 777, 3);
      const { proxy, calls } = counting(storage.sql);
      // Program output reaches the editor in 64 KiB pieces, each a view that is reused afterwards.
      const piece = new Uint8Array(64 * 1024);
      Object.defineProperty(ws, "sql", { value: proxy });
      const ed = ws.openEditor("/workspace/out.txt", { create: true, truncate: true });
      for (let at = 0; at < data.length; at += piece.length) {
        const n = Math.min(piece.length, data.length - at);
        piece.set(data.subarray(at, at + n));
        ed.write(at, piece.subarray(0, n));
        piece.fill(0xee);
      }
      ed.commit();
      expect((calls.get("exec") ?? []).filter((q) => q.startsWith("SELECT") && q.includes("vfs_chunks"))).toEqual([]);
      expect(ws.readFile("/workspace/out.txt")).toEqual(data);
    }));

  it.each([
    ["shrink into a chunk, then grow past it", CHUNK_SIZE + 10, CHUNK_SIZE * 3],
    ["shrink to a chunk edge, then grow", CHUNK_SIZE, CHUNK_SIZE * 2 + 5],
    ["shrink to nothing, then grow", 0, CHUNK_SIZE + 1],
  ])("truncate then write past the end (%s) reads zeros in the gap, old bytes nowhere", (_name, cut, end) =>
    withWorkspace((ws) => {
      const p = "/workspace/t";
      ws.writeFile(p, pattern(CHUNK_SIZE * 2 + 100, 9));
      const before = ws.readFile(p);
      const ed = ws.openEditor(p);
      ed.truncate(cut);
      ed.write(end - 1, new Uint8Array([42]));
      ed.commit();
      const want = new Uint8Array(end);
      want.set(before.subarray(0, cut));
      want[end - 1] = 42;
      expect(ws.readFile(p)).toEqual(want);
    }),
  );

  it("edits in place: overwrite, extend sparsely, truncate, and only commit makes it visible", () =>
    withWorkspace((ws) => {
      const p = "/workspace/f";
      ws.writeFile(p, pattern(CHUNK_SIZE * 2, 7));
      const before = ws.readFile(p);
      const ed = ws.openEditor(p);
      ed.write(CHUNK_SIZE - 2, new Uint8Array([1, 2, 3, 4]));
      expect(ws.readFile(p)).toEqual(before); // not visible yet
      ed.write(CHUNK_SIZE * 3, new Uint8Array([9])); // leaves a hole of zeros
      ed.commit();
      const after = ws.readFile(p);
      expect(after.length).toBe(CHUNK_SIZE * 3 + 1);
      expect(after.subarray(CHUNK_SIZE - 2, CHUNK_SIZE + 2)).toEqual(new Uint8Array([1, 2, 3, 4]));
      expect(after.subarray(0, CHUNK_SIZE - 2)).toEqual(before.subarray(0, CHUNK_SIZE - 2));
      expect(after.subarray(CHUNK_SIZE * 2, CHUNK_SIZE * 3).every((b) => b === 0)).toBe(true);
      expect(after[CHUNK_SIZE * 3]).toBe(9);

      const t = ws.openEditor(p);
      t.truncate(10);
      t.truncate(20); // grows back with zeros, not the old bytes
      t.commit();
      const tr = ws.readFile(p);
      expect(tr.subarray(0, 10)).toEqual(before.subarray(0, 10));
      expect(tr.subarray(10).every((b) => b === 0)).toBe(true);
      expect(tr.length).toBe(20);
    }));

  it("keeps the previous content when a write is aborted or interrupted", () =>
    withWorkspace((ws, storage) => {
      ws.writeFile("/workspace/keep.txt", "original");
      const ed = ws.openEditor("/workspace/keep.txt", { truncate: true });
      ed.write(0, pattern(CHUNK_SIZE * 2));
      ed.flush();
      ed.abort();
      expect(ws.readText("/workspace/keep.txt")).toBe("original");
      // An interrupted writer leaves an uncommitted blob; reopening the workspace sweeps it.
      const lost = ws.openEditor("/workspace/keep.txt", { truncate: true });
      lost.write(0, pattern(CHUNK_SIZE + 5));
      lost.flush();
      Workspace.initialize(storage);
      expect(ws.readText("/workspace/keep.txt")).toBe("original");
      const blobs = ws.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM vfs_chunks`).one().n;
      expect(blobs).toBe(1);
    }));

  it("renames files and whole subtrees, and refuses moving a directory into itself", () =>
    withWorkspace((ws) => {
      ws.writeFile("/workspace/a/b/c.txt", "c", { createParents: true });
      ws.writeFile("/workspace/a/d.txt", "d");
      ws.writeFile("/workspace/a0.txt", "sibling"); // sorts right after "a/" keys
      ws.rename("/workspace/a", "/workspace/z");
      expect(ws.stat("/workspace/a")).toBeNull();
      expect(ws.readText("/workspace/z/b/c.txt")).toBe("c");
      expect(ws.readdir("/workspace/z").map((n) => n.path)).toEqual(["/workspace/z/b", "/workspace/z/d.txt"]);
      expect(ws.readText("/workspace/a0.txt")).toBe("sibling");
      expect(code(() => ws.rename("/workspace/z", "/workspace/z/b/inner"))).toBe("EINVAL");
      ws.writeFile("/workspace/other.txt", "o");
      ws.rename("/workspace/other.txt", "/workspace/z/d.txt");
      expect(ws.readText("/workspace/z/d.txt")).toBe("o");
      expect(code(() => ws.rename("/workspace/z/d.txt", "/workspace/z/b"))).toBe("EISDIR");
    }));

  it("removes recursively only when asked, and raises POSIX errors", () =>
    withWorkspace((ws) => {
      ws.writeFile("/workspace/d/x", "1", { createParents: true });
      expect(code(() => ws.remove("/workspace/d"))).toBe("ENOTEMPTY");
      expect(code(() => ws.readFile("/workspace/nope"))).toBe("ENOENT");
      expect(code(() => ws.readFile("/workspace/d"))).toBe("EISDIR");
      expect(code(() => ws.writeFile("/workspace/d/x/y", "2"))).toBe("ENOTDIR");
      expect(code(() => ws.writeFile("/workspace/new/y", "2"))).toBe("ENOENT");
      expect(code(() => ws.mkdir("/workspace/d"))).toBe("EEXIST");
      expect(code(() => ws.remove("/workspace"))).toBe("EBUSY");
      ws.remove("/workspace/d", { recursive: true });
      expect(ws.walk("/workspace")).toEqual([]);
      expect(ws.usage()).toEqual({ bytes: 0, files: 0 });
      expect(ws.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM vfs_chunks`).one().n).toBe(0);
    }));

  it("enforces byte and file quotas with clear errors, leaving old content", () =>
    withWorkspace(
      (ws) => {
        ws.writeFile("/workspace/a", pattern(600));
        let err: unknown;
        try {
          ws.writeFile("/workspace/b", pattern(500));
        } catch (e) {
          err = e;
        }
        expect(isVfsError(err, "EDQUOT")).toBe(true);
        expect((err as Error).message).toContain("TOOLSHED_QUOTA_BYTES");
        expect(ws.stat("/workspace/b")).toBeNull();
        ws.writeFile("/workspace/a", pattern(900)); // replacing counts only the growth
        expect(ws.usage().bytes).toBe(900);
        ws.writeFile("/workspace/c", "");
        ws.mkdir("/workspace/d");
        expect(code(() => ws.writeFile("/workspace/e", ""))).toBe("EDQUOT");
      },
      { maxBytes: 1000, maxFiles: 3 },
    ));

  it("tracks mtime and keeps inode numbers across renames", () =>
    withWorkspace((ws) => {
      const a = ws.writeFile("/workspace/m.txt", "x");
      ws.setMtime("/workspace/m.txt", 1_000_000);
      ws.rename("/workspace/m.txt", "/workspace/n.txt");
      const b = ws.mustStat("/workspace/n.txt");
      expect(b.ino).toBe(a.ino);
      expect(b.mtimeMs).toBe(1_000_000);
    }));
});
