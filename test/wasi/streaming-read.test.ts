// Reading files bigger than the session's chunk cache: the fd streams them through a window of
// its own (WorkspaceFileFd.readAt), freeing each chunk once read. Every byte must still come back
// right whatever the read pattern, and the window must stay within its budget.
import { wasi } from "@bjorn3/browser_wasi_shim";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits";
import { CHUNK_SIZE } from "../../src/vfs/schema";
import type { Workspace } from "../../src/vfs/workspace";
import { WasiFsContext } from "../../src/wasi/fs/context";
import { WorkspaceDirFd } from "../../src/wasi/fs/dir-fd";
import type { WorkspaceFileFd } from "../../src/wasi/fs/file-fd";
import { programFor } from "../../src/wasi/programs";
import { counting, run, sameBytes, withFs } from "./helpers";

/** Bigger than the chunk cache, and not a whole number of chunks. */
const SIZE = LIMITS.chunkCacheBytes + 3 * CHUNK_SIZE + 12_345;

/** Lines of varying length, so chunk edges fall mid-line. */
function content(size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (let i = 0; at < size; i++) {
    const line = new TextEncoder().encode(`${i} ${"x".repeat(i % 97)}\n`);
    out.set(line.subarray(0, size - at), at);
    at += line.length;
  }
  return out;
}

async function withBig(fn: (o: { ctx: WasiFsContext; root: WorkspaceDirFd; data: Uint8Array; ws: Workspace }) => void | Promise<void>): Promise<void> {
  await withFs(async (fs, ws) => {
    const data = content(SIZE);
    ws.writeFile("/workspace/big.txt", data);
    ws.chunkCache.clear();
    const ctx = new WasiFsContext(fs);
    await fn({ ctx, root: new WorkspaceDirFd(ctx, "/workspace", "/workspace"), data, ws });
  });
}

const openRead = (root: WorkspaceDirFd, path: string) => {
  const { ret, fd_obj } = root.path_open(0, path, 0, BigInt(wasi.RIGHTS_FD_READ), 0n, 0);
  expect(ret).toBe(wasi.ERRNO_SUCCESS);
  return fd_obj as WorkspaceFileFd;
};

