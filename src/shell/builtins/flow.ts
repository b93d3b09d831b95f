// Control-flow and meta builtins: exit return break continue eval source . trap wait
// sleep timeout command builtin type hash alias unalias exec let true false : cd pwd.
import type { Fd, Shell } from "../interp/shell";
import { BreakSig, ContinueSig, ExitSig, ReturnSig } from "../interp/shell";
import { decode, encode } from "../bytes";
import { ArithError } from "../expand/arith";
import { quote, quoteAlways } from "../expand/word";
import { berr, out, skipDashDash } from "./io";
import { formatFunction } from "../syntax/print";
import { signalName, signalNumber, signalTable } from "./signals";

const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "{",
  "}",
  "!",
  "[[",
  "]]",
  "coproc",
]);

function statusArg(s: string | undefined, dflt: number): number | null {
  if (s === undefined) return dflt;
  if (!/^\s*[-+]?\d+\s*$/.test(s)) return null;
  return Number(BigInt.asUintN(8, BigInt(s.trim())));
}

async function exit(sh: Shell, args: string[], fds: Fd[]): Promise<number> {
  const argv = skipDashDash(args);
  if (argv.length > 2 && statusArg(argv[1], 0) !== null) {
    // bash refuses and stays alive
    await berr(sh, fds, "exit", "too many arguments");
    return 1;
  }
  const n = statusArg(argv[1], sh.status);
  if (n === null) {
    await berr(sh, fds, "exit", `${argv[1]}: numeric argument required`);
    throw new ExitSig(2);
  }
  throw new ExitSig(n);
}

async function ret(sh: Shell, args: string[], fds: Fd[]): Promise<number> {
  const argv = skipDashDash(args);
  const n = statusArg(argv[1], sh.status);
  if (n === null) {
    await berr(sh, fds, "return", `${argv[1]}: numeric argument required`);
    throw new ReturnSig(2);
  }
  if (sh.callDepth === 0 && !sh.source.length) {
    await berr(sh, fds, "return", "can only `return' from a function or sourced script");
    return 1;
  }
  throw new ReturnSig(n);
}

async function loopCtl(sh: Shell, argv: string[], fds: Fd[], brk: boolean): Promise<number> {
  let n = 1;
  if (argv.length > 2) {
    await berr(sh, fds, argv[0], "too many arguments");
    if (sh.loopDepth) throw new BreakSig(1);
    return 1;
  }
  if (argv[1] !== undefined) {
    if (!/^-?\d+$/.test(argv[1])) {
      await berr(sh, fds, argv[0], `${argv[1]}: numeric argument required`);
      throw new ExitSig(128);
    }
    if (parseInt(argv[1], 10) <= 0) {
      await berr(sh, fds, argv[0], `${argv[1]}: loop count out of range`);
      return 1;
    }
    n = parseInt(argv[1], 10);
  }
  if (sh.loopDepth === 0) return 0;
  n = Math.min(n, sh.loopDepth);
  throw brk ? new BreakSig(n) : new ContinueSig(n);
}

async function evalB(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const src = argv.slice(argv[1] === "--" ? 2 : 1).join(" ");
  if (!src.trim()) return 0;
  return sh.evalString(src, fds, "eval");
}

async function source(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  if (argv[1] === "--") argv = [argv[0], ...argv.slice(2)];
  const file = argv[1];
  if (file === undefined) {
    await berr(sh, fds, argv[0], "filename argument required");
    return 2;
  }
  const data = sh.readFileForRedirect(file, fds);
  if (!data) return 1;
  const savedPos = sh.positional;
  if (argv.length > 2) sh.positional = argv.slice(2);
  sh.source.push(file);
  // bash traces a sourced file's commands one level deeper (`++ cmd`), as it does eval's
  sh.traceLevel++;
  try {
    return await sh.runScript(decode(data), fds, 1);
  } catch (e) {
    if (e instanceof ReturnSig) return e.status;
    throw e;
  } finally {
    sh.traceLevel--;
    sh.source.pop();
    if (argv.length > 2) sh.positional = savedPos;
  }
}

