// enable, and the small builtins bash has that complete its list: times, caller, disown, logout,
// suspend. `enable` lists bash 5.2's builtins in its order; `enable -n NAME` turns one off so the
// name finds a function or a program instead (sh.disabled, copied into subshells).
import type { Fd, Shell } from "../interp/shell";
import { berr, errOut, out, parseOpts } from "./io";

/** bash 5.2's builtins, in the order `enable` lists them. */
const BASH_BUILTINS = [
  ".",
  ":",
  "[",
  "alias",
  "bg",
  "bind",
  "break",
  "builtin",
  "caller",
  "cd",
  "command",
  "compgen",
  "complete",
  "compopt",
  "continue",
  "declare",
  "dirs",
  "disown",
  "echo",
  "enable",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fc",
  "fg",
  "getopts",
  "hash",
  "help",
  "history",
  "jobs",
  "kill",
  "let",
  "local",
  "logout",
  "mapfile",
  "popd",
  "printf",
  "pushd",
  "pwd",
  "read",
  "readarray",
  "readonly",
  "return",
  "set",
  "shift",
  "shopt",
  "source",
  "suspend",
  "test",
  "times",
  "trap",
  "true",
  "type",
  "typeset",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "wait",
];
/** POSIX special builtins (`enable -s`). */
const SPECIAL = new Set([".", ":", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "source", "times", "trap", "unset"]);

const USAGE = "enable [-a] [-dnps] [-f filename] [name ...]";

export async function enable(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const p = await parseOpts(sh, fds, argv, "adnpsf:", USAGE);
  if (!p) return 2;
  const flags = new Set(p.opts.map(([o]) => o));
  if (flags.has("f") || flags.has("d")) {
    await berr(sh, fds, "enable", "loadable builtins are not supported here (no shared objects can be loaded); use a program or a shell function instead");
    return 1;
  }
  const names = argv.slice(p.i);
  const known = (n: string) => BASH_BUILTINS.includes(n) && !!sh.shared.builtins[n];
  if (!names.length || flags.has("p")) {
    // -a: all, marked by state; -n: the disabled ones; otherwise the enabled ones
    let text = "";
    for (const n of BASH_BUILTINS) {
      if (!known(n) || (flags.has("s") && !SPECIAL.has(n))) continue;
      const off = sh.disabled.has(n);
      if (flags.has("a") || off === flags.has("n")) text += off ? `enable -n ${n}\n` : `enable ${n}\n`;
    }
    if (!names.length) {
      await out(fds, text);
      return 0;
    }
  }
  let st = 0;
  for (const n of names) {
    if (!sh.shared.builtins[n]) {
      await berr(sh, fds, "enable", `${n}: not a shell builtin`);
      st = 1;
    } else if (flags.has("n")) sh.disabled.add(n);
    else sh.disabled.delete(n);
  }
  return st;
}

/** The shell's and its children's CPU times: none is measured here (as for the `time` keyword). */
export async function times(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  if (argv.length > 1 && argv[1] !== "--") {
    await berr(sh, fds, "times", `${argv[1]}: invalid option`);
    await errOut(fds, "times: usage: times\n");
    return 2;
  }
  await out(fds, "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n");
  return 0;
}

/** `caller [N]`: the line a function was called from, then its caller's name and the script. */
export async function caller(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const depth = sh.funcStack.length;
  const file = sh.fromC ? "NULL" : sh.arg0;
  if (argv.length < 2) {
    if (!depth) return 1;
    await out(fds, `${sh.callLines[depth - 1]} ${file}\n`);
    return 0;
  }
  if (!/^\d+$/.test(argv[1])) {
    await berr(sh, fds, "caller", `${argv[1]}: invalid number`);
    await errOut(fds, "caller: usage: caller [expr]\n");
    return 2;
  }
  const k = depth - 1 - Number(argv[1]);
  if (k < 0) return 1;
  await out(fds, `${sh.callLines[k]} ${k > 0 ? sh.funcStack[k - 1] : "main"} ${file}\n`);
  return 0;
}

/** `disown [-ahr] [jobspec|pid ...]`: takes jobs out of the job table (`jobs`, `wait`). */
export async function disown(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const p = await parseOpts(sh, fds, argv, "ahr", "disown [-h] [-ar] [jobspec ... | pid ...]");
  if (!p) return 2;
  const flags = new Set(p.opts.map(([o]) => o));
  const jobs = sh.shared.jobs;
  const pids = [...jobs.keys()];
  const specs = argv.slice(p.i);
  let chosen: number[];
  let st = 0;
  if (flags.has("a") || flags.has("r")) chosen = pids;
  else if (!specs.length) {
    if (!pids.length) {
      await berr(sh, fds, "disown", "current: no such job");
      return 1;
    }
    chosen = [pids[pids.length - 1]];
  } else {
    chosen = [];
    for (const s of specs) {
      const n = s.startsWith("%") ? (s === "%" || s === "%%" || s === "%+" ? pids[pids.length - 1] : pids[Number(s.slice(1)) - 1]) : Number(s);
      if (n !== undefined && jobs.has(n)) chosen.push(n);
      else {
        await berr(sh, fds, "disown", `${s}: no such job`);
        st = 1;
      }
    }
  }
  // -h keeps the job listed (it only spares it SIGHUP, which nothing sends here)
  if (!flags.has("h"))
    for (const pid of chosen) {
      const job = jobs.get(pid);
      if (job) sh.shared.disowned.add(job);
      jobs.delete(pid);
    }
  return st;
}

export async function logout(sh: Shell, _argv: string[], fds: Fd[]): Promise<number> {
  await berr(sh, fds, "logout", "not login shell: use `exit'");
  return 1;
}

export async function suspend(sh: Shell, _argv: string[], fds: Fd[]): Promise<number> {
  await berr(sh, fds, "suspend", "cannot suspend: no job control");
  return 1;
}