/** Reads to the end in `block`-byte reads, copying each answer at once (as fd_read does). */
function readAll(fd: WorkspaceFileFd, block: number, onRead?: () => void): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { ret, data } = fd.fd_read(block);
    expect(ret).toBe(wasi.ERRNO_SUCCESS);
    if (data.length === 0) break;
    parts.push(data.slice());
    total += data.length;
    onRead?.();
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe("streaming reads of a file bigger than the chunk cache", () => {
  it.each([
    ["8 KiB reads", 8192],
    ["64 KiB reads", 64 * 1024],
    ["whole-chunk reads", CHUNK_SIZE],
    ["reads bigger than a chunk", CHUNK_SIZE * 3 + 7],
    ["odd-sized reads", 65_537],
  ])("%s give every byte, hold at most a window, and leave the chunk cache alone", (_n, block) =>
    withBig(({ ctx, root, data, ws }) => {
      const fd = openRead(root, "big.txt");
      let most = 0;
      const got = readAll(fd, block, () => {
        most = Math.max(most, ctx.readAheadHeld);
      });
      expect(got.length).toBe(data.length);
      expect(sameBytes(got, data)).toBe(true);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(LIMITS.readAheadBytes);
      expect(ws.chunkCache.size.bytes).toBe(0);
      fd.fd_close();
      expect(ctx.readAheadHeld).toBe(0);
    }),
  );

  it("answers seeks back, preads anywhere and reads across chunk edges with the right bytes", () =>
    withBig(({ root, data }) => {
      const fd = openRead(root, "big.txt");
      readAll(fd, 1 << 20); // the whole file once: the window has moved past everything
      const offsets = [0, 5, CHUNK_SIZE - 3, CHUNK_SIZE * 40 + 1, SIZE - 10, CHUNK_SIZE * 2, 17, SIZE - CHUNK_SIZE - 1];
      for (const off of offsets) {
        const want = data.subarray(off, off + 100);
        const { data: got } = fd.fd_pread(100, BigInt(off));
        // A read crossing a chunk's end may be short; what comes is right.
        expect(sameBytes(got, want.subarray(0, got.length))).toBe(true);
        expect(got.length).toBeGreaterThan(0);
      }
      expect(fd.fd_seek(BigInt(CHUNK_SIZE * 10 + 11), wasi.WHENCE_SET).ret).toBe(0);
      expect(sameBytes(readAll(fd, 4096), data.subarray(CHUNK_SIZE * 10 + 11))).toBe(true);
      expect(fd.fd_read(10).data.length).toBe(0);
      fd.fd_close();
    }));

  it("keeps two files' windows within the program's read-ahead budget", () =>
    withBig(({ ctx, root, data, ws }) => {
      ws.writeFile("/workspace/big2.txt", data);
      const fds = [openRead(root, "big.txt"), openRead(root, "big2.txt"), openRead(root, "big.txt")];
      const outs = fds.map(() => [] as Uint8Array[]);
      let done = 0;
      let most = 0;
      while (done < fds.length) {
        done = 0;
        fds.forEach((fd, i) => {
          const { data: d } = fd.fd_read(100_000);
          if (d.length === 0) done++;
          else outs[i]!.push(d.slice());
          most = Math.max(most, ctx.readAheadHeld);
        });
      }
      expect(most).toBeLessThanOrEqual(LIMITS.readAheadTotalBytes);
      for (const parts of outs) {
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
        expect(sameBytes(all, data)).toBe(true);
      }
      for (const fd of fds) fd.fd_close();
      expect(ctx.readAheadHeld).toBe(0);
    }));

  it("reads many files side by side (sort merging its runs) fetching each chunk once", () =>
    withFs((fs, ws) => {
      // 40 files of 4 chunks, 40 MiB together: more than the chunk cache, though each fits it.
      const files = Array.from({ length: 40 }, (_, i) => content(4 * CHUNK_SIZE - i));
      files.forEach((data, i) => ws.writeFile(`/workspace/run${i}`, data));
      ws.chunkCache.clear();
      const { proxy, calls } = counting(ws.sql);
      Object.defineProperty(ws, "sql", { value: proxy });
      const ctx = new WasiFsContext(fs);
      const root = new WorkspaceDirFd(ctx, "/workspace", "/workspace");
      const fds = files.map((_, i) => openRead(root, `run${i}`));
      const outs = fds.map(() => [] as Uint8Array[]);
      for (let done = 0; done < fds.length; ) {
        done = 0;
        fds.forEach((fd, i) => {
          const { data } = fd.fd_read(64 * 1024);
          if (data.length === 0) done++;
          else outs[i]!.push(data.slice());
          expect(ctx.cacheReadBytes).toBeLessThanOrEqual(LIMITS.chunkCacheBytes);
        });
      }
      outs.forEach((parts, i) => {
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
        expect(sameBytes(all, files[i]!)).toBe(true);
      });
      // Through the cache alone, each file's read-ahead was evicted by the others' before use and
      // nearly every 64 KiB read fetched chunks again (4 chunks for each).
      const fetches = (calls.get("exec") ?? []).filter((q) => q.includes("FROM vfs_chunks WHERE blob = ? AND idx >=")).length;
      expect(fetches).toBeLessThanOrEqual(3 * files.length);
      for (const fd of fds) fd.fd_close();
      expect(ctx.cacheReadBytes).toBe(0);
      expect(ctx.readAheadHeld).toBe(0);
    }));

  it("reads a sparse big file's holes as zeros", () =>
    withBig(({ root, ws }) => {
      const ed = ws.openEditor("/workspace/sparse", { create: true });
      ed.write(SIZE - 1, new TextEncoder().encode("x"));
      ed.commit();
      const got = readAll(openRead(root, "sparse"), 64 * 1024);
      expect(got.length).toBe(SIZE);
      expect(got[SIZE - 1]).toBe(120);
      expect(got.subarray(0, SIZE - 1).every((b) => b === 0)).toBe(true);
    }));

  it("sees a rewrite made while the file is open (a new window, the new bytes)", () =>
    withBig(({ root, ws, data }) => {
      const fd = openRead(root, "big.txt");
      expect(sameBytes(fd.fd_read(1000).data, data.subarray(0, 1000))).toBe(true);
      const other = data.map((b) => (b === 120 ? 121 : b));
      ws.writeFile("/workspace/big.txt", other);
      expect(sameBytes(readAll(fd, 64 * 1024), other.subarray(1000))).toBe(true);
    }));

  it("a real program counts and hashes it as the bytes say (wc, sha256sum)", () =>
    withBig(async ({ data, ctx }) => {
      const fs = ctx.fs;
      const toolbox = programFor("toolbox")!.module;
      const lines = data.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
      const wc = run(toolbox, fs, ["toolbox", "wc", "-l", "-c", "big.txt"]);
      expect(wc.exitCode).toBe(0);
      expect(wc.out.trim().split(/\s+/).slice(0, 2).map(Number)).toEqual([lines, SIZE]);
      const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", data))].map((b) => b.toString(16).padStart(2, "0")).join("");
      const sha = run(toolbox, fs, ["toolbox", "sha256sum", "big.txt"]);
      expect(sha.out.split(" ")[0]).toBe(digest);
      const tail = run(toolbox, fs, ["toolbox", "tail", "-c", "20", "big.txt"]);
      expect(tail.out).toBe(new TextDecoder().decode(data.subarray(SIZE - 20)));
    }));
});