const SIGNUM: Record<string, number> = {
  HUP: 1,
  INT: 2,
  QUIT: 3,
  KILL: 9,
  USR1: 10,
  USR2: 12,
  PIPE: 13,
  ALRM: 14,
  TERM: 15,
  CHLD: 17,
  CONT: 18,
  STOP: 19,
  WINCH: 28,
  URG: 23,
};

async function trap(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let args = argv.slice(1);
  if (args[0] === "--") args = args.slice(1);
  if (!args.length || args[0] === "-p") {
    const order = (k: string) => (k === "EXIT" ? -1 : (SIGNUM[k] ?? 100));
    const only = args.slice(1).map((s) => s.toUpperCase().replace(/^SIG/, ""));
    for (const [k, v] of [...(sh.parentTraps ?? sh.traps)].sort((a, b) => order(a[0]) - order(b[0]))) {
      if (only.length && !only.includes(k)) continue;
      const shown = SIGNUM[k] !== undefined ? "SIG" + k : k;
      await out(fds, `trap -- '${v.replace(/'/g, "'\\''")}' ${shown}\n`);
    }
    return 0;
  }
  if (args[0] === "-l") {
    await out(fds, signalTable());
    return 0;
  }
  let action: string | null = args[0];
  let sigs = args.slice(1);
  if (/^\d+$/.test(action) || sigs.length === 0) {
    // `trap SIG` or `trap N ...` resets
    sigs = args;
    action = null;
  }
  if (action === "-") action = null;
  let st = 0;
  sh.parentTraps = undefined;
  for (let s of sigs) {
    s = s.toUpperCase().replace(/^SIG/, "");
    if (s === "0") s = "EXIT";
    const known = ["EXIT", "ERR", "DEBUG", "RETURN", ...Object.keys(SIGNUM)];
    const num: Record<string, string> = { "1": "HUP", "2": "INT", "3": "QUIT", "15": "TERM", "13": "PIPE", "14": "ALRM", "10": "USR1", "12": "USR2", "9": "KILL" };
    if (num[s]) s = num[s];
    if (!known.includes(s)) {
      await berr(sh, fds, "trap", `${s}: invalid signal specification`);
      st = 1;
      continue;
    }
    if (action === null) sh.traps.delete(s);
    else sh.traps.set(s, action);
  }
  return st;
}

/** Waits for the given pids (or all); the `wait` builtin (jobs.ts) resolves job specs, then calls this. */
export async function wait(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const jobs = sh.shared.jobs;
  const ids = argv.slice(1).filter((a) => a !== "-n" && a !== "-f");
  if (argv.includes("-n")) {
    if (!jobs.size) return 127;
    const entries = [...jobs];
    const r = await Promise.race(entries.map(([pid, p]) => p.then((st) => ({ pid, st }))));
    jobs.delete(r.pid);
    return r.st;
  }
  if (!ids.length) {
    while (jobs.size) {
      const entries = [...jobs];
      for (const [pid, p] of entries) {
        await p;
        jobs.delete(pid);
      }
    }
    return 0;
  }
  let st = 0;
  for (const id of ids) {
    const pid = Number(id.replace(/^%/, ""));
    const p = jobs.get(pid);
    if (!p) {
      await berr(sh, fds, "wait", `pid ${id} is not a child of this shell`);
      st = 127;
      continue;
    }
    st = await p;
    jobs.delete(pid);
  }
  return st;
}

function parseDuration(s: string): number | null {
  const m = /^(\d*\.?\d+)([smhd]?)$/.exec(s);
  if (!m) return null;
  const mult = { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]]!;
  return parseFloat(m[1]) * mult * 1000;
}

async function sleep(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let total = 0;
  for (const a of argv.slice(1)) {
    const ms = parseDuration(a);
    if (ms === null) {
      await berr(sh, fds, "sleep", `invalid time interval '${a}'`);
      return 1;
    }
    total += ms;
  }
  if (argv.length < 2) {
    await berr(sh, fds, "sleep", "missing operand");
    return 1;
  }
  const b = sh.shared.budget;
  const left = b.deadline - sh.host.now();
  if (total > left) {
    await sh.host.sleep(Math.max(0, left));
    b.checkClock();
  }
  await sh.host.sleep(total);
  b.checkClock();
  return 0;
}

