// Wrappers that start another command (env, nice, nohup, xargs, find -exec) are programs, and
// a program cannot start the shell or a script: those live in this interpreter. When what they
// wrap needs the shell, the shell runs the wrapper's part itself. xargs and find still decide
// which command lines to run (their options, quoting, -I, -n, `{} +`): they are run with
// `printf '%s\0' MARK CMD...` in place of CMD, and the shell runs each line they print.
import { BUILTIN_PROGRAMS } from "./builtin-programs";
import { LimitError } from "./limits";
import type { Fd, Shell } from "./shell";
import { Collector, InStream } from "./streams";
import { decode, encode } from "../bytes";

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Whether running `name` needs this interpreter: the shell itself, a script file, or a command
 * the wrapping program cannot start itself (a host command such as chmod).
 */
function needsShell(sh: Shell, name: string | undefined): boolean {
  if (name === undefined) return false;
  let command = name;
  if (name.includes("/")) {
    try {
      const abs = sh.host.resolvePath(sh.cwd, name);
      const at = sh.host.commandAt?.(abs);
      if (!at) return sh.host.fs.stat(abs)?.type === "file";
      command = at;
    } catch {
      return false;
    }
  } else if (sh.lookupCommand(name)?.kind === "script") return true;
  if (sh.isShellName(command)) return true;
  if (BUILTIN_PROGRAMS.has(command) && sh.host.hasProgram?.(command) !== true) return true;
  return sh.host.inToolbox !== undefined && sh.host.hasProgram?.(command) === true && !sh.host.inToolbox(command);
}

/** Index of the first operand after `valueOptions`-aware option parsing (GNU getopt style). */
function commandIndex(args: readonly string[], valueOptions: readonly string[]): number {
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return i + 1;
    if (!a.startsWith("-") || a === "-") break;
    if (valueOptions.includes(a)) i++;
  }
  return i;
}

async function fail(fds: Fd[], msg: string, status: number): Promise<number> {
  await fds[2]?.w?.write(encode(`${msg}\n`)).catch(() => {});
  return status;
}

