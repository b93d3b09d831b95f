import { describe, expect, it } from "vitest";
import { FileRules } from "../../src/policy/files";
import { GuardedFs } from "../../src/policy/guarded-fs";
import { counting, probe, withFs } from "./helpers";

const N = 10_000;
const name = (i: number) => `/workspace/many/f${String(i).padStart(5, "0")}.txt`;

describe("the WASI filesystem is lazy", () => {
  it("opening one file of a 10,000-file workspace touches only that file", () =>
    withFs((_fs, ws) => {
      ws.mkdir("/workspace/many");
      ws.transaction(() => {
        for (let i = 0; i < N; i++) ws.writeFile(name(i), `file ${i}\n`);
      });
      const { proxy, calls } = counting(ws);
      const fs = new GuardedFs(proxy, new FileRules());

      const r = probe(fs, ["cat", "many/f04242.txt"]);
      expect(r.out).toBe("file 4242\n");
      // Nothing listed, walked or read whole; besides the cwd check (one stat of /workspace)
      // every lookup and read names the one file.
      for (const m of ["readdir", "walk", "readFile", "chunks"]) expect(calls.get(m), m).toBeUndefined();
      expect(calls.get("stat")?.filter((p) => p === "/workspace")).toEqual(["/workspace"]);
      // hasLinks names no file (one cached answer: this workspace has no links).
      const touched = [...calls]
        .filter(([m]) => m !== "hasLinks")
        .flatMap(([, paths]) => paths)
        .filter((p) => p !== "/workspace");
      expect(new Set(touched)).toEqual(new Set([name(4242)]));
      expect(touched.length, JSON.stringify([...calls])).toBeLessThanOrEqual(6);

      // A listing reads the directory once, however many fd_readdir calls the program needs.
      calls.clear();
      const ls = probe(fs, ["ls", "many"]);
      expect(ls.exitCode).toBe(0);
      expect(ls.out.split("\n").length - 1).toBe(N);
      expect(calls.get("readdir")).toEqual(["/workspace/many"]);
      expect(calls.get("read")).toBeUndefined();
      expect(calls.get("readChunk")).toBeUndefined();
    }));

  it("reads a file in ranges, never whole", () =>
    withFs((_fs, ws) => {
      const big = "y".repeat(3 * 1024 * 1024);
      ws.writeFile("/workspace/big.txt", big);
      const { proxy, calls } = counting(ws);
      const fs = new GuardedFs(proxy, new FileRules());
      const r = probe(fs, ["seekread", "big.txt", "1048576", "10"]);
      expect(r.out).toBe("yyyyyyyyyy");
      expect(calls.get("readFile")).toBeUndefined();
      // One stored chunk (256 KiB) around the offset, not the 3 MiB file.
      expect(calls.get("readChunk")).toEqual(["/workspace/big.txt"]);
      expect(calls.get("read")).toBeUndefined();
    }));
});