/** timeout's options (GNU's), or a usage message. */
function timeoutOptions(argv: string[]): { signal: number; preserve: boolean; verbose: boolean; at: number } | string {
  const o = { signal: 15, preserve: false, verbose: false, at: 1 };
  for (; o.at < argv.length && argv[o.at]!.startsWith("-") && argv[o.at] !== "-"; o.at++) {
    const a = argv[o.at]!;
    if (a === "--") {
      o.at++;
      break;
    }
    const long = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    const name = long ? long[1]! : a.slice(1, 2);
    const needsValue = ["s", "signal", "k", "kill-after"].includes(name);
    let value = long ? long[2] : a.length > 2 ? a.slice(2) : undefined;
    if (needsValue && value === undefined) value = argv[++o.at];
    if (needsValue && value === undefined) return `option requires an argument -- '${name}'`;
    if (name === "s" || name === "signal") {
      const n = signalNumber(value!);
      if (n === null) return `${value}: invalid signal`;
      o.signal = n;
    } else if (name === "k" || name === "kill-after") {
      if (parseDuration(value!) === null) return `invalid time interval '${value}'`;
    } else if (name === "preserve-status") o.preserve = true;
    else if (name === "v" || name === "verbose") o.verbose = true;
    else if (name !== "foreground") return long ? `unrecognized option '${a}'` : `invalid option -- '${name}'`;
  }
  return o;
}

/** timeout is a program in GNU: its messages carry its own name, not the shell's line. */
async function timeoutSays(fds: Fd[], msg: string): Promise<void> {
  await fds[2]?.w?.write(encode(`timeout: ${msg}\n`)).catch(() => {});
}

async function timeout(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const o = timeoutOptions(argv);
  const ms = typeof o === "string" ? null : parseDuration(argv[o.at] ?? "");
  if (typeof o === "string" || ms === null || o.at + 1 >= argv.length) {
    const why = typeof o === "string" ? o : ms === null && argv[o.at] !== undefined ? `invalid time interval '${argv[o.at]}'` : "missing operand";
    await timeoutSays(fds, `${why}\nTry 'timeout --help' for more information.`);
    return 125;
  }
  const cmd = argv.slice(o.at + 1);
  // The run's budget is shared, so a nested timeout bounds wall time by racing a timer.
  let timedOut = false;
  const timer =
    ms > 0
      ? sh.host.sleep(ms).then(() => {
          timedOut = true;
          return 124;
        })
      : null;
  const run = sh.invoke(cmd, fds);
  const st = timer ? await Promise.race([run, timer]) : await run;
  if (!timedOut) return st;
  if (o.verbose) await timeoutSays(fds, `sending signal ${signalName(o.signal)} to command '${cmd[0]}'`);
  // GNU: 124, or the command's death by the signal (128+N) with --preserve-status or KILL.
  return o.preserve || o.signal === 9 ? 128 + o.signal : 124;
}

function describe(sh: Shell, name: string): { kind: string; path?: string } | null {
  // aliases are only looked up where they expand (expand_aliases: off in `bash -c` and scripts)
  if (sh.shopts.expand_aliases && sh.aliases.has(name)) return { kind: "alias" };
  if (KEYWORDS.has(name)) return { kind: "keyword" };
  if (sh.funcs.has(name)) return { kind: "function" };
  if (sh.builtin(name)) return { kind: "builtin" };
  if (name.includes("/")) {
    try {
      const st = sh.host.fs.stat(sh.host.resolvePath(sh.cwd, name));
      if (st && st.type === "file") return { kind: "file", path: name };
    } catch {
      return null;
    }
    return null;
  }
  const f = sh.findInPath(name);
  if (!f && sh.isShellName(name)) return { kind: "file", path: "/bin/" + name };
  if (f) return { kind: "file", path: f.path.replace(/^\.\/(?=[^/]+\/)/, "") };
  if (sh.host.hasProgram?.(name)) return { kind: "file", path: "/usr/bin/" + name };
  return null;
}

/** Every PATH match for name, in PATH order (type -a). */
function allInPath(sh: Shell, name: string): string[] {
  const SYSTEM = new Set(["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/sbin"]);
  const found: string[] = [];
  for (const dir of (sh.vars.get("PATH") ?? "").split(":")) {
    const d = dir === "" ? "." : dir;
    if (SYSTEM.has(d) && !sh.host.commandAt) {
      if (sh.host.hasProgram?.(name) || sh.isShellName(name)) found.push(`${d}/${name}`);
      continue;
    }
    try {
      const abs = sh.host.resolvePath(sh.cwd, `${d}/${name}`);
      if (sh.host.commandAt?.(abs) || sh.host.fs.stat(abs)?.type === "file") found.push(`${d}/${name}`);
    } catch {
      // outside the allowed area: not searched
    }
  }
  return found;
}

