import { describe, expect, it } from "vitest";
import { commandNames, programFor, toolboxCommandNames } from "../../src/wasi/programs";
import { sedMayExecute } from "../../src/wasi/sed-exec";
import { run, withFs } from "./helpers";

/** [argv, stdin, cwd, stdout, exit] over the fixture tree written by `seed`. */
const CASES: [string[], string | undefined, string, string | RegExp, number][] = [
  [["cat", "fruits.txt"], undefined, "/workspace", "pear\napple\nfig\napple\n", 0],
  [["cat", "-n", "../fruits.txt"], undefined, "/workspace/src", "     1\tpear\n     2\tapple\n     3\tfig\n     4\tapple\n", 0],
  [["ls"], undefined, "/workspace", "fruits.txt\nsrc\n", 0],
  [["ls", "-a", "src"], undefined, "/workspace", ".\n..\nmain.rs\nutil.rs\n", 0],
  [["wc", "-l", "fruits.txt"], undefined, "/workspace", "4 fruits.txt\n", 0],
  [["wc", "-c"], "hello", "/workspace", "5\n", 0],
  [["sort", "fruits.txt"], undefined, "/workspace", "apple\napple\nfig\npear\n", 0],
  [["sort", "-u", "-r"], "b\na\nb\nc\n", "/workspace", "c\nb\na\n", 0],
  [["grep", "-n", "apple", "fruits.txt"], undefined, "/workspace", "2:apple\n4:apple\n", 0],
  [["grep", "-rl", "fn", "."], undefined, "/workspace", "./src/main.rs\n./src/util.rs\n", 0],
  [["grep", "zebra", "fruits.txt"], undefined, "/workspace", "", 1],
  [["head", "-c", "3", "main.rs"], undefined, "/workspace/src", "fn ", 0],
  [["find", ".", "-name", "*.rs"], undefined, "/workspace", "./src/main.rs\n./src/util.rs\n", 0],
  // rg honours .gitignore (it names src/util.rs) unless told not to; -n adds line numbers.
  [["rg", "fn"], undefined, "/workspace", "src/main.rs:fn main() {}\n", 0],
  [["rg", "--no-ignore", "fn"], undefined, "/workspace", "src/main.rs:fn main() {}\nsrc/util.rs:pub fn util() {}\n", 0],
  [["rg", "-n", "--no-ignore", "fn", "--glob", "!main.rs"], undefined, "/workspace", "src/util.rs:1:pub fn util() {}\n", 0],
  [["rg", "-l", "apple"], undefined, "/workspace/src", "", 1],
  [["rg", "("], undefined, "/workspace", "", 2],
  [["nosuchcmd"], undefined, "/workspace", "", 127],
  // Commands added for issue 12.
  [["bc"], "scale=2; 10/3\n", "/workspace", "3.33\n", 0],
  [["bc", "-l"], "scale=5; 4*a(1)\n", "/workspace", "3.14156\n", 0],
  [["numfmt", "--to=iec", "1048576", "1536"], undefined, "/workspace", "1.0M\n1.5K\n", 0],
  [["cksum", "fruits.txt"], undefined, "/workspace", "506998437 21 fruits.txt\n", 0],
  [["getopt", "-o", "ab:", "--", "-a", "-bx", "f"], undefined, "/workspace", " -a -b 'x' -- 'f'\n", 0],
  [["iconv", "-f", "UTF-8", "-t", "UTF-16LE"], "hi", "/workspace", "h\u0000i\u0000", 0],
  [["tty"], undefined, "/workspace", "not a tty\n", 1],
  [["less", "-R", "fruits.txt"], undefined, "/workspace", "pear\napple\nfig\napple\n", 0],
  [["mkfifo", "p"], undefined, "/workspace", "", 1],
  [["chown", "agent:agent", "fruits.txt"], undefined, "/workspace", "", 0],
  [["chown", "root:root", "fruits.txt"], undefined, "/workspace", "", 1],
  [["chown", "bob", "fruits.txt"], undefined, "/workspace", "", 1],
  [["mktemp", "-p", "/workspace/src"], undefined, "/workspace", /^\/workspace\/src\/tmp\.[A-Za-z0-9]{10}\n$/, 0],
];

function seed(ws: { writeFile(p: string, d: string, o?: { createParents?: boolean }): unknown }) {
  ws.writeFile("/workspace/fruits.txt", "pear\napple\nfig\napple\n");
  ws.writeFile("/workspace/src/main.rs", "fn main() {}\n", { createParents: true });
  ws.writeFile("/workspace/src/util.rs", "pub fn util() {}\n");
  ws.writeFile("/workspace/.gitignore", "src/util.rs\n");
}

