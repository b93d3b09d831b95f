import { describe, expect, it } from "vitest";
import { probe, sameBytes, withFs } from "./helpers";

/** One fsprobe call and what it must print; steps run in order on one workspace. */
type Step = [args: string[], out: string | RegExp, err: string, code: number, cwd?: string];

const SCRIPT: Step[] = [
  [["ls", "/workspace"], "", "", 0],
  [["write", "/workspace/a.txt", "hello"], "", "", 0],
  [["cat", "/workspace/a.txt"], "hello", "", 0],
  [["append", "/workspace/a.txt", " world"], "", "", 0],
  [["cat", "a.txt"], "hello world", "", 0],
  [["append", "new.txt", "fresh"], "", "", 0],
  [["cat", "new.txt"], "fresh", "", 0],
  [["write", "a.txt", "short"], "", "", 0], // O_TRUNC: old tail must be gone
  [["cat", "a.txt"], "short", "", 0],
  [["stat", "a.txt"], /^5 \d+ file\n$/, "", 0],
  [["mkdir", "d"], "", "", 0],
  [["mkdir", "d"], "", "fsprobe: mkdir: d: File exists\n", 1],
  // A directory reads as one 4 KiB block, as on ext4 (so ls -l, stat and du print Linux's numbers).
  [["stat", "d"], /^4096 \d+ dir\n$/, "", 0],
  [["write", "d/inner.txt", "in"], "", "", 0],
  [["ls", "."], "a.txt\tfile\t5\nd\tdir\t4096\nnew.txt\tfile\t5\n", "", 0],
  [["ls", "d"], "inner.txt\tfile\t2\n", "", 0],
  [["rmdir", "d"], "", "fsprobe: rmdir: d: Directory not empty\n", 1],
  [["mv", "d/inner.txt", "moved.txt"], "", "", 0],
  [["cat", "moved.txt"], "in", "", 0],
  [["cat", "d/inner.txt"], "", "fsprobe: cat: d/inner.txt: No such file or directory\n", 1],
  [["rmdir", "d"], "", "", 0],
  [["stat", "d"], "", "fsprobe: stat: d: No such file or directory\n", 1],
  [["mv", "moved.txt", "a.txt"], "", "", 0], // replaces a file
  [["cat", "a.txt"], "in", "", 0],
  [["rm", "a.txt"], "", "", 0],
  [["rm", "a.txt"], "", "fsprobe: rm: a.txt: No such file or directory\n", 1],
  [["rm", "/workspace"], "", /fsprobe: rm: \/workspace: (Is a directory|Operation not permitted)\n/ as unknown as string, 1],
  [["write", "digits.txt", "0123456789"], "", "", 0],
  [["seekread", "digits.txt", "3", "4"], "3456", "", 0],
  [["seekread", "digits.txt", "8", "100"], "89", "", 0],
  [["seekread", "digits.txt", "50", "4"], "", "", 0],
  [["mkdir", "sub"], "", "", 0],
  [["write", "rel.txt", "from sub"], "", "", 0, "/workspace/sub"],
  [["cat", "/workspace/sub/rel.txt"], "from sub", "", 0],
  [["cat", "../digits.txt"], "0123456789", "", 0, "/workspace/sub"],
  [["ls", "."], "rel.txt\tfile\t8\n", "", 0, "/workspace/sub"],
  [["cat", "nope/x"], "", "fsprobe: cat: nope/x: No such file or directory\n", 1],
  [["write", "nope/x", "t"], "", "fsprobe: write: nope/x: No such file or directory\n", 1],
  [["cat", "sub"], "", /fsprobe: cat: sub: Is a directory\n/ as unknown as string, 1],
  [["mkdir", "digits.txt/x"], "", "fsprobe: mkdir: digits.txt/x: Not a directory\n", 1],
];