/** GNU env -S: words split at blanks, with '...', "..." and backslash escapes (\\_ is a blank). */
function splitString(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'" ? c === "'" : quote === '"' ? c === '"' : false) {
      quote = "";
      continue;
    }
    if (!quote && (c === "'" || c === '"')) {
      quote = c;
      word ??= "";
      continue;
    }
    if (!quote && /\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    if (c === "\\" && quote !== "'" && i + 1 < text.length) {
      const e = text[++i]!;
      word = (word ?? "") + ({ _: " ", n: "\n", t: "\t", f: "\f", v: "\v", r: "\r" }[e] ?? e);
      continue;
    }
    word = (word ?? "") + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * env [-i] [-u NAME]... [-C DIR] [-S STRING] [NAME=VALUE]... CMD: the environment is built here
 * and CMD run by the shell, when CMD needs the shell or an option needs it (-C changes the
 * directory CMD starts in, -S splits a string into arguments). Signal dispositions mean nothing
 * here (no signal reaches a command), so --*-signal options are accepted and change nothing.
 */
async function env(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> {
  const vars = sh.env(tempEnv);
  const args = [...argv];
  let chdir: string | undefined;
  let ownOption = false;
  let debug = false;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const [flag, inline] = a.startsWith("--")
      ? [a.split("=")[0]!, a.includes("=") ? a.slice(a.indexOf("=") + 1) : undefined]
      : [a.slice(0, 2), a.length > 2 ? a.slice(2) : undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-i" || a === "--ignore-environment" || a === "-") for (const k of Object.keys(vars)) delete vars[k];
    else if (flag === "-u" || flag === "--unset") delete vars[value() ?? ""];
    else if (flag === "-C" || flag === "--chdir") {
      chdir = value();
      ownOption = true;
    } else if (flag === "-S" || flag === "--split-string") {
      const at = i;
      const words = splitString(value() ?? "");
      args.splice(at, i - at + 1, ...words);
      i = at - 1;
      ownOption = true;
    } else if (["--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"].includes(flag)) ownOption = true;
    else if (a === "-v" || a === "--debug") {
      debug = true;
      ownOption = true;
    } else if (a.startsWith("-"))
      return undefined; // -0, bundled letters: the program's own business
    else break;
  }
  for (; i < args.length && ASSIGNMENT.test(args[i]!); i++) {
    const eq = args[i]!.indexOf("=");
    vars[args[i]!.slice(0, eq)] = args[i]!.slice(eq + 1);
  }
  if (!ownOption && !needsShell(sh, args[i])) return undefined;
  if (i >= args.length) {
    if (chdir !== undefined) return fail(fds, "env: must specify command with --chdir (-C)\nTry 'env --help' for more information.", 125);
    await fds[1]?.w?.write(
      encode(
        Object.entries(vars)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(""),
      ),
    );
    return 0;
  }
  if (debug)
    await fds[2]?.w
      ?.write(
        encode(
          `executing: ${args[i]}\n${args
            .slice(i)
            .map((w, n) => `   arg[${n}]= '${w}'\n`)
            .join("")}`,
        ),
      )
      .catch(() => {});
  if (chdir === undefined) return sh.runWithEnv(args.slice(i), fds, vars);
  let dir: string;
  try {
    dir = sh.host.resolvePath(sh.cwd, chdir);
  } catch (e) {
    return fail(fds, `env: cannot change directory to '${chdir}': ${(e as Error).message}`, 125);
  }
  if (sh.host.fs.stat(dir)?.type !== "dir") return fail(fds, `env: cannot change directory to '${chdir}': No such file or directory`, 125);
  const saved = sh.cwd;
  sh.cwd = dir;
  try {
    return await sh.runWithEnv(args.slice(i), fds, vars);
  } finally {
    sh.cwd = saved;
  }
}

/** nice [-n N] CMD, nohup CMD: scheduling and hangups mean nothing here, so CMD just runs. */
async function passThrough(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> {
  const i = commandIndex(argv, sh.host.wrapperValueOptions?.(argv[0]!) ?? []);
  const first = argv[i];
  if (first === undefined || !needsShell(sh, first)) return undefined;
  return sh.runWithEnv(argv.slice(i), fds, sh.env(tempEnv));
}

/** A marker no real argument holds, per run, that starts each planned command line. */
const marker = () => `\u0001toolshed-run-${crypto.randomUUID()}\u0001`;

/**
 * Runs the program `argv` (xargs or find) with the command at `at..end` replaced by the
 * printing stand-in, and returns the command lines it would have run, or its failure status.
 */
async function plan(sh: Shell, argv: string[], at: number, fds: Fd[], tempEnv: Record<string, string> | null): Promise<{ lines: string[][]; status: number } | number> {
  const mark = marker();
  const planned = [...argv.slice(0, at), "printf", "%s\\0", mark, ...argv.slice(at)];
  const out = new Collector(sh.shared.budget.limits.maxOutputBytes, () => new LimitError("output", `${argv[0]}: too many command lines`));
  const io = { ...sh.programIo(fds, tempEnv), stdout: out };
  const running = sh.host.runProgram(planned, io);
  if (!running) return fail(fds, `${argv[0]}: command not found`, 127);
  const status = await running;
  const text = decode(out.bytes());
  const start = text.indexOf(`${mark}\0`);
  // Whatever the program printed itself (find -print before the action) goes out first.
  const own = start < 0 ? text : text.slice(0, start);
  if (own) await fds[1]?.w?.write(encode(own));
  const lines: string[][] = [];
  if (start >= 0) {
    for (const field of text.slice(start).split("\0").slice(0, -1)) {
      if (field === mark) lines.push([]);
      else lines[lines.length - 1]!.push(field);
    }
  }
  return { lines, status };
}

/** Runs one planned line as its own simple command (the deny rules are asked again). */
async function runLine(sh: Shell, line: string[], fds: Fd[]): Promise<number> {
  const denial = sh.host.checkCommand(line);
  if (denial) {
    sh.shared.denied ??= denial;
    return fail(fds, `toolshed: denied (${denial.rule}): ${denial.reason}`, 126);
  }
  // As GNU xargs and find do, the command reads nothing of the wrapper's input.
  return sh.invoke(line, [{ r: new InStream(null) }, fds[1]!, fds[2]!]);
}

async function xargs(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> {
  const valueOptions = sh.host.wrapperValueOptions?.("xargs") ?? [];
  const at = commandIndex(argv, valueOptions);
  if (!needsShell(sh, argv[at])) return undefined;
  const p = await plan(sh, argv, at, fds, tempEnv);
  if (typeof p === "number") return p;
  if (p.status !== 0) return p.status;
  // GNU xargs: 123 when a command exited 1-125, 124 (and stop) on 255, 126/127 stop at once.
  let status = 0;
  for (const line of p.lines) {
    const st = await runLine(sh, line, fds);
    if (st === 255) return fail(fds, `xargs: ${line[0]}: exited with status 255; aborting`, 124);
    if (st === 126 || st === 127) return st;
    if (st !== 0) status = 123;
  }
  return status;
}

async function find(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> {
  const actions = argv.flatMap((w, i) => (w === "-exec" || w === "-execdir" || w === "-ok" || w === "-okdir" ? [i] : []));
  const delegated = actions.filter((i) => needsShell(sh, argv[i + 1]));
  if (delegated.length === 0) return undefined;
  const at = delegated[0]!;
  let end = at + 1;
  while (end < argv.length && argv[end] !== ";" && argv[end] !== "+") end++;
  // The stand-in always succeeds and prints, so it is faithful only as the last action.
  if (argv[at] !== "-exec" || delegated.length > 1 || end < argv.length - 1) {
    return fail(
      fds,
      `find: ${argv[at]} with a shell or a script is supported only as one -exec ending the expression; put the rest of the test inside the script, or pipe find's output to xargs`,
      1,
    );
  }
  const p = await plan(sh, argv, at + 1, fds, tempEnv);
  if (typeof p === "number") return p;
  let status = p.status;
  for (const line of p.lines) {
    const st = await runLine(sh, line, fds);
    if (st !== 0 && argv[end] === "+") status = 1;
  }
  return status;
}

const DELEGATES: Record<string, (sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null) => Promise<number | undefined>> = {
  env,
  nice: passThrough,
  nohup: passThrough,
  xargs,
  find,
};

/** Runs a wrapper whose command needs the shell; undefined when the program can run it alone. */
export function runShellWrapper(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> | undefined {
  const delegate = Object.hasOwn(DELEGATES, argv[0]!) ? DELEGATES[argv[0]!] : undefined;
  return delegate?.(sh, argv, fds, tempEnv);
}