async function type(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let i = 1;
  let mode = "";
  let all = false;
  let noFuncs = false;
  let forcePath = false;
  for (; i < argv.length && /^-[tpaPf]+$/.test(argv[i]); i++) {
    const o = argv[i];
    if (o.includes("t")) mode = "t";
    if (o.includes("p")) mode = "p";
    if (o.includes("P")) forcePath = true;
    if (o.includes("a")) all = true;
    if (o.includes("f")) noFuncs = true;
  }
  if (argv[i] === "--") i++;
  let st = 0;
  for (const n of argv.slice(i)) {
    // candidates in bash's lookup order; -a shows them all, otherwise the first
    const found: { kind: string; path?: string }[] = [];
    if (!forcePath) {
      if (sh.shopts.expand_aliases && sh.aliases.has(n)) found.push({ kind: "alias" });
      if (KEYWORDS.has(n)) found.push({ kind: "keyword" });
      if (!noFuncs && sh.funcs.has(n)) found.push({ kind: "function" });
      if (sh.builtin(n)) found.push({ kind: "builtin" });
    }
    if (n.includes("/")) {
      const d = describe(sh, n);
      if (d?.kind === "file") found.push(d);
    } else if (all || forcePath || !found.length) {
      const paths = allInPath(sh, n);
      if (paths.length) for (const p of paths) found.push({ kind: "file", path: p });
      else if (!found.length) {
        const d = describe(sh, n);
        if (d?.kind === "file") found.push(d);
      }
    }
    const shown = all ? found : found.slice(0, 1);
    if (!shown.length || (forcePath && !shown.some((d) => d.kind === "file"))) {
      if (mode !== "t" && mode !== "p" && !forcePath) await berr(sh, fds, "type", `${n}: not found`);
      st = 1;
      continue;
    }
    for (const d of shown) {
      if (mode === "t") {
        await out(fds, d.kind + "\n");
        continue;
      }
      if (mode === "p" || forcePath) {
        if (d.kind === "file") await out(fds, d.path + "\n");
        continue;
      }
      switch (d.kind) {
        case "alias":
          await out(fds, `${n} is aliased to \`${sh.aliases.get(n)}'\n`);
          break;
        case "keyword":
          await out(fds, `${n} is a shell keyword\n`);
          break;
        case "function": {
          const f = sh.funcs.get(n)!;
          await out(fds, `${n} is a function\n${formatFunction(f)}\n`);
          break;
        }
        case "builtin":
          await out(fds, `${n} is a shell builtin\n`);
          break;
        default:
          await out(fds, `${n} is ${d.path}\n`);
      }
    }
  }
  return st;
}

async function command(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let i = 1;
  let v = "";
  let stdPath = false;
  for (; i < argv.length && /^-[pvV]+$/.test(argv[i]); i++) {
    if (argv[i].includes("v")) v = "v";
    if (argv[i].includes("V")) v = "V";
    if (argv[i].includes("p")) stdPath = true;
  }
  if (argv[i] === "--") i++;
  const rest = argv.slice(i);
  if (!rest.length) return 0;
  if (stdPath) {
    // -p searches the standard PATH for this one lookup, whatever PATH holds
    const saved = sh.vars.lookup("PATH");
    const old = saved ? { value: saved.value, attrs: saved.attrs } : undefined;
    sh.vars.set("PATH", "/usr/local/bin:/usr/bin:/bin");
    try {
      return await command(sh, [argv[0], ...(v ? ["-" + v] : []), "--", ...rest], fds);
    } finally {
      if (old) Object.assign(sh.vars.cell("PATH"), old);
      else sh.vars.unset("PATH");
    }
  }
  if (v) {
    let st = 1;
    for (const n of rest) {
      const d = describe(sh, n);
      if (d) st = 0;
      if (!d) {
        if (v === "V") await berr(sh, fds, "command", `${n}: not found`);
        continue;
      }
      if (v === "v") await out(fds, (d.kind === "alias" ? `alias ${n}=${quote(sh.aliases.get(n)!)}` : d.kind === "file" ? d.path : n) + "\n");
      else await type(sh, ["type", n], fds);
    }
    return st;
  }
  return sh.invokeNoFunc(rest, fds);
}

