/**
 * The command deny rules, as data. Each rule looks at one simple command after the shell
 * has expanded it (argv[0] compared by basename, so `/bin/rm` is `rm`). Wrapped commands
 * (`nice rm ...`) are unwrapped by index.ts and judged by the same list.
 */
import {
  basename,
  isBlockDeviceAbs,
  isDotEnvName,
  isProcEnvironPath,
  isProtectedTarget,
  isRunSecretsPath,
  pathCandidates,
  resolveArg,
  type ResolvedContext,
} from "./paths";
import { unwrap, WRAPPERS } from "./wrappers";

interface Cmd {
  /** Basename of argv[0]. */
  name: string;
  /** argv without argv[0]. */
  args: readonly string[];
  argv: readonly string[];
  /** The path-like strings of the arguments, resolved once and shared by every path rule. */
  paths?: readonly { abs: string; raw: string }[];
}

export interface CommandRule {
  id: string;
  /** Said to the agent: what was refused, why, and what to do instead. */
  reason: string;
  matches(cmd: Cmd, ctx: ResolvedContext): boolean;
}

/** Words after the options (`-x`, `--long`), honouring `--`. */
function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let opts = true;
  for (const a of args) {
    if (opts && a === "--") opts = false;
    else if (opts && a.startsWith("-") && a !== "-") continue;
    else out.push(a);
  }
  return out;
}

/** `--rec` is GNU's unambiguous abbreviation of `--recursive`. */
const isLong = (arg: string, full: string): boolean => arg.length >= 3 && full.startsWith(arg);

function rmRoot({ name, args }: Cmd, ctx: ResolvedContext): boolean {
  if (name !== "rm") return false;
  let recursive = false;
  let opts = true;
  const targets: string[] = [];
  for (const a of args) {
    if (opts && a === "--") opts = false;
    else if (opts && a.startsWith("--")) {
      if (isLong(a, "--no-preserve-root")) return true;
      if (isLong(a, "--recursive")) recursive = true;
    } else if (opts && a.startsWith("-") && a !== "-") {
      if (/[rR]/.test(a)) recursive = true;
    } else targets.push(a);
  }
  return recursive && targets.some((t) => isProtectedTarget(t, ctx));
}

// Windows tools may arrive as `FORMAT.COM` or `diskpart.exe`.
const isWindowsTool = (name: string, tool: string): boolean => {
  const n = name.toLowerCase();
  return n === tool || n === `${tool}.exe` || n === `${tool}.com`;
};

const MKFS = new Set(["mkfs", "mke2fs", "mkdosfs", "mkswap", "wipefs"]);

// These only look at a device node's metadata; anything else given a disk may write to it.
const DEVICE_INSPECTORS = new Set(["ls", "stat", "file", "lsblk", "blkid", "readlink", "realpath", "test", "["]);

const POWER_COMMANDS = new Set(["shutdown", "reboot", "poweroff", "halt", "telinit", "kexec"]);
const POWER_VERBS = new Set([
  "poweroff",
  "reboot",
  "halt",
  "kexec",
  "soft-reboot",
  "suspend",
  "hibernate",
  "hybrid-sleep",
  "suspend-then-hibernate",
  "rescue",
  "emergency",
]);
const POWER_TARGET = /^(poweroff|reboot|halt|kexec|shutdown|rescue|emergency|soft-reboot)\.target$/;
const START_VERBS = new Set(["start", "isolate", "restart", "try-restart", "reload-or-restart", "enqueue-marked-jobs"]);

function power({ name, args }: Cmd): boolean {
  if (POWER_COMMANDS.has(name)) return true;
  if (name !== "init" && name !== "loginctl" && name !== "systemctl") return false;
  const ops = operands(args);
  if (name === "init") return ops.some((o) => /^[0-6sS]$/.test(o));
  if (name === "loginctl") return POWER_VERBS.has(ops[0] ?? "");
  if (name !== "systemctl") return false;
  const verb = ops[0] ?? "";
  return POWER_VERBS.has(verb) || (START_VERBS.has(verb) && ops.slice(1).some((u) => POWER_TARGET.test(u)));
}

