// Oils spec-test harness: parses *.test.sh files, judges each case as the Oils project
// does for bash, and runs it through runShell with an in-memory host.
//
// TEST-ONLY programs: argv.py, printenv.py, stdout_stderr.py, read_from_fd.py, foo=bar
// (the harness helpers) and tiny JS stand-ins for cat, env, seq, head, wc, sort, tr.
// The real coreutils arrive later as WASI programs; these exist only in this harness.
import { runShell } from "../../src/shell/index";
import { MemoryHost, MemProgram } from "../../src/shell/memory-host";

export const EXCLUDED = [
  "interactive",
  "prompt",
  "builtin-history",
  "builtin-fc",
  "builtin-completion",
  "builtin-bind",
  "builtin-kill",
  "background",
  "builtin-process",
  "builtin-times",
  "builtin-umask",
  "xtrace",
  "introspect",
  "divergence",
  "known-differences",
  "osh-bugs",
  "spec-harness-bug",
  "interactive-parse",
  "shell-bugs",
  "shell-grammar",
];
export function inScope(file: string): boolean {
  const base = file.replace(/^.*\//, "").replace(/\.test\.sh$/, "");
  if (/^(ble-|zsh-|toysh|blog)/.test(base)) return false;
  return !EXCLUDED.includes(base);
}

export interface Expect {
  stdout?: string;
  stderr?: string;
  status?: number;
}
export interface SpecCase {
  name: string;
  script: string;
  expect: Expect;
  skip?: string;
  line: number;
}

const KEY_RE = /^## (?:(OK|BUG|N-I)(?:-\d+)? ([\w/.+-]+) )?(stdout-json|stderr-json|stdout|stderr|status|STDOUT:|STDERR:)(?::?\s?(.*))?$/;

export function parseSpecFile(text: string): SpecCase[] {
  const lines = text.split("\n");
  const cases: SpecCase[] = [];
  let cur: { name: string; script: string[]; def: Expect; bash: Expect; ni: boolean; line: number } | null = null;
  const finish = () => {
    if (!cur) return;
    const expect: Expect = { ...cur.def, ...cur.bash };
    while (cur.script.length && cur.script[0].trim() === "") cur.script.shift();
    const script = cur.script.join("\n") + "\n";
    let skip: string | undefined;
    if (cur.ni) skip = "N-I bash";
    else if (/REPO_ROOT|spec\/testdata|python2|\$SH_?ROOT/.test(script)) skip = "needs Oils repo or python2";
    cases.push({ name: cur.name, script, expect, skip, line: cur.line });
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith("#### ")) {
      finish();
      cur = { name: l.slice(5).trim(), script: [], def: {}, bash: {}, ni: false, line: i + 1 };
      continue;
    }
    if (!cur) continue;
    if (l.startsWith("## ")) {
      const m = KEY_RE.exec(l);
      if (!m) continue;
      const [, kind, shells, key, rest] = m;
      const forBash = !kind || shells.split("/").includes("bash");
      let value: string | number | undefined;
      let field: keyof Expect;
      if (key === "STDOUT:" || key === "STDERR:") {
        const body: string[] = [];
        for (i++; i < lines.length && !lines[i].startsWith("## ") && !lines[i].startsWith("#### "); i++) {
          if (lines[i].startsWith("#")) continue;
          body.push(lines[i]);
        }
        if (i < lines.length && !lines[i].startsWith("## END")) i--;
        value = body.map((b) => b + "\n").join("");
        field = key === "STDOUT:" ? "stdout" : "stderr";
      } else if (key === "status") {
        value = parseInt(rest ?? "0", 10);
        field = "status";
      } else if (key.endsWith("-json")) {
        value = JSON.parse(rest ?? '""');
        field = key.startsWith("stdout") ? "stdout" : "stderr";
      } else {
        value = (rest ?? "") + "\n";
        field = key as "stdout" | "stderr";
      }
      if (!kind) (cur.def as Record<string, unknown>)[field] = value;
      else if (forBash) {
        if (kind === "N-I") cur.ni = true;
        (cur.bash as Record<string, unknown>)[field] = value;
      }
      continue;
    }
    if (l.startsWith("#")) continue; // comments are dropped, as the Oils runner does
    cur.script.push(l);
  }
  finish();
  return cases;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function pyRepr(s: string): string {
  if (s.includes("'") && !s.includes('"')) return '"' + escPy(s, '"') + '"';
  return "'" + escPy(s, "'") + "'";
}
function escPy(s: string, q: string): string {
  let o = "";
  for (const b of enc.encode(s)) {
    const c = String.fromCharCode(b);
    if (c === "\\") o += "\\\\";
    else if (c === q) o += "\\" + q;
    else if (c === "\n") o += "\\n";
    else if (c === "\t") o += "\\t";
    else if (c === "\r") o += "\\r";
    else if (b < 32 || b >= 127) o += "\\x" + b.toString(16).padStart(2, "0");
    else o += c;
  }
  return o;
}

let currentHost: MemoryHost | null = null;
/** Reads file operands (or stdin when none / "-"). */
async function readInputs(argv: string[], io: Parameters<MemProgram>[1]): Promise<string | null> {
  const files = argv.filter((a) => !a.startsWith("-") || a === "-");
  if (!files.length) return readAll(io);
  let s = "";
  for (const f of files) {
    if (f === "-") {
      s += await readAll(io);
      continue;
    }
    const fdm = /^\/dev\/fd\/(\d+)$/.exec(f);
    if (fdm && io.extraFds?.[+fdm[1]]) {
      const r = io.extraFds[+fdm[1]];
      for (;;) {
        const c = await r.read();
        if (!c) break;
        s += dec.decode(c);
      }
      continue;
    }
    const h = currentHost!;
    const abs = h.resolvePath(io.cwd, f);
    if (h.fs.stat(abs)?.type !== "file") {
      await io.stderr.write(enc.encode(`${argv[0]}: ${f}: No such file or directory\n`));
      return null;
    }
    s += dec.decode(h.fs.readFile(abs));
  }
  return s;
}

async function readAll(io: Parameters<MemProgram>[1]): Promise<string> {
  let s = "";
  for (;;) {
    const c = await io.stdin.read();
    if (!c) break;
    s += dec.decode(c, { stream: true });
  }
  return s;
}
const w = (io: Parameters<MemProgram>[1], s: string) => io.stdout.write(enc.encode(s));

export const PROGRAMS: Record<string, MemProgram> = {
  "argv.py": async (argv, io) => {
    await w(io, "[" + argv.slice(1).map(pyRepr).join(", ") + "]\n");
    return 0;
  },
  "printenv.py": async (argv, io) => {
    await w(
      io,
      argv
        .slice(1)
        .map((n) => (n in io.env ? io.env[n] : "None") + "\n")
        .join(""),
    );
    return 0;
  },
  "stdout_stderr.py": async (argv, io) => {
    await w(io, (argv[1] ?? "STDOUT") + "\n");
    await io.stderr.write(enc.encode((argv[2] ?? "STDERR") + "\n"));
    return parseInt(argv[3] ?? "0", 10);
  },
  "read_from_fd.py": async (argv, io) => {
    for (const a of argv.slice(1)) {
      const fd = parseInt(a, 10);
      const r = fd === 0 ? io.stdin : io.extraFds?.[fd];
      let data = "";
      if (r) {
        const c = await r.read();
        if (c) data = dec.decode(c);
      }
      await w(io, `${fd}: ${data}`);
    }
    return 0;
  },
  "foo=bar": async (_a, io) => {
    await w(io, "HI\n");
    return 0;
  },
  cat: async (argv, io) => {
    if (argv.length > 1) {
      const s = await readInputs(argv.slice(1), io);
      if (s === null) return 1;
      await w(io, s);
      return 0;
    }
    for (;;) {
      const c = await io.stdin.read();
      if (!c) break;
      await io.stdout.write(c);
    }
    return 0;
  },
  env: async (argv, io) => {
    if (argv.length > 1) {
      const rest = argv.slice(1);
      const extra: Record<string, string> = {};
      while (rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0])) {
        const a = rest.shift()!;
        const k = a.indexOf("=");
        extra[a.slice(0, k)] = a.slice(k + 1);
      }
      if (rest.length) {
        const p = PROGRAMS[rest[0]];
        if (!p) return 127;
        return p(rest, { ...io, env: { ...io.env, ...extra } });
      }
      Object.assign(io.env, extra);
    }
    await w(
      io,
      Object.entries(io.env)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(""),
    );
    return 0;
  },
  seq: async (argv, io) => {
    const nums = argv.slice(1).map(Number);
    const [a, step, b] = nums.length === 1 ? [1, 1, nums[0]] : nums.length === 2 ? [nums[0], 1, nums[1]] : nums;
    let s = "";
    for (let i = a; step > 0 ? i <= b : i >= b; i += step) s += i + "\n";
    await w(io, s);
    return 0;
  },
  head: async (argv, io) => {
    const n = argv[1] === "-n" ? parseInt(argv[2], 10) : /^-\d+$/.test(argv[1] ?? "") ? parseInt(argv[1].slice(1), 10) : 10;
    let s = "";
    let lines = 0;
    for (;;) {
      const c = await io.stdin.read();
      if (!c) break;
      s += dec.decode(c);
      lines = s.split("\n").length - 1;
      if (lines >= n) break;
    }
    await w(
      io,
      s
        .split("\n")
        .slice(0, n)
        .map((l) => l + "\n")
        .join("")
        .slice(0, lines >= n ? undefined : s.length),
    );
    return 0;
  },
  touch: async (argv, io) => {
    const h = currentHost!;
    for (const f of argv.slice(1).filter((a) => !a.startsWith("-"))) {
      const abs = h.resolvePath(io.cwd, f);
      const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
      if (h.fs.stat(parent)?.type !== "dir") {
        await io.stderr.write(enc.encode(`touch: cannot touch '${f}': No such file or directory\n`));
        return 1;
      }
      if (!h.fs.stat(abs)) h.fs.writeFile(abs, new Uint8Array(0), { append: false });
    }
    return 0;
  },
  mkdir: async (argv, io) => {
    const h = currentHost!;
    for (const f of argv.slice(1).filter((a) => !a.startsWith("-"))) h.mkdirp(h.resolvePath(io.cwd, f));
    return 0;
  },
  rm: async (argv, io) => {
    const h = currentHost!;
    for (const f of argv.slice(1).filter((a) => !a.startsWith("-"))) {
      const abs = h.resolvePath(io.cwd, f);
      h.files.delete(abs);
      for (const k of [...h.files.keys()]) if (k.startsWith(abs + "/")) h.files.delete(k);
      for (const d of [...h.dirs]) if (d === abs || d.startsWith(abs + "/")) h.dirs.delete(d);
    }
    return 0;
  },
  egrep: async (argv, io) => PROGRAMS.grep(["grep", "-E", ...argv.slice(1)], io),
  hostname: async (_a, io) => {
    await w(io, "toolshed\n");
    return 0;
  },
  which: async (argv, io) => {
    let st = 0;
    for (const n of argv.slice(1)) {
      if (n in PROGRAMS) await w(io, `/usr/bin/${n}\n`);
      else if (n === "bash" || n === "sh") await w(io, `/bin/${n}\n`);
      else st = 1;
    }
    return st;
  },
  chmod: async () => 0,
  echo: async (argv, io) => {
    await w(io, argv.slice(1).join(" ") + "\n");
    return 0;
  }, // permissions are not modelled by the in-memory host
  basename: async (argv, io) => {
    await w(io, (argv[1] ?? "").replace(/\/+$/, "").replace(/^.*\//, "") + "\n");
    return 0;
  },
  dirname: async (argv, io) => {
    const p = (argv[1] ?? "").replace(/\/+$/, "");
    const k = p.lastIndexOf("/");
    await w(io, (k < 0 ? "." : k === 0 ? "/" : p.slice(0, k)) + "\n");
    return 0;
  },
  grep: async (argv, io) => {
    const flags = argv
      .slice(1)
      .filter((a) => /^-[a-zA-Z]+$/.test(a))
      .join("")
      .replace(/E/g, "");
    const rest = argv.slice(1).filter((a) => !/^-[a-zA-Z]+$/.test(a));
    const pat = rest.shift() ?? "";
    const s = await readInputs(rest, io);
    if (s === null) return 2;
    const re = new RegExp(flags.includes("F") ? pat.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pat.replace(/\\([(){}|+?])/g, "$1"), flags.includes("i") ? "i" : "");
    const ls = s.split("\n");
    if (ls[ls.length - 1] === "") ls.pop();
    const hits = ls.filter((l) => re.test(l) !== flags.includes("v"));
    if (flags.includes("o")) {
      const g = new RegExp(re.source, re.flags + "g");
      for (const l of hits) for (const m of l.match(g) ?? []) await w(io, m + "\n");
    } else if (flags.includes("c")) await w(io, hits.length + "\n");
    else if (!flags.includes("q")) await w(io, hits.map((l) => l + "\n").join(""));
    return hits.length ? 0 : 1;
  },
  sed: async (argv, io) => {
    // only s/RE/REP/[g] scripts (enough for the spec cases that post-process output)
    const args = argv.slice(1).filter((a) => a !== "-e");
    const m = /^s(.)(.*?)\1(.*?)\1(g?)$/.exec(args[0] ?? "");
    if (!m) return 1;
    const s = await readInputs(args.slice(1), io);
    if (s === null) return 2;
    const re = new RegExp(m[2].replace(/\\([(){}|+?])/g, "$1"), m[4] ? "g" : "");
    const ls = s.split("\n");
    await w(io, ls.map((l) => l.replace(re, m[3].replace(/\\(\d)/g, "$$$1").replace(/&/g, "$$&"))).join("\n"));
    return 0;
  },
  tac: async (argv, io) => {
    const s = await readInputs(argv.slice(1), io);
    if (s === null) return 1;
    const ls = s.split("\n");
    if (ls[ls.length - 1] === "") ls.pop();
    await w(
      io,
      ls
        .reverse()
        .map((l) => l + "\n")
        .join(""),
    );
    return 0;
  },
  expr: async (argv, io) => {
    const a = argv.slice(1);
    let v: string;
    if (a.length === 1) v = a[0];
    else if (a.length === 3 && "+-*/%".includes(a[1])) {
      const x = Number(a[0]),
        y = Number(a[2]);
      v = String(Math.trunc(a[1] === "+" ? x + y : a[1] === "-" ? x - y : a[1] === "*" ? x * y : a[1] === "/" ? x / y : x % y));
    } else return 2;
    await w(io, v + "\n");
    return v === "0" || v === "" ? 1 : 0;
  },
  wc: async (argv, io) => {
    const files = argv.slice(1).filter((x) => !x.startsWith("-"));
    const s0 = await readInputs(argv.slice(1), io);
    if (s0 === null) return 1;
    const s = s0;
    const suffix = files.length === 1 ? " " + files[0] : "";
    if (argv[1] === "-l") {
      await w(io, `${(s.match(/\n/g) ?? []).length}${suffix}\n`);
      return 0;
    }
    if (argv[1] === "-c") {
      await w(io, `${enc.encode(s).length}${suffix}\n`);
      return 0;
    }
    const l = (s.match(/\n/g) ?? []).length;
    if (argv[1] === "-l") await w(io, `${l}\n`);
    else if (argv[1] === "-c") await w(io, `${enc.encode(s).length}\n`);
    else if (argv[1] === "-w") await w(io, `${s.split(/\s+/).filter(Boolean).length}\n`);
    else await w(io, `${String(l).padStart(7)} ${String(s.split(/\s+/).filter(Boolean).length).padStart(7)} ${String(enc.encode(s).length).padStart(7)}\n`);
    return 0;
  },
  sort: async (argv, io) => {
    const s0 = await readInputs(argv.slice(1), io);
    if (s0 === null) return 2;
    const s = s0;
    let ls = s.split("\n");
    if (ls[ls.length - 1] === "") ls.pop();
    ls.sort();
    if (argv.includes("-r")) ls.reverse();
    if (argv.includes("-n")) ls = ls.sort((x, y) => parseFloat(x) - parseFloat(y));
    await w(io, ls.map((l) => l + "\n").join(""));
    return 0;
  },
  tr: async (argv, io) => {
    const s = await readAll(io);
    const expand = (x: string) =>
      x
        .replace(/(.)-(.)/g, (_, a: string, b: string) => {
          let o = "";
          for (let c = a.charCodeAt(0); c <= b.charCodeAt(0); c++) o += String.fromCharCode(c);
          return o;
        })
        .replace(/\\n/g, "\n");
    if (argv[1] === "-d") {
      const d = expand(argv[2]);
      await w(io, [...s].filter((c) => !d.includes(c)).join(""));
      return 0;
    }
    const a = expand(argv[1] ?? ""),
      b = expand(argv[2] ?? "");
    await w(
      io,
      [...s]
        .map((c) => {
          const k = a.indexOf(c);
          return k >= 0 ? (b[Math.min(k, b.length - 1)] ?? "") : c;
        })
        .join(""),
    );
    return 0;
  },
};

export interface CaseResult {
  pass: boolean;
  skipped?: string;
  got?: { stdout: string; stderr: string; status: number };
}

export async function runCase(c: SpecCase, caseTimeoutMs = 10_000): Promise<CaseResult> {
  if (c.skip) return { pass: false, skipped: c.skip };
  const host = new MemoryHost({ root: "/", programs: PROGRAMS });
  currentHost = host;
  const tmp = "/tmp/spec";
  host.mkdirp(tmp + "/_tmp"); // the Oils runner's scratch dir has a _tmp/
  host.mkdirp("/workspace");
  const env = { HOME: tmp, TMP: tmp, TMPDIR: tmp, SH: "bash", PATH: "/usr/bin:/bin", LC_ALL: "C.UTF-8" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<null>((r) => {
    timer = setTimeout(() => r(null), caseTimeoutMs);
  });
  const r = await Promise.race([runShell(c.script, { host, cwd: tmp, env, limits: { timeoutMs: 5000, maxOutputBytes: 1 << 20 } }), hung]);
  if (timer !== undefined) clearTimeout(timer);
  if (!r) return { pass: false, got: { stdout: "", stderr: "(hung)", status: -1 } };
  const got = { stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr), status: r.exitCode };
  return { pass: judge(c.expect, got), got };
}

/** The Oils judging rule: status (default 0) and stdout exactly; stderr only where asserted. */
export function judge(e: Expect, got: { stdout: string; stderr: string; status: number }): boolean {
  if (got.status !== (e.status ?? 0)) return false;
  if (e.stdout !== undefined && got.stdout !== e.stdout) return false;
  return e.stderr === undefined || got.stderr === e.stderr;
}

/** The helper commands the Oils cases call (argv.py and friends); nothing else. */
export const SPEC_HELPERS: Record<string, MemProgram> = Object.fromEntries(
  ["argv.py", "printenv.py", "stdout_stderr.py", "read_from_fd.py", "foo=bar"].map((n) => [n, PROGRAMS[n]!]),
);

export interface FileTally {
  file: string;
  pass: number;
  judged: number;
  skipped: number;
  inScope: boolean;
}

export async function runFiles(files: Record<string, string>, onFail?: (file: string, c: SpecCase, r: CaseResult) => void): Promise<FileTally[]> {
  const out: FileTally[] = [];
  for (const [file, text] of Object.entries(files).sort()) {
    const t: FileTally = { file, pass: 0, judged: 0, skipped: 0, inScope: inScope(file) };
    for (const c of parseSpecFile(text)) {
      const r = await runCase(c);
      if (r.skipped) {
        t.skipped++;
        continue;
      }
      t.judged++;
      if (r.pass) t.pass++;
      else onFail?.(file, c, r);
    }
    out.push(t);
  }
  return out;
}

export function summarize(ts: FileTally[]): { all: [number, number]; scope: [number, number] } {
  const all: [number, number] = [0, 0];
  const scope: [number, number] = [0, 0];
  for (const t of ts) {
    all[0] += t.pass;
    all[1] += t.judged;
    if (t.inScope) {
      scope[0] += t.pass;
      scope[1] += t.judged;
    }
  }
  return { all, scope };
}