async function builtin(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const rest = argv[1] === "--" ? argv.slice(2) : argv.slice(1);
  if (!rest.length) return 0;
  return sh.invokeNoFunc(rest, fds, undefined, null, true);
}

async function hash(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  if (argv[1] === "-r") {
    sh.hashed.clear();
    return 0;
  }
  let st = 0;
  for (const n of argv.slice(1)) {
    const f = sh.builtin(n) || n.includes("/") ? null : sh.lookupCommand(n);
    if (!f) {
      await berr(sh, fds, "hash", `${n}: not found`);
      st = 1;
    } else sh.hashed.get(n)!.hits = 0;
  }
  if (argv.length === 1) {
    // bash prints this one on stdout
    if (!sh.hashed.size) await out(fds, "hash: hash table empty\n");
    else {
      let text = "hits\tcommand\n";
      for (const [, h] of sh.hashed) text += `${String(h.hits).padStart(4)}\t${h.path.replace(/^\.\/(?=[^/]+\/)/, "")}\n`;
      await out(fds, text);
    }
  }
  return st;
}

async function alias(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const args = argv.slice(1).filter((a) => a !== "-p" && a !== "--");
  if (!args.length) {
    for (const [k, v] of [...sh.aliases].sort()) await out(fds, `alias ${k}=${quoteAlways(v)}\n`);
    return 0;
  }
  let st = 0;
  for (const a of args) {
    const eq = a.indexOf("=");
    if (eq > 0) sh.aliases.set(a.slice(0, eq), a.slice(eq + 1));
    else if (sh.aliases.has(a)) await out(fds, `alias ${a}=${quoteAlways(sh.aliases.get(a)!)}\n`);
    else {
      await berr(sh, fds, "alias", `${a}: not found`);
      st = 1;
    }
  }
  return st;
}

async function unalias(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  if (argv[1] === "-a") {
    sh.aliases.clear();
    return 0;
  }
  const names = argv.slice(1).filter((a) => a !== "--");
  if (!names.length) {
    await berr(sh, fds, "unalias", "usage: unalias [-a] name [name ...]");
    return 2;
  }
  let st = 0;
  for (const a of names) {
    if (!sh.aliases.delete(a)) {
      await berr(sh, fds, "unalias", `${a}: not found`);
      st = 1;
    }
  }
  return st;
}

async function exec(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const rest = argv.slice(1);
  let name: string | undefined;
  // -a NAME sets the program's argv[0]; -c (empty environment) and -l (login) are accepted
  while (rest[0] && /^-[acl]+$/.test(rest[0])) {
    const flags = rest.shift()!;
    if (flags.includes("a")) name = rest.shift();
  }
  if (rest[0] === "--") rest.shift();
  if (!rest.length) return 0; // redirections were made permanent by the runner
  // argv[0] can only be renamed for a child shell here: other programs are found by name
  const st =
    name !== undefined && sh.isShellName(rest[0]) && !sh.funcs.has(rest[0]) ? await sh.runChildShell([name, ...rest.slice(1)], fds, null) : await sh.invoke(rest, fds);
  // The program took the shell's place: no EXIT trap is left to run (unless it was never found).
  if (st !== 127 && st !== 126) sh.traps.delete("EXIT");
  throw new ExitSig(st);
}

async function letB(sh: Shell, args: string[], fds: Fd[]): Promise<number> {
  const argv = skipDashDash(args);
  if (argv.length < 2) {
    await berr(sh, fds, "let", "expression expected");
    return 1;
  }
  let v = 0n;
  for (const e of argv.slice(1)) {
    try {
      v = sh.arith(e);
    } catch (err) {
      if (err instanceof ArithError) {
        await berr(sh, fds, "let", err.message);
        return 1;
      }
      throw err;
    }
  }
  return v !== 0n ? 0 : 1;
}

