// Wrappers that start another command (env, nice, nohup, xargs, find -exec) are programs, and
// a program cannot start the shell or a script: those live in this interpreter. When what they
// wrap needs the shell, the shell runs the wrapper's part itself. xargs and find still decide
// which command lines to run (their options, quoting, -I, -n, `{} +`): they are run with
// `printf '%s\0' MARK CMD...` in place of CMD, and the shell runs each line they print.
import { WRAPPERS } from "../../policy/commands/wrappers";
import { LimitError } from "./limits";
import type { Fd, Shell } from "./shell";
import { Collector, InStream, decode, encode } from "./streams";

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

/** env [-i] [-u NAME]... [NAME=VALUE]... CMD: the environment is built here, CMD run by the shell. */
async function env(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> {
  const vars = sh.env(tempEnv);
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") { i++; break; }
    if (a === "-i" || a === "--ignore-environment" || a === "-") for (const k of Object.keys(vars)) delete vars[k];
    else if (a === "-u" || a === "--unset") delete vars[argv[++i] ?? ""];
    else if (a.startsWith("--unset=")) delete vars[a.slice(8)];
    else if (a.startsWith("-")) return undefined; // -C, -S, ...: the program's own business
    else break;
  }
  for (; i < argv.length && ASSIGNMENT.test(argv[i]!); i++) {
    const eq = argv[i]!.indexOf("=");
    vars[argv[i]!.slice(0, eq)] = argv[i]!.slice(eq + 1);
  }
  if (!needsShell(sh, argv[i])) return undefined;
  return sh.runWithEnv(argv.slice(i), fds, vars);
}

/** nice [-n N] CMD, nohup CMD: scheduling and hangups mean nothing here, so CMD just runs. */
async function passThrough(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number | undefined> {
  const i = commandIndex(argv, WRAPPERS[argv[0]!]?.valueOptions ?? []);
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
  const valueOptions = WRAPPERS.xargs!.valueOptions ?? [];
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
    return fail(fds, `find: ${argv[at]} with a shell or a script is supported only as one -exec ending the expression; put the rest of the test inside the script, or pipe find's output to xargs`, 1);
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
