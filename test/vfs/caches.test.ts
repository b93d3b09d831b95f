import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ChunkCache } from "../../src/vfs/chunk-cache";
import { CHUNK_SIZE } from "../../src/vfs/schema";
import { Workspace, type SqlHost } from "../../src/vfs/workspace";

/**
 * The workspace remembers rows, listings and chunks between changes. These tests check that
 * what it remembers never outlives the change that makes it wrong, and that it saves queries.
 */
async function withCountedWorkspace<T>(fn: (ws: Workspace, queries: () => string[]) => T): Promise<T> {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  return runInDurableObject(stub, (_obj, state) => {
    Workspace.initialize(state.storage);
    let seen: string[] = [];
    const sql = state.storage.sql;
    const counted = new Proxy(sql, {
      get(target, key) {
        if (key === "exec") {
          return (query: string, ...args: SqlStorageValue[]) => {
            seen.push(query.replace(/\s+/g, " ").trim());
            return target.exec(query, ...args);
          };
        }
        const v = Reflect.get(target, key);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const host: SqlHost = { sql: counted, transactionSync: (f) => state.storage.transactionSync(f) };
    const ws = new Workspace(host, { maxBytes: 1 << 30, maxFiles: 1000 });
    return fn(ws, () => {
      const out = seen;
      seen = [];
      return out;
    });
  });
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("workspace caches", () => {
  it("serves a re-read file and a re-listed directory without SQL", () =>
    withCountedWorkspace((ws, queries) => {
      const big = new Uint8Array(CHUNK_SIZE * 2 + 10).fill(7);
      ws.writeFile("/workspace/big.bin", big);
      ws.mkdir("/workspace/d");
      for (const n of ["a", "b", "c"]) ws.writeFile(`/workspace/d/${n}`, n);
      queries();
      expect(ws.readFile("/workspace/big.bin")).toEqual(big);
      expect(queries().length).toBeGreaterThan(0);
      expect(ws.readFile("/workspace/big.bin")).toEqual(big);
      expect(ws.read("/workspace/big.bin", CHUNK_SIZE - 2, 4)).toEqual(new Uint8Array(4).fill(7));
      expect(queries()).toEqual([]);
      expect(ws.readdir("/workspace/d").map((n) => n.path)).toEqual(["/workspace/d/a", "/workspace/d/b", "/workspace/d/c"]);
      queries();
      // A listing answers the stats of its entries, and a second listing is remembered.
      expect(ws.stat("/workspace/d/b")?.size).toBe(1);
      expect(ws.readdir("/workspace/d")).toHaveLength(3);
      expect(queries()).toEqual([]);
    }));

  it("reads chunk by chunk, zeros where a sparse file stores nothing, the same when cached", () =>
    withCountedWorkspace((ws) => {
      const ed = ws.openEditor("/workspace/sparse", { create: true });
      ed.write(CHUNK_SIZE * 2 + 5, new TextEncoder().encode("x"));
      ed.commit();
      for (let pass = 0; pass < 2; pass++) {
        expect(ws.readChunk("/workspace/sparse", 0)).toEqual(new Uint8Array(CHUNK_SIZE));
        const last = ws.readChunk("/workspace/sparse", 2);
        expect([...last]).toEqual([0, 0, 0, 0, 0, 120]);
        expect(ws.readChunk("/workspace/sparse", 3)).toHaveLength(0);
      }
    }));

  const changes: [string, (ws: Workspace) => void, (ws: Workspace) => void][] = [
    ["rewrite", (ws) => ws.writeFile("/workspace/d/a", "new"), (ws) => expect(text(ws.readFile("/workspace/d/a"))).toBe("new")],
    [
      "append via editor",
      (ws) => {
        const ed = ws.openEditor("/workspace/d/a");
        ed.append(new TextEncoder().encode("+"));
        ed.commit();
      },
      (ws) => expect(text(ws.readFile("/workspace/d/a"))).toBe("a+"),
    ],
    [
      "remove",
      (ws) => ws.remove("/workspace/d/a"),
      (ws) => {
        expect(ws.stat("/workspace/d/a")).toBeNull();
        expect(ws.readdir("/workspace/d").map((n) => n.path)).toEqual(["/workspace/d/b"]);
      },
    ],
    [
      "rename",
      (ws) => ws.rename("/workspace/d/a", "/workspace/d/z"),
      (ws) => {
        expect(ws.stat("/workspace/d/a")).toBeNull();
        expect(text(ws.readFile("/workspace/d/z"))).toBe("a");
        expect(ws.readdir("/workspace/d").map((n) => n.path)).toEqual(["/workspace/d/b", "/workspace/d/z"]);
      },
    ],
    [
      "rename of the directory",
      (ws) => ws.rename("/workspace/d", "/workspace/e"),
      (ws) => {
        expect(ws.stat("/workspace/d/a")).toBeNull();
        expect(text(ws.readFile("/workspace/e/a"))).toBe("a");
      },
    ],
    ["mkdir", (ws) => ws.mkdir("/workspace/d/sub"), (ws) => expect(ws.readdir("/workspace/d").map((n) => n.kind)).toEqual(["file", "file", "dir"])],
    ["setMtime", (ws) => ws.setMtime("/workspace/d/a", 1234), (ws) => expect(ws.stat("/workspace/d/a")?.mtimeMs).toBe(1234)],
    [
      "eraseAll",
      (ws) => ws.eraseAll(),
      (ws) => {
        expect(ws.stat("/workspace/d")).toBeNull();
        expect(ws.readdir("/workspace")).toEqual([]);
      },
    ],
  ];

  it.each(changes)("forgets what a %s makes stale", (_name, change, check) =>
    withCountedWorkspace((ws) => {
      ws.mkdir("/workspace/d");
      ws.writeFile("/workspace/d/a", "a");
      ws.writeFile("/workspace/d/b", "b");
      // Fill every cache first: listing, rows, chunks.
      ws.readdir("/workspace/d");
      ws.readdir("/workspace");
      expect(text(ws.readFile("/workspace/d/a"))).toBe("a");
      expect(ws.stat("/workspace/d/missing")).toBeNull();
      change(ws);
      check(ws);
    }),
  );

  it("forgets rows and blobs a rolled-back transaction created", () =>
    withCountedWorkspace((ws) => {
      ws.writeFile("/workspace/keep", "old");
      expect(() =>
        ws.transaction(() => {
          ws.writeFile("/workspace/ghost", "boo");
          ws.writeFile("/workspace/keep", "newer");
          // Read inside the transaction so the caches hold what is about to vanish.
          expect(text(ws.readFile("/workspace/ghost"))).toBe("boo");
          expect(text(ws.readFile("/workspace/keep"))).toBe("newer");
          throw new Error("abort");
        }),
      ).toThrow("abort");
      expect(ws.stat("/workspace/ghost")).toBeNull();
      expect(text(ws.readFile("/workspace/keep"))).toBe("old");
      expect(ws.usage()).toEqual({ bytes: 3, files: 1 });
      // A blob id the rollback freed may be handed out again; its new bytes must be what reads see.
      ws.writeFile("/workspace/next", "fresh");
      expect(text(ws.readFile("/workspace/next"))).toBe("fresh");
    }));
});

describe("ChunkCache", () => {
  it("keeps the most recently used chunks within its byte budget", () => {
    const c = new ChunkCache(10);
    c.put(1, 0, new Uint8Array(4));
    c.put(1, 1, new Uint8Array(4));
    expect(c.get(1, 0)).toBeDefined(); // now the most recent
    c.put(2, 0, new Uint8Array(4)); // 12 bytes: the least recent (1:1) goes
    expect(c.get(1, 1)).toBeUndefined();
    expect(c.get(1, 0)).toBeDefined();
    expect(c.size).toEqual({ entries: 2, bytes: 8 });
    c.put(3, 0, new Uint8Array(11)); // larger than the whole budget: not kept
    expect(c.get(3, 0)).toBeUndefined();
    c.dropBlob(1);
    expect(c.size).toEqual({ entries: 1, bytes: 4 });
    c.clear();
    expect(c.size).toEqual({ entries: 0, bytes: 0 });
  });
});
