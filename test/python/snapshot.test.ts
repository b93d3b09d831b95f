import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { programFor } from "../../src/wasi/programs";
import { pythonSnapshotEnv } from "../../src/wasi/python/argv";
import { runWasi, type WasiRunResult } from "../../src/wasi/runner";
import { keptCopies } from "../../src/wasi/snapshot";
import { withFs } from "../wasi/helpers";

/**
 * A python run started from the isolate's kept interpreter (src/wasi/snapshot.ts: CPython's core
 * start done once, each run resuming from a copy of it) must be indistinguishable from one that
 * starts at `_start` as Debian's main does: argv, flags, paths, the environment, the locale and
 * its coercion, stdio, the script's directory, exit codes and tracebacks. Each case runs both ways
 * on the same files and compares everything the program printed.
 */
const py = programFor("python3")!;
const dec = new TextDecoder();
/** Every run carries a session secret: the kept copy serves other sessions and must not hold it. */
const SECRET = "TOOLSHED_TEST_TOKEN=s3cr3t-5f1c0e";
const BASE_ENV = { HOME: "/workspace", PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", PWD: "/workspace", [SECRET.split("=")[0]!]: SECRET.split("=")[1]! };

type Case = { name: string; args: string[]; env?: Record<string, string>; stdin?: string };

const STATE =
  "import sys, os; print(sys.argv, sys.orig_argv, sys.flags, sys.path, sys.executable, sys.prefix, sys.exec_prefix, sys.platlibdir, sys._xoptions, sys.warnoptions, os.getcwd(), __name__)";
const STDIO =
  "import sys, locale; print([(s.name, s.encoding, s.errors, s.line_buffering, s.write_through, s.seekable(), s.buffer.raw.name) for s in (sys.stdin, sys.stdout, sys.stderr)], locale.getpreferredencoding(), sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())";
const ENVIRON = "import os; print(sorted(os.environ.items())); print(sorted(os.environb.items())); print(os.getenv('X'), os.environ.get('LC_CTYPE'))";

const CASES: Case[] = [
  { name: "-c and its arguments", args: ["-c", STATE, "a", "-b", "--c"] },
  { name: "stdio objects (stdin a file)", args: ["-c", STDIO], stdin: "some input\n" },
  { name: "the environment, with a variable of its own", args: ["-c", ENVIRON], env: { X: "one" } },
  { name: "another environment after it", args: ["-c", ENVIRON], env: { X: "two", Y: "é" } },
  { name: "no LANG: the C locale coerced to C.UTF-8 (PEP 538)", args: ["-c", `${ENVIRON}\n${STDIO}`], env: { LANG: "" } },
  { name: "LC_ALL=C", args: ["-c", `${ENVIRON}\n${STDIO}`], env: { LC_ALL: "C" } },
  { name: "a script by path, with arguments", args: ["/workspace/dir/s.py", "x", "y"] },
  { name: "the script on stdin (-)", args: ["-", "arg"], stdin: "import sys; print(sys.argv, sys.path[0] == '', __name__)\n" },
  { name: "the script on stdin (no argument)", args: [], stdin: "import sys; print(sys.argv, sys.flags.interactive)\nprint(input.__name__)\n" },
  { name: "-m json.tool from stdin", args: ["-m", "json.tool", "--sort-keys"], stdin: '{"b": 1, "a": [1, 2]}' },
  { name: "-m of the agent's own module", args: ["-m", "mine", "arg"] },
  { name: "sys.exit(3)", args: ["-c", "import sys; print('out'); sys.exit(3)"] },
  { name: "a traceback", args: ["-c", "def f():\n    1/0\nf()"] },
  { name: "a SyntaxError", args: ["-c", "print((1)"] },
  { name: "site and user site", args: ["-c", "import site, sys; print(site.ENABLE_USER_SITE, site.USER_SITE, site.getsitepackages(), 'sitecustomize' in sys.modules)"] },
  { name: "modules imported by the start", args: ["-c", "import sys; print(sorted(k for k in sys.modules if not k.startswith('_frozen')))"] },
  // The end of a run: what finalization does that a program can see.
  { name: "a file left open is flushed at exit", args: ["-c", "f = open('/workspace/o.txt', 'w'); f.write('unflushed')"] },
  { name: "atexit handlers", args: ["-c", "import atexit; atexit.register(print, 'bye'); print('hi')"] },
  {
    name: "__del__ at exit, and an exception in one",
    args: ["-c", "class A:\n    def __del__(self): print('del')\nclass B:\n    def __del__(self): 1/0\na = A(); b = B()"],
  },
  { name: "output without a newline, on both streams", args: ["-c", "import sys; sys.stdout.write('x'); sys.stderr.write('y')"] },
];

type Ran = WasiRunResult & { left: string | null };

async function runBoth(c: Case): Promise<{ start: Ran; snap: Ran }> {
  return withFs((fs) => {
    fs.mkdir("/workspace/dir");
    fs.writeFile("/workspace/dir/s.py", new TextEncoder().encode("import sys, os\nprint(__file__, sys.argv, sys.path[0], os.getcwd())\n"));
    fs.writeFile("/workspace/mine.py", new TextEncoder().encode("import sys\nprint('mine', sys.argv, __name__)\n"));
    const envs = { ...BASE_ENV, ...c.env };
    for (const [k, v] of Object.entries(envs)) if (v === "") delete (envs as Record<string, string>)[k];
    const args = py.adaptArgs!(c.args, "/workspace");
    const opts = {
      argv: [py.argv0, ...args],
      env: envs,
      cwd: "/workspace",
      fs,
      preopens: py.preopens!(),
      stdin: c.stdin === undefined ? undefined : new TextEncoder().encode(c.stdin),
    };
    // A file the run left behind is part of what it did.
    const left = () => {
      const written = fs.stat("/workspace/o.txt") ? dec.decode(fs.readFile("/workspace/o.txt")) : null;
      if (written !== null) fs.remove("/workspace/o.txt");
      return written;
    };
    const start = { ...runWasi(py.module, { ...opts, snapshotEnv: null }), left: left() };
    const snap = { ...runWasi(py.module, { ...opts, preopens: py.preopens!(), snapshotEnv: pythonSnapshotEnv(args, envs) }), left: left() };
    return { start, snap };
  });
}

/** Object addresses differ from run to run on Debian too (ASLR). */
const text = (b: Uint8Array) => dec.decode(b).replace(/ at 0x[0-9a-f]+>/g, " at 0x…>");
const shown = (r: Ran) => ({ exit: r.exitCode, stdout: text(r.stdout), stderr: text(r.stderr), error: r.error, left: r.left });

describe("python3 started from the kept interpreter equals a start from _start", () => {
  beforeAll(async () => {
    await py.prepare!(env.ASSETS);
  }, 60_000);

  it.each(CASES)("$name", async (c) => {
    const { start, snap } = await runBoth(c);
    expect(shown(snap)).toEqual(shown(start));
    expect(start.stdout.length + start.stderr.length + (start.left?.length ?? 0)).toBeGreaterThan(0);
  });

  it("takes the kept copy: a warm run does a fraction of a full start's work", async () => {
    const c: Case = { name: "pass", args: ["-c", "pass"] };
    await runBoth(c);
    const { start, snap } = await runBoth(c);
    expect(snap.exitCode).toBe(0);
    // The kept half (core start and the frozen modules site needs) is about half of `python3 -c pass`.
    expect(snap.stats.steps!).toBeLessThan(start.stats.steps! * 0.6);
  });

  it("keeps nothing of the runs in the copy: no session variable, only the locale it was keyed by", async () => {
    await runBoth({ name: "pass", args: ["-c", "pass"] });
    const copies = keptCopies(py.module);
    expect(copies.length).toBeGreaterThan(0);
    const has = (image: (typeof copies)[number], text: string) => image.segments.some(({ data }) => Buffer.from(data).includes(Buffer.from(text)));
    for (const c of copies) {
      expect(has(c, "LANG=C.UTF-8")).toBe(true);
      expect(has(c, SECRET)).toBe(false);
      expect(has(c, "s3cr3t-5f1c0e")).toBe(false);
      expect(has(c, "PWD=")).toBe(false);
    }
  });

  it("leaves runs with interpreter options or PYTHON* variables to _start", () => {
    expect(pythonSnapshotEnv(["-I", "-c", "pass"], BASE_ENV)).toBeNull();
    expect(pythonSnapshotEnv(["-u", "s.py"], BASE_ENV)).toBeNull();
    expect(pythonSnapshotEnv(["--version"], BASE_ENV)).toBeNull();
    expect(pythonSnapshotEnv(["-c"], BASE_ENV)).toBeNull();
    expect(pythonSnapshotEnv(["-c", "pass"], { ...BASE_ENV, PYTHONHASHSEED: "0" })).toBeNull();
    expect(pythonSnapshotEnv(["-c", "pass"], { ...BASE_ENV, SECRET: "x" })).toEqual(["LANG=C.UTF-8"]);
    expect(pythonSnapshotEnv(["s.py", "-I"], BASE_ENV)).not.toBeNull();
    expect(pythonSnapshotEnv([], BASE_ENV)).not.toBeNull();
  });
});
