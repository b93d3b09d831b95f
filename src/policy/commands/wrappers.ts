/**
 * Commands that run another command. The rules look through them, so `nice rm -rf /`
 * is judged as `rm -rf /`. Each entry says how to find the wrapped argv; the table is data
 * so a reader can see at a glance which wrappers are understood.
 */
import { splitCommandLine } from "./cmdline";
import { basename, isProtectedTarget, resolveArg, type ResolvedContext } from "./paths";

export interface WrapperSpec {
  /** Options that take the next argument as their value (`-n 5`); `-n5`/`--opt=v` are handled too. */
  valueOptions?: readonly string[];
  /** Operands between the options and the wrapped command (timeout's DURATION, chroot's NEWROOT). */
  leadingOperands?: number;
  /** Options after which no command runs (`command -v rm` only prints where rm is). */
  noCommandWith?: readonly string[];
  /** Options whose value is a whole command line (`su -c 'rm -rf /'`, `env -S`). */
  commandStringOptions?: readonly string[];
  /** Skip `NAME=value` operands before the command (env). */
  assignments?: boolean;
  /** The command can only be given through a command-string option (su). */
  stringCommandOnly?: boolean;
  /** The command is given as words that the wrapper joins and hands to `sh -c` (watch). */
  joinsWords?: boolean;
}

// Shells read their command from `-c STRING`; the words after it are $0, $1, ... not commands.
const SHELL_STRING: WrapperSpec = { commandStringOptions: ["-c"], stringCommandOnly: true };

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    valueOptions: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
    commandStringOptions: ["-S", "--split-string"],
    assignments: true,
  },
  command: { noCommandWith: ["-v", "-V"] },
  builtin: {},
  exec: { valueOptions: ["-a"] },
  nohup: {},
  nice: { valueOptions: ["-n", "--adjustment"] },
  ionice: { valueOptions: ["-c", "--class", "-n", "--classdata"], noCommandWith: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"] },
  timeout: { valueOptions: ["-s", "--signal", "-k", "--kill-after"], leadingOperands: 1 },
  stdbuf: { valueOptions: ["-i", "--input", "-o", "--output", "-e", "--error"] },
  time: { valueOptions: ["-f", "--format", "-o", "--output"] },
  setsid: {},
  chroot: { valueOptions: ["--userspec", "--groups"], leadingOperands: 1 },
  taskset: { leadingOperands: 1, noCommandWith: ["-p", "--pid"] },
  sudo: {
    valueOptions: [
      "-u",
      "--user",
      "-g",
      "--group",
      "-C",
      "--close-from",
      "-D",
      "--chdir",
      "-h",
      "--host",
      "-p",
      "--prompt",
      "-r",
      "--role",
      "-t",
      "--type",
      "-T",
      "--command-timeout",
      "-U",
      "--other-user",
    ],
    noCommandWith: ["-l", "--list", "-v", "--validate", "-K", "--remove-timestamp", "-e", "--edit"],
  },
  doas: { valueOptions: ["-u", "-C"] },
  su: { valueOptions: ["-g", "--group", "-G", "--supp-group", "-s", "--shell"], commandStringOptions: ["-c", "--command"], stringCommandOnly: true },
  runuser: { valueOptions: ["-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell"], commandStringOptions: ["-c", "--command"] },
  busybox: {},
  // The shell parses eval's words itself; reading them here too keeps a wrapped `eval` honest.
  eval: { joinsWords: true },
  watch: { valueOptions: ["-n", "--interval", "-q", "--equexit"], joinsWords: true },
  flock: { valueOptions: ["-w", "--timeout", "-E", "--conflict-exit-code"], leadingOperands: 1, commandStringOptions: ["-c", "--command"] },
  sh: SHELL_STRING,
  bash: SHELL_STRING,
  dash: SHELL_STRING,
  zsh: SHELL_STRING,
  ksh: SHELL_STRING,
  ash: SHELL_STRING,
  xargs: {
    valueOptions: [
      "-a",
      "--arg-file",
      "-d",
      "--delimiter",
      "-E",
      "-I",
      "-L",
      "--max-lines",
      "-n",
      "--max-args",
      "-P",
      "--max-procs",
      "-s",
      "--max-chars",
      "--process-slot-var",
    ],
  },
};

/** Which option `arg` is, if it names one of `names` (`-n`, `-n5`, `--adjustment=5`). */
function optionName(arg: string, names: readonly string[]): string | undefined {
  return names.find((n) => arg === n || (n.startsWith("--") ? arg.startsWith(`${n}=`) : arg.startsWith(n) && arg.length > n.length && !arg.startsWith("--")));
}

function optionValue(args: readonly string[], k: number, names: readonly string[]): { opt: string; value: string | undefined } | undefined {
  const a = args[k]!;
  const opt = optionName(a, names);
  if (opt === undefined) return undefined;
  if (a === opt) return { opt, value: args[k + 1] };
  return { opt, value: a.startsWith("--") ? a.slice(opt.length + 1) : a.slice(opt.length) };
}

