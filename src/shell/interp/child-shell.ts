// A fresh shell in the same run: the variables it starts with (initVars, for runShell's shell too)
// and bash's command line for `bash -c`, `sh script` or `bash` reading stdin (runChildShell).
import { runInteractive, topLevelCommand } from "./interactive";
import { setOption } from "./options";
import { printScript } from "./script-dump";
import type { Fd, Shell } from "./shell";
import { InStream } from "./streams";
import { A_EXPORT, A_READONLY } from "./vars";
import { decode, encode } from "../bytes";

/** What Debian 12's bash prints for --version (the version this interpreter follows). */
const BASH_VERSION_TEXT = `GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>

This is free software; you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
`;

/** `bash -c`, `sh script`, `bash` with stdin: a fresh shell in the same run (`child`, made by the runner). */
export async function runChildShell(sh: Shell, child: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number> {
  child.rootPid = sh.rootPid;
  child.cwd = sh.cwd;
  child.fds = fds;
  const env = sh.env(tempEnv);
  initVars(child, env, sh.cwd);
  for (const name of sh.exportedFuncs) {
    const fn = sh.funcs.get(name);
    if (!fn) continue;
    child.funcs.set(name, fn);
    child.exportedFuncs.add(name);
  }
  let i = 1;
  let script: string | null = null;
  let arg0 = argv[0];
  const sets: string[] = [];
  // bash's flag parsing: -c only marks that the first operand is the command string, so
  // flags may follow it (bash -c -x 'cmd'); each o/O in a flag group takes the next word.
  let cflag = false;
  let interactive = false,
    norc = false,
    fromStdin = false,
    pretty = false;
  let dump: "strings" | "po" | undefined;
  let rcfile: string | undefined;
  const bad = async (msg: string) => {
    await fds[2]?.w?.write(encode(`${argv[0]}: ${msg}\n`)).catch(() => {});
    return 2;
  };
  while (i < argv.length) {
    const a = argv[i];
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a === "--help") {
      await fds[1]?.w
        ?.write(
          encode(
            `Usage:\t${argv[0]} [option] ...\n\t${argv[0]} [option] script-file ...\n\t${argv[0]} [option] -c command-string [name [arg ...]]\nShell options:\n\t-ilrsD or -c command\n\t-abefhkmnptuvxBCEHPT or -o option\n`,
          ),
        )
        .catch(() => {});
      return 0;
    }
    if (a === "--version") {
      await fds[1]?.w?.write(encode(BASH_VERSION_TEXT)).catch(() => {});
      return 0;
    }
    if (a === "--rcfile" || a === "--init-file") {
      rcfile = argv[i + 1];
      i += 2;
      continue;
    }
    if (a === "--restricted" || /^-[a-zA-Z]*r/.test(a))
      return bad(`${a === "--restricted" ? a : "-r"}: restricted shells are not supported in this sandbox (the policy already limits what commands may do)`);
    if (a.startsWith("--")) {
      if (
        ![
          "--norc",
          "--noprofile",
          "--posix",
          "--login",
          "--noediting",
          "--verbose",
          "--debugger",
          "--debug",
          "--pretty-print",
          "--dump-strings",
          "--dump-po-strings",
        ].includes(a)
      )
        return bad(`${a}: invalid option`);
      if (a === "--posix") sets.push("-o", "posix");
      if (a === "--norc") norc = true;
      if (a === "--verbose") sets.push("-v");
      if (a === "--pretty-print") pretty = true;
      if (a === "--dump-strings") dump = "strings";
      if (a === "--dump-po-strings") dump = "po";
      // bash looks for the bashdb debugger's start file; there is none here either
      if (a === "--debugger")
        await fds[2]?.w
          ?.write(
            encode(`${argv[0]}: /usr/share/bashdb/bashdb-main.inc: No such file or directory\n${argv[0]}: warning: cannot start debugger; debugging mode disabled\n`),
          )
          .catch(() => {});
      i++;
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(a)) {
      i++;
      for (const ch of a.slice(1)) {
        if (ch === "c") cflag = true;
        else if (ch === "i") interactive = a[0] === "-";
        else if (ch === "D") dump = "strings";
        else if (ch === "o") sets.push(a[0] + "o", argv[i++] ?? "");
        else if (ch === "O") child.shopts[argv[i++] ?? ""] = a[0] === "-";
        else if (!"ls".includes(ch)) sets.push(a[0] + ch);
      }
      continue;
    }
    break;
  }
  if (cflag) {
    if (i >= argv.length) return bad("-c: option requires an argument");
    script = argv[i++];
    child.fromC = true;
  }
  for (let k = 0; k < sets.length; k++) {
    const s = sets[k];
    if (s === "-o" || s === "+o") {
      const name = sets[++k];
      if (!setOption(child, name, s === "-o")) return bad(`${name}: invalid option name`);
      continue;
    }
    if (!setOption(child, s[1], s[0] === "-", true)) return bad(`${s}: invalid option`);
  }
  if (script !== null) {
    if (i < argv.length) arg0 = argv[i++];
    child.arg0 = arg0;
    child.positional = argv.slice(i);
  } else if (i < argv.length) {
    const file = argv[i++];
    let abs: string;
    try {
      abs = sh.host.resolvePath(sh.cwd, file);
    } catch (e) {
      await sh.err(fds, `${file}: ${(e as { message: string }).message}`);
      return 127;
    }
    const st = sh.host.fs.stat(abs);
    if (!st || st.type !== "file") {
      await fds[2]?.w?.write(encode(`${argv[0]}: ${file}: No such file or directory\n`)).catch(() => {});
      return 127;
    }
    script = decode(sh.host.fs.readFile(abs));
    child.arg0 = file;
    child.positional = argv.slice(i);
  } else {
    script = decode(await (fds[0]?.r ?? new InStream(null)).readAll());
    child.arg0 = argv[0];
    fromStdin = true;
  }
  if (dump || (pretty && !child.fromC)) return printScript(script, dump ?? "pretty", child.fromC ? "-c" : child.arg0, fds);
  let st: number;
  try {
    st = interactive
      ? await runInteractive(child, script, fds, { rcfile, norc, fromStdin })
      : await child.runScript(script, fds, 2, (text) => topLevelCommand(child, text, fds));
  } catch (e) {
    st = child.catchTop(e, fds);
  }
  st = await child.runExitTrap(st);
  return st;
}

