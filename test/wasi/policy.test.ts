import { describe, expect, it } from "vitest";
import { TOOLBOX } from "../../src/wasi/programs";
import { probe, run, withFs } from "./helpers";

/** [fsprobe args, cwd, stderr, denied rule] — each must fail with status 1 and leave files alone. */
const REFUSED: [string[], string, RegExp, string | undefined][] = [
  [["write", "SOUL.md", "new me"], "/workspace", /fsprobe: write: SOUL.md: Operation not permitted/, "identity-file"],
  [["append", "SOUL.md", "!"], "/workspace", /fsprobe: append: SOUL.md: Operation not permitted/, "identity-file"],
  [["write", "sub/IDENTITY.md", "x"], "/workspace", /Operation not permitted/, "identity-file"],
  [["rm", "SOUL.md"], "/workspace", /fsprobe: rm: SOUL.md: Operation not permitted/, "identity-file"],
  [["mv", "SOUL.md", "soul.bak"], "/workspace", /fsprobe: mv: SOUL.md: Operation not permitted/, "identity-file"],
  [["mv", "notes.txt", "USER.md"], "/workspace", /fsprobe: mv: notes.txt: Operation not permitted/, "identity-file"],
  [["cat", ".env"], "/workspace", /fsprobe: cat: .env: Permission denied/, "sensitive-file"],
  [["seekread", ".env", "0", "3"], "/workspace", /Permission denied/, "sensitive-file"],
  [["cat", "../.env.local"], "/workspace/sub", /Permission denied/, "sensitive-file"],
  [["cat", "../../etc/passwd"], "/workspace/sub", /fsprobe: cat: ..\/..\/etc\/passwd: Operation not permitted/, "path-traversal"],
  [["cat", "../../../../../../etc/passwd"], "/workspace", /Operation not permitted/, "path-traversal"],
  [["write", "../escape.txt", "x"], "/workspace", /Operation not permitted/, "path-traversal"],
  // No preopen matches these: the program's libc refuses before the host is asked.
  [["cat", "/etc/passwd"], "/workspace", /fsprobe: cat: \/etc\/passwd: /, undefined],
  [["cat", "/etc/passwd"], "/workspace/sub", /fsprobe: cat: \/etc\/passwd: /, undefined],
  [["ls", "/"], "/workspace", /fsprobe: ls: \/: /, undefined],
];

describe("policy through WASI", () => {
  it.each(REFUSED)("fsprobe %j (cwd %s) is refused", (args, cwd, err, rule) =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/SOUL.md", "I am me");
      ws.writeFile("/workspace/notes.txt", "notes");
      ws.writeFile("/workspace/.env", "SECRET=hunter2");
      ws.writeFile("/workspace/.env.local", "SECRET=local");
      // Decoys: a libc that mapped /etc/passwd onto the cwd would find these.
      ws.writeFile("/workspace/etc/passwd", "decoy-root", { createParents: true });
      ws.writeFile("/workspace/sub/etc/passwd", "decoy-sub", { createParents: true });
      const before = ws.walk("/workspace").map((n) => [n.path, n.size]);

      const r = probe(fs, args, { cwd });
      expect(r.exitCode).toBe(1);
      expect(r.err).toMatch(err);
      expect(r.out).not.toMatch(/hunter2|local|decoy/);
      expect(r.denied?.rule).toBe(rule);
      if (rule) expect(r.denied?.reason).toBeTruthy();
      expect(ws.walk("/workspace").map((n) => [n.path, n.size])).toEqual(before);
      expect(ws.readText("/workspace/SOUL.md")).toBe("I am me");
    }),
  );

  it("identity files stay readable and protected files stay listable", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/SOUL.md", "I am me");
      ws.writeFile("/workspace/.env", "SECRET=1");
      expect(probe(fs, ["cat", "SOUL.md"]).out).toBe("I am me");
      const ls = probe(fs, ["ls", "."]);
      expect(ls.out).toBe(".env\tfile\t8\nSOUL.md\tfile\t7\n");
      expect(ls.denied).toBeUndefined();
    }));

  it("records only the first denial of a run", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/.env", "S=1");
      ws.writeFile("/workspace/SOUL.md", "me");
      const r = run(TOOLBOX, fs, ["cat", ".env", "SOUL.md"]);
      expect(r.exitCode).toBe(1);
      expect(r.out).toBe("me");
      expect(r.err).toMatch(/cat: .env: Permission denied/);
      expect(r.denied?.rule).toBe("sensitive-file");
    }));
});