describe("fsprobe over a real workspace", () => {
  it("ls/cat/write/append/mv/rm/mkdir/rmdir/stat/seekread behave like a POSIX filesystem", () =>
    withFs((fs) => {
      for (const [args, out, err, code, cwd] of SCRIPT) {
        const r = probe(fs, args, { cwd });
        const label = `${cwd ?? ""} fsprobe ${args.join(" ")}`;
        expect({ label, code: r.exitCode }).toEqual({ label, code });
        if (typeof out === "string") expect(r.out, label).toBe(out);
        else expect(r.out, label).toMatch(out);
        if (typeof err === "string") expect(r.err, label).toBe(err);
        else expect(r.err, label).toMatch(err);
        expect(r.denied, label).toBeUndefined();
        expect(r.error, label).toBeUndefined();
      }
    }));

  it("stat reports the workspace mtime in whole seconds", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/t.txt", "x");
      ws.setMtime("/workspace/t.txt", 1_700_000_123_456);
      expect(probe(fs, ["stat", "t.txt"]).out).toBe("1 1700000123 file\n");
    }));

  it("changes made by fsprobe are seen by the workspace, and the other way round", () =>
    withFs((fs, ws) => {
      expect(probe(fs, ["write", "w.txt", "by wasi"]).exitCode).toBe(0);
      expect(ws.readText("/workspace/w.txt")).toBe("by wasi");
      expect(new TextDecoder().decode(fs.readFile("/workspace/w.txt"))).toBe("by wasi");

      ws.writeFile("/workspace/w.txt", "by host");
      expect(probe(fs, ["cat", "w.txt"]).out).toBe("by host");

      ws.mkdir("/workspace/hostdir");
      ws.writeFile("/workspace/hostdir/f", "12345");
      expect(probe(fs, ["ls", "hostdir"]).out).toBe("f\tfile\t5\n");

      expect(probe(fs, ["mv", "hostdir", "renamed"]).exitCode).toBe(0);
      expect(ws.stat("/workspace/hostdir")).toBeNull();
      expect(ws.readText("/workspace/renamed/f")).toBe("12345");

      expect(probe(fs, ["rm", "renamed/f"]).exitCode).toBe(0);
      expect(ws.stat("/workspace/renamed/f")).toBeNull();
      expect(probe(fs, ["rmdir", "renamed"]).exitCode).toBe(0);
      expect(ws.readdir("/workspace").map((n) => n.path)).toEqual(["/workspace/w.txt"]);
    }));

  it("writes and reads back a 5 MB file in ranges", () =>
    withFs((fs, ws) => {
      const big = new Uint8Array(5 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = 97 + ((i * 7 + (i >> 12)) % 26);
      const text = new TextDecoder().decode(big);
      const w = probe(fs, ["write", "big.txt", text]);
      expect(w.exitCode).toBe(0);
      expect(ws.stat("/workspace/big.txt")?.size).toBe(big.length);
      expect(sameBytes(ws.readFile("/workspace/big.txt"), big)).toBe(true);

      const c = probe(fs, ["cat", "big.txt"]);
      expect(c.exitCode).toBe(0);
      expect(sameBytes(c.stdout, big)).toBe(true);

      const off = 3 * 1024 * 1024 + 17;
      const s = probe(fs, ["seekread", "big.txt", String(off), "100000"]);
      expect(sameBytes(s.stdout, big.subarray(off, off + 100000))).toBe(true);
    }));
});

describe("fsprobe against quotas", () => {
  it("a write past the byte quota fails with EDQUOT; the truncation before it still lands (as POSIX)", () =>
    withFs(
      (fs, ws) => {
        ws.writeFile("/workspace/q.txt", "small");
        const r = probe(fs, ["write", "q.txt", "x".repeat(5000)]);
        expect(r.exitCode).toBe(1);
        expect(r.err).toMatch(/^fsprobe: write: q.txt: .*quota/i);
        expect(ws.readText("/workspace/q.txt")).toBe("");
        expect(ws.usage().bytes).toBe(0);
        expect(r.denied).toBeUndefined();
      },
      { quotas: { maxBytes: 4096, maxFiles: 10 } },
    ));
});