export async function cd(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  // -P: the directory's physical path (links resolved); -L (the default): the path as written.
  const physical =
    argv
      .slice(1)
      .filter((a) => a === "-L" || a === "-P")
      .pop() === "-P";
  let args = argv.slice(1).filter((a) => a !== "-L" && a !== "-P" && a !== "-e" && a !== "-@");
  if (args[0] === "--") args = args.slice(1);
  if (args.length > 1) {
    await berr(sh, fds, "cd", "too many arguments");
    return 1;
  }
  let target: string | undefined = args[0];
  let print = false;
  if (target === undefined) {
    target = sh.vars.get("HOME");
    if (target === undefined) {
      await berr(sh, fds, "cd", "HOME not set");
      return 1;
    }
  } else if (target === "-") {
    target = sh.vars.get("OLDPWD");
    if (target === undefined) {
      await berr(sh, fds, "cd", "OLDPWD not set");
      return 1;
    }
    print = true;
  }
  if (target === "") return 0;
  const cdpath = sh.vars.get("CDPATH");
  if (cdpath && !target.startsWith("/") && !target.startsWith(".")) {
    for (const base of cdpath.split(":")) {
      if (!base) continue;
      try {
        const cand = sh.host.resolvePath(sh.cwd, base + "/" + target);
        if (sh.host.fs.stat(cand)?.type === "dir") {
          target = cand;
          print = true;
          break;
        }
      } catch {
        /* not allowed: skip */
      }
    }
  }
  let abs: string;
  try {
    abs = sh.host.resolvePath(sh.cwd, target);
  } catch (e) {
    // A path the host says is not there (no refusal): bash's own words, under `cd:`.
    const pe = e as { message?: string; denied?: unknown } | null;
    if (pe && !(e instanceof Error) && !pe.denied && typeof pe.message === "string") {
      await berr(sh, fds, "cd", `${target}: ${pe.message}`);
      return 1;
    }
    sh.pathError(fds, target, e);
    return 1;
  }
  const st = sh.host.fs.stat(abs);
  if (!st) {
    await berr(sh, fds, "cd", `${target}: No such file or directory`);
    return 1;
  }
  // a/.. needs a to exist (bash checks the logical path component by component)
  const comps = target.split("/");
  for (let k = 1; k < comps.length; k++) {
    if (comps[k] !== "..") continue;
    const prefix = comps.slice(0, k).join("/") || "/";
    try {
      const ps = sh.host.fs.stat(sh.host.resolvePath(sh.cwd, prefix));
      if (!ps || ps.type !== "dir") {
        await berr(sh, fds, "cd", `${target}: No such file or directory`);
        return 1;
      }
    } catch {
      return 1;
    }
  }
  if (st.type !== "dir") {
    await berr(sh, fds, "cd", `${target}: Not a directory`);
    return 1;
  }
  // Through a link the logical path differs from `abs`; it is what bash keeps (and shows).
  const dir = physical || !sh.host.logicalPath ? abs : sh.host.logicalPath(sh.cwd, target);
  sh.vars.set("OLDPWD", sh.vars.get("PWD") ?? sh.cwd);
  sh.vars.cell("OLDPWD").attrs |= 1;
  sh.cwd = dir;
  sh.vars.set("PWD", dir);
  if (print) await out(fds, dir + "\n");
  return 0;
}

async function pwd(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  // -P: the physical directory, every link resolved.
  const physical =
    argv
      .slice(1)
      .filter((a) => a === "-L" || a === "-P")
      .pop() === "-P";
  let dir = sh.cwd;
  if (physical) {
    try {
      dir = sh.host.resolvePath(sh.cwd, ".");
    } catch {
      /* the logical path is all there is */
    }
  }
  await out(fds, dir + "\n");
  return 0;
}

export const FLOW = {
  exit,
  return: ret,
  break: (sh: Shell, a: string[], f: Fd[]) => loopCtl(sh, a, f, true),
  continue: (sh: Shell, a: string[], f: Fd[]) => loopCtl(sh, a, f, false),
  eval: evalB,
  source,
  ".": source,
  trap,
  sleep,
  timeout,
  type,
  command,
  builtin,
  hash,
  alias,
  unalias,
  exec,
  let: letB,
  cd,
  pwd,
  true: () => 0,
  false: () => 1,
  ":": () => 0,
};