/** pid 1 is init; -1 means every process the caller may signal. Signal 0 only probes. */
function killInit({ name, args }: Cmd): boolean {
  if (name === "killall5") return true;
  if (name === "pkill" || name === "killall") return processPatterns(name, args).some((re) => re.test("init") || re.test("systemd"));
  if (name !== "kill") return false;
  let i = 0;
  let signal = "";
  const first = args[0] ?? "";
  if (["-l", "-L", "--list", "--table"].includes(first)) return false;
  if (["-s", "-n", "--signal"].includes(first)) {
    signal = args[1] ?? "";
    i = 2;
  } else if (first.startsWith("-") && first !== "--" && first.length > 1) {
    signal = first.slice(1);
    i = 1;
  }
  if (args[i] === "--") i++;
  if (/^(0|SIG0)$/i.test(signal)) return false;
  return args.slice(i).some((pid) => /^\s*[-+]?0*1\s*$/.test(pid));
}

// pkill matches a regular expression against process names; killall takes exact names unless -r.
const PKILL_VALUE_OPTS = new Set([
  "-g",
  "-G",
  "-P",
  "-s",
  "-t",
  "-u",
  "-U",
  "-F",
  "--signal",
  "--ns",
  "--nslist",
  "--pgroup",
  "--group",
  "--parent",
  "--session",
  "--terminal",
  "--euid",
  "--uid",
  "--pidfile",
]);
function processPatterns(name: string, args: readonly string[]): RegExp[] {
  const regex = name === "pkill" || args.some((a) => a === "-r" || a === "--regexp");
  const out: RegExp[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith("-")) {
      if (
        PKILL_VALUE_OPTS.has(a) ||
        (name === "killall" && ["-u", "--user", "-s", "--signal", "-o", "-y", "--older-than", "--younger-than", "-n", "--ns", "-Z", "--context"].includes(a))
      )
        i++;
      continue;
    }
    if (!regex) out.push(new RegExp(`^${a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    else {
      try {
        out.push(new RegExp(a));
      } catch {
        // An invalid pattern kills nothing.
      }
    }
  }
  return out;
}

const AGENT_UNIT = /^(toolshed|baal-agent)([-.@].*)?$/i;
const STOP_VERBS = new Set(["stop", "kill", "disable", "mask", "restart", "try-restart", "reload-or-restart", "freeze", "clean", "force-stop", "down", "exit", "zap"]);

function stopAgent({ name, args }: Cmd): boolean {
  // Every command passes here: operands are split only for the few names that need them.
  if (name === "systemctl") {
    const ops = operands(args);
    return STOP_VERBS.has(ops[0] ?? "") && ops.slice(1).some((u) => AGENT_UNIT.test(u));
  }
  // service NAME VERB, rc-service NAME VERB, sv VERB NAME
  if (name === "service" || name === "rc-service") {
    const ops = operands(args);
    return AGENT_UNIT.test(ops[0] ?? "") && STOP_VERBS.has(ops[1] ?? "");
  }
  if (name === "sv") {
    const ops = operands(args);
    return STOP_VERBS.has(ops[0] ?? "") && ops.slice(1).some((u) => AGENT_UNIT.test(basename(u)));
  }
  if (name === "pkill" || name === "killall") return processPatterns(name, args).some((re) => re.test("toolshed") || re.test("baal-agent"));
  return false;
}

const isHelp = (args: readonly string[]): boolean => args.some((a) => a === "--help" || a === "--version");

/** Commands that list variables rather than set or run something. */
function envDump(cmd: Cmd, ctx: ResolvedContext): boolean {
  const { name, args } = cmd;
  switch (name) {
    case "env":
      return !isHelp(args) && unwrap(cmd.argv, ctx).length === 0;
    case "printenv":
      return !isHelp(args) && operands(args).length === 0;
    case "set":
      return args.length === 0;
    case "export":
      return operands(args).length === 0;
    case "declare":
    case "typeset": {
      // `declare -f` lists functions, not variables; `declare -p NAME` shows one variable.
      const flags = args.filter((a) => a.startsWith("-") || a.startsWith("+")).join("");
      return operands(args).length === 0 && !/[fF]/.test(flags);
    }
    case "ps":
      // BSD-style `ps e` / `ps auxe` prints each process's environment.
      return /^[A-Za-z]*e[A-Za-z]*$/.test(args[0] ?? "");
    default:
      return false;
  }
}

// Commands that never open their arguments: printing or naming a path here reads nothing.
const NON_ACCESSING = new Set([
  "echo",
  "printf",
  ":",
  "true",
  "false",
  "test",
  "[",
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "unset",
  "alias",
  "let",
  "type",
  "which",
  "hash",
]);
// Their first operand is a pattern or script, not a file (unless -e/-f supply it).
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk", "jq"]);

/** The arguments that may name files: all of them, minus patterns, pure printing and wrapped commands. */
function fileArgs({ name, args, argv }: Cmd, ctx: ResolvedContext): string[] {
  if (NON_ACCESSING.has(name)) return [];
  let list = [argv[0] ?? "", ...args];
  // `env echo .env`: the wrapped command is judged on its own, so drop it from the wrapper's words.
  if (Object.hasOwn(WRAPPERS, name)) {
    const wrapped = unwrap(argv, ctx).at(-1) ?? [];
    const tail = list.slice(list.length - wrapped.length);
    if (wrapped.length > 0 && tail.every((w, k) => w === wrapped[k])) list = list.slice(0, list.length - wrapped.length);
  }
  if (!PATTERN_FIRST.has(name)) return list;
  const patternByOption = args.some((a) => /^-[A-Za-z]*[ef]/.test(a) || /^--(regexp|file|from-file)/.test(a));
  if (patternByOption) return list;
  let opts = true;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (opts && a === "--") opts = false;
    else if (!(opts && a.startsWith("-") && a !== "-")) return list.filter((_, j) => j !== k + 1);
  }
  return list;
}

function anyPath(cmd: Cmd, ctx: ResolvedContext, test: (abs: string, raw: string) => boolean): boolean {
  if (!cmd.paths) {
    const paths: { abs: string; raw: string }[] = [];
    for (const arg of fileArgs(cmd, ctx)) {
      for (const raw of pathCandidates(arg)) {
        const abs = resolveArg(raw, ctx);
        if (abs !== null) paths.push({ abs, raw });
      }
    }
    cmd.paths = paths;
  }
  return cmd.paths.some((p) => test(p.abs, p.raw));
}

export const COMMAND_RULES: readonly CommandRule[] = [
  {
    id: "rm-root",
    reason:
      "Refused: recursive removal of /, a top-level directory (such as /workspace itself) or the home directory would wipe the system or the whole session. Remove the specific files or subdirectories you mean, e.g. `rm -rf ./build`, or empty the workspace with `rm -rf /workspace/*`.",
    matches: rmRoot,
  },
  {
    id: "mkfs",
    reason: "Refused: creating or wiping a filesystem (mkfs, mkfs.*, mke2fs, mkswap, wipefs) destroys a disk's contents. Work with files in the workspace instead.",
    matches: ({ name }) => MKFS.has(name) || name.startsWith("mkfs."),
  },
  {
    id: "format",
    reason: "Refused: `format` erases a disk. Work with files in the workspace instead.",
    matches: ({ name }) => isWindowsTool(name, "format"),
  },
  {
    id: "diskpart",
    reason: "Refused: `diskpart` repartitions disks. Work with files in the workspace instead.",
    matches: ({ name }) => isWindowsTool(name, "diskpart"),
  },
  {
    id: "dd-if",
    reason:
      "Refused: `dd if=...` copies raw devices and images and is blocked outright. To copy files use `cp`; to make a file of a given size use `truncate -s SIZE FILE`.",
    matches: ({ name, args }) => name === "dd" && args.some((a) => a.startsWith("if=")),
  },
  {
    id: "block-device-write",
    reason:
      "Refused: this command would read or write a disk device (/dev/sd*, /dev/nvme*, ...) directly; writing destroys its data. Work with files in the workspace instead.",
    matches: (cmd, ctx) => !DEVICE_INSPECTORS.has(cmd.name) && anyPath(cmd, ctx, isBlockDeviceAbs),
  },
  {
    id: "shutdown",
    reason:
      "Refused: shutting down, rebooting or halting the machine (shutdown, reboot, poweroff, halt, init 0/6, systemctl poweroff) is not allowed. End your task normally instead.",
    matches: power,
  },
  {
    id: "kill-init",
    reason:
      "Refused: signalling pid 1 or -1 (every process), or killing init/systemd by name, would take down the whole sandbox. Kill your own processes by their pid instead.",
    matches: killInit,
  },
  {
    id: "stop-agent",
    reason: "Refused: stopping, disabling or killing the agent service (toolshed, baal-agent) would end this session. Leave the service running.",
    matches: stopAgent,
  },
  {
    id: "env-dump",
    reason:
      'Refused: dumping all environment variables (env, printenv, set, export -p, declare -x/-p with no names, ps e) is blocked. Read one variable by name instead, e.g. `printenv PATH` or `echo "$HOME"`.',
    matches: envDump,
  },
  {
    id: "proc-environ",
    reason: "Refused: /proc/*/environ exposes a process's environment. Read one variable by name instead, e.g. `printenv PATH`.",
    matches: (cmd, ctx) => anyPath(cmd, ctx, isProcEnvironPath),
  },
  {
    id: "dotenv",
    reason:
      "Refused: .env files (.env, .env.local, ...) hold secrets and may not be read, copied, listed or edited. Ask the user for the values you need; keep a template under another name such as env.example.",
    // (a resolved path has no trailing slash: its last component follows the last "/")
    matches: (cmd, ctx) => anyPath(cmd, ctx, (abs) => isDotEnvName(abs.slice(abs.lastIndexOf("/") + 1))),
  },
  {
    id: "run-secrets",
    reason: "Refused: /run/secrets holds mounted secrets and may not be accessed. Ask the user for the values you need.",
    matches: (cmd, ctx) => anyPath(cmd, ctx, isRunSecretsPath),
  },
];

// Programs that open network connections of their own; `git` only for the verbs that talk to a
// remote, `rsync` only with a remote operand (`host:path`, `rsync://`).
const NETWORK_COMMANDS = new Set(["curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "sftp", "telnet", "ftp"]);
const GIT_REMOTE_VERBS = new Set(["clone", "fetch", "pull", "push", "ls-remote", "remote", "submodule"]);
// git's global options that take the next word as their value (`git -C repo fetch`).
const GIT_VALUE_OPTS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

function gitVerb(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (GIT_VALUE_OPTS.has(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return "";
}

/**
 * Rules that only some profiles enforce (see ../rule-sets.ts); `checkCommand` without a rule
 * set does not apply them.
 */
export const OPTIONAL_RULES: readonly CommandRule[] = [
  {
    id: "shell-network",
    reason:
      "Refused: the shell has no network access in this session's profile (network is off by default). Work with files in the workspace; the operator can enable it with TOOLSHED_SHELL_NETWORK=1.",
    matches: ({ name, args }) =>
      NETWORK_COMMANDS.has(name) || (name === "git" && GIT_REMOTE_VERBS.has(gitVerb(args))) || (name === "rsync" && operands(args).some((a) => /^[^/]*:/.test(a))),
  },
];