describe("toolbox through the runner", () => {
  it.each(CASES)("%j", (argv, stdin, cwd, out, code) =>
    withFs((fs, ws) => {
      seed(ws);
      const [name, ...rest] = argv;
      const prog = programFor(name!);
      const r = prog ? run(prog.module, fs, [prog.argv0, ...rest], { cwd, stdin }) : run(programFor("toolbox")!.module, fs, ["toolbox", ...argv], { cwd, stdin });
      expect(r.exitCode, r.err).toBe(code);
      if (typeof out === "string") expect(r.out).toBe(out);
      else expect(r.out).toMatch(out);
    }),
  );

  it("changes files the workspace then sees: mkdir, cp, mv, rm, touch, tee, sed -i", () =>
    withFs((fs, ws) => {
      seed(ws);
      const tb = (argv: string[], stdin?: string) => {
        const p = programFor(argv[0]!)!;
        const r = run(p.module, fs, [p.argv0, ...argv.slice(1)], { stdin });
        expect(r.exitCode, `${argv.join(" ")}: ${r.err}`).toBe(0);
        return r;
      };
      tb(["mkdir", "-p", "out/deep"]);
      expect(ws.stat("/workspace/out/deep")?.kind).toBe("dir");
      tb(["cp", "fruits.txt", "out/copy.txt"]);
      expect(ws.readText("/workspace/out/copy.txt")).toBe("pear\napple\nfig\napple\n");
      tb(["mv", "out/copy.txt", "out/deep/moved.txt"]);
      expect(ws.stat("/workspace/out/copy.txt")).toBeNull();
      tb(["sed", "-i", "s/apple/APPLE/g", "out/deep/moved.txt"]);
      expect(ws.readText("/workspace/out/deep/moved.txt")).toBe("pear\nAPPLE\nfig\nAPPLE\n");
      tb(["tee", "out/tee.txt"], "teed\n");
      expect(ws.readText("/workspace/out/tee.txt")).toBe("teed\n");
      tb(["touch", "-d", "@1600000000", "out/tee.txt"]);
      expect(ws.stat("/workspace/out/tee.txt")?.mtimeMs).toBe(1_600_000_000_000);
      tb(["rm", "-r", "out"]);
      expect(ws.stat("/workspace/out")).toBeNull();
    }));
});

describe("non-ASCII arguments (found by the fuzz model)", () => {
  // argv was sized in UTF-16 units but written as UTF-8: the extra bytes overran libc's buffer.
  it.each([
    ["üñí/b c.md", "d/plain2.txt"],
    ["üñí/b c.md", "d/q?#&.txt"],
    ["é/ü", "d/€€€€/x"],
  ])("cp %j %j keeps both names byte for byte", (from, to) =>
    withFs((fs, ws) => {
      ws.mkdir(`/workspace/${to.slice(0, to.lastIndexOf("/"))}`, { recursive: true });
      ws.writeFile(`/workspace/${from}`, "content\n", { createParents: true });
      const p = programFor("cp")!;
      const r = run(p.module, fs, [p.argv0, "--", from, to], {});
      expect(r.exitCode, r.err).toBe(0);
      expect(ws.readText(`/workspace/${to}`)).toBe("content\n");
      expect(ws.readdir(`/workspace/${to.slice(0, to.lastIndexOf("/"))}`).map((e) => e.path)).toEqual([`/workspace/${to}`]);
    }),
  );
});

describe("commands added for issue 12 change the workspace", () => {
  it("mktemp (TMPDIR, -d, templates), truncate, install -D, rename", () =>
    withFs((fs, ws) => {
      seed(ws);
      const tb = (argv: string[], env: Record<string, string> = {}) => {
        const p = programFor(argv[0]!)!;
        const r = run(p.module, fs, [p.argv0, ...argv.slice(1)], { env });
        expect(r.exitCode, `${argv.join(" ")}: ${r.err}`).toBe(0);
        return r.out.trim();
      };
      const f = tb(["mktemp"], { TMPDIR: "/workspace/src" });
      expect(f).toMatch(/^\/workspace\/src\/tmp\.[A-Za-z0-9]{10}$/);
      expect(ws.stat(f)?.kind).toBe("file");
      const d = tb(["mktemp", "-d", "--tmpdir=/workspace", "work.XXXXXX"]);
      expect(ws.stat(d)?.kind).toBe("dir");
      expect(tb(["mktemp", "-u", "-p", "src", "x.XXX.log"])).toMatch(/^src\/x\.[A-Za-z0-9]{3}\.log$/);
      tb(["truncate", "-s", "4", "fruits.txt"]);
      expect(ws.readText("/workspace/fruits.txt")).toBe("pear");
      tb(["truncate", "-s", "+2", "fruits.txt"]);
      expect(ws.readText("/workspace/fruits.txt")).toBe("pear\0\0");
      tb(["install", "-D", "-m", "755", "src/main.rs", "bin/deep/run"]);
      expect(ws.readText("/workspace/bin/deep/run")).toBe("fn main() {}\n");
      tb(["rename", "s/\\.rs$/.txt/", "src/main.rs", "src/util.rs"]);
      expect(ws.stat("/workspace/src/main.txt")?.kind).toBe("file");
      expect(ws.stat("/workspace/src/util.rs")).toBeNull();
    }));
});

describe("programFor", () => {
  it("maps every command the toolbox lists onto the toolbox, with argv[0] = the command", () => {
    const names = toolboxCommandNames();
    for (const n of ["cat", "ls", "wc", "sort", "grep", "sed", "find"]) expect(names.has(n), n).toBe(true);
    // sed alone may call the session (its `e` command runs a shell command through it).
    for (const n of names) expect(programFor(n)).toEqual({ module: programFor("toolbox")!.module, argv0: n, ...(n === "sed" ? { hostCalls: sedMayExecute } : {}) });
    expect(commandNames()).toContain("toolbox");
  });

  it.each(["fsprobe", "bash", "", "../cat", "cat.wasm"])("knows no program %j", (n) => {
    expect(programFor(n)).toBeUndefined();
  });
});