export function initVars(sh: Shell, env: Record<string, string>, cwd: string): void {
  for (const [k, v] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) continue;
    sh.vars.frames[0].set(k, { value: v, attrs: A_EXPORT });
  }
  // an exported SHELLOPTS carries set -o options into child shells; both lists are read-only views
  for (const o of (env.SHELLOPTS ?? "").split(":")) if (o && o in sh.opts) sh.opts[o] = true;
  for (const k of ["SHELLOPTS", "BASHOPTS"]) sh.vars.frames[0].set(k, { value: "", attrs: A_READONLY | (k in env ? A_EXPORT : 0) });
  const set = (k: string, v: string) => {
    if (sh.vars.get(k) === undefined) sh.vars.set(k, v);
  };
  sh.vars.set("PWD", cwd);
  sh.vars.cell("PWD").attrs |= A_EXPORT;
  set("IFS", " \t\n");
  set("PS4", "+ ");
  set("OPTIND", "1");
  set("HOME", "/workspace");
  set("PATH", "/usr/local/bin:/usr/bin:/bin");
  set("SHELL", "/bin/bash");
  set("HOSTNAME", "toolshed");
  set("OSTYPE", "linux-gnu");
  set("MACHTYPE", "x86_64-pc-linux-gnu");
  set("HOSTTYPE", "x86_64");
  sh.vars.set("BASH_VERSION", "5.2.15(1)-release");
  sh.vars.set("BASH", "/bin/bash");
  sh.vars.setArray("BASH_VERSINFO", ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"]);
  // bash makes it readonly (`declare -ar BASH_VERSINFO`)
  const info = sh.vars.lookup("BASH_VERSINFO");
  if (info) info.attrs |= A_READONLY;
  sh.vars.set("SHLVL", "1");
}