function unwrapGeneric(spec: WrapperSpec, args: readonly string[]): string[][] {
  const inner: string[][] = [];
  // A command-string option may come anywhere: `su - root -c 'cmd'`, `flock FILE -c 'cmd'`.
  const strings = spec.commandStringOptions ?? [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === "--") break;
    const a = args[k]!;
    // A flag cluster ending in the letter (`bash -ec 'cmd'`, `su -lc 'cmd'`) takes the next word.
    const clustered = /^-[A-Za-z]{2,}$/.test(a) && strings.some((n) => /^-[A-Za-z]$/.test(n) && a.endsWith(n[1]!));
    const hit = clustered ? { value: args[k + 1] } : optionValue(args, k, strings);
    if (hit?.value !== undefined) inner.push(...splitCommandLine(hit.value));
  }
  if (spec.stringCommandOnly) return inner;
  const values = spec.valueOptions ?? [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const hit = optionValue(args, i, values);
    if (hit !== undefined) {
      if (hit.value !== undefined && a === hit.opt) i++;
      continue;
    }
    // `command -pv rm`: a flag cluster containing a no-command flag also runs nothing.
    const cluster = !a.startsWith("--") ? a.slice(1) : "";
    if (spec.noCommandWith?.some((n) => a === n || (!n.startsWith("--") && cluster.includes(n.slice(1))))) return inner;
  }
  if (spec.assignments) while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!)) i++;
  i += spec.leadingOperands ?? 0;
  const rest = args.slice(i);
  if (rest.length === 0 || strings.includes(rest[0]!)) return inner;
  if (spec.joinsWords) return [...inner, ...splitCommandLine(rest.join(" "))];
  // env -S 'a b' c: the split string comes first, then the remaining operands.
  if (spec.assignments && inner.length > 0) inner[inner.length - 1]!.push(...rest);
  else inner.push(rest);
  return inner;
}

const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
// Expression words that do not narrow which files an action applies to.
const FIND_NON_FILTERS = new Set(["-depth", "-xdev", "-mount", "-follow", "-noleaf", "-ignore_readdir_race", "-maxdepth", "-mindepth", "-print", "-delete", "-print0"]);

/**
 * `find START... -exec CMD {} ;` runs CMD per file; `-delete` removes like `rm -r`.
 * The first file find visits is START itself, so `{}` becomes START when START is `/`,
 * or when START is another protected place and no test narrows the match.
 */
function unwrapFind(args: readonly string[], ctx: ResolvedContext): string[][] {
  let i = 0;
  while (i < args.length && ["-H", "-L", "-P"].includes(args[i]!)) i++;
  const starts: string[] = [];
  while (i < args.length && !args[i]!.startsWith("-") && args[i] !== "(" && args[i] !== "!") starts.push(args[i++]!);
  const expr = args.slice(i);
  let filtered = false;
  let skipsStart = false;
  for (let j = 0; j < expr.length; j++) {
    const w = expr[j]!;
    if (FIND_ACTIONS.has(w)) break;
    if (w.startsWith("-") && !FIND_NON_FILTERS.has(w)) filtered = true;
    if (w === "-mindepth" && Number(expr[j + 1]) >= 1) skipsStart = true;
    if (w === "-maxdepth" || w === "-mindepth") j++;
  }
  const wholeTree = starts.filter((s) => resolveArg(s, ctx) === "/" || (!filtered && isProtectedTarget(s, ctx)));
  // GNU find never deletes `.` itself, nor a start below -mindepth: that empties the folder, as `rm -r START/*` does.
  const removal = (s: string) => (skipsStart || /(^|\/)\.\/*$/.test(s) ? `${s.replace(/\/+$/, "")}/*` : s);
  const inner: string[][] = [];
  for (let j = 0; j < expr.length; j++) {
    const w = expr[j]!;
    if (w === "-delete") for (const s of wholeTree) inner.push(["rm", "-r", removal(s)]);
    if (!FIND_ACTIONS.has(w)) continue;
    const cmd: string[] = [];
    for (j++; j < expr.length && expr[j] !== ";" && expr[j] !== "+"; j++) cmd.push(expr[j]!);
    if (cmd.length === 0) continue;
    inner.push(cmd);
    for (const s of wholeTree) inner.push(cmd.map((a) => (a === "{}" ? (skipsStart ? removal(s) : s) : a)));
  }
  return inner;
}

/**
 * The commands that `argv` would run on its behalf (empty when it wraps nothing).
 * `env` with no command is returned as wrapping nothing; the env-dump rule handles it.
 */
export function unwrap(argv: readonly string[], ctx: ResolvedContext): string[][] {
  const name = basename(argv[0] ?? "");
  if (name === "find") return unwrapFind(argv.slice(1), ctx);
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  return spec ? unwrapGeneric(spec, argv.slice(1)) : [];
}
