// Running a command by name: a function, else a builtin, else a program: this shell (`bash`), a
// script by path or found on PATH (through bash's hash table), a shell wrapper (`env`, `nice`,
// ...), or a host program with the command's environment and file descriptors.
import type { ByteWriter } from "../host";
import { EpipeError } from "../host";
import type { Assign } from "../syntax/ast";
import { ArithError } from "../expand/arith";
import { AbortLine, ExpandError } from "../expand/word";
import { type Maybe, rescue } from "./maybe";
import { getUmask } from "./options";
import { pathError } from "./redirects";
import type { Fd, Shell } from "./shell";
import { BytesReader, InStream, NullWriter, Pipe } from "./streams";
import { decode } from "../bytes";
import { ShellError } from "./vars";
import { runShellWrapper } from "./wrappers";
import { BUILTIN_PROGRAMS } from "./builtin-programs";

/** Runs a command by name: function, builtin, this shell, a script, or a host program. */
export function invoke(sh: Shell, argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>, tempEnv?: Record<string, string> | null): Maybe<number> {
  const name = argv[0];
  const fn = sh.funcs.get(name);
  if (fn) return sh.callFunction(fn, argv, fds);
  return invokeNoFunc(sh, argv, fds, arrayArgs, tempEnv);
}

export function invokeNoFunc(
  sh: Shell,
  argv: string[],
  fds: Fd[],
  arrayArgs?: Map<number, Assign>,
  tempEnv?: Record<string, string> | null,
  builtinsOnly = false,
): Maybe<number> {
  const name = argv[0];
  const b = sh.builtin(name);
  if (b) {
    return rescue(
      () => b(sh, argv, fds, arrayArgs),
      async (e) => {
        if ((e instanceof ShellError && !(e instanceof ExpandError) && !(e instanceof AbortLine)) || e instanceof ArithError) {
          await sh.err(fds, `${name}: ${e.message}`);
          return e instanceof ShellError ? e.status : 1;
        }
        throw e;
      },
    );
  }
  if (builtinsOnly) return sh.err(fds, `builtin: ${name}: not a shell builtin`).then(() => 1);
  return runExternal(sh, argv, fds, tempEnv ?? null);
}

async function runExternal(sh: Shell, argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number> {
  const name = argv[0];
  if (isShellName(name)) return sh.runChildShell(argv, fds, tempEnv);
  if (name.includes("/")) {
    let abs: string;
    try {
      abs = sh.host.resolvePath(sh.cwd, name);
    } catch (e) {
      await sh.err(fds, `${name}: ${(e as { message: string }).message}`);
      return 126;
    }
    const command = sh.host.commandAt?.(abs);
    if (command) return runExternal(sh, [command, ...argv.slice(1)], fds, tempEnv);
    const st = sh.host.fs.stat(abs);
    if (!st) {
      await sh.err(fds, `${name}: No such file or directory`);
      return 127;
    }
    if (st.type === "dir") {
      await sh.err(fds, `${name}: Is a directory`);
      return 126;
    }
    if (st.mode !== undefined && (st.mode & 0o100) === 0) {
      await sh.err(fds, `${name}: Permission denied`);
      return 126;
    }
    const text = decode(sh.host.fs.readFile(abs));
    const first = text.split("\n", 1)[0];
    const m = /^#!\s*(\S+)(?:\s+(.*\S))?/.exec(first);
    // `#!/usr/bin/env NAME`, `#!/usr/bin/awk -f` (one optional argument, as Linux passes it).
    const viaEnv = m?.[1].endsWith("/env") ?? false;
    const interp = m ? (viaEnv ? (m[2]?.split(/\s+/)[0] ?? "") : m[1]) : "sh";
    const interpArgs = m && !viaEnv && m[2] !== undefined ? [m[2]] : [];
    const base = interp.split("/").pop() ?? "";
    if (base === "bash" || base === "sh" || base === "dash") return sh.runChildShell(["bash", name, ...argv.slice(1)], fds, tempEnv);
    const r = sh.host.runProgram([base, ...interpArgs, name, ...argv.slice(1)], programIo(sh, fds, tempEnv));
    if (r) return r;
    await sh.err(
      fds,
      `${name}: ${m?.[1] === interp ? interp : `${m?.[1]} ${interp}`}: interpreter not available in this sandbox (there is no node or perl here; python3 is); scripts can use bash or sh, and the commands in /usr/bin (awk, sed, jq, ...)`,
    );
    return 127;
  }
  const found = lookupCommand(sh, name);
  if (found && found.kind === "script") return runExternal(sh, [found.path, ...argv.slice(1)], fds, tempEnv);
  const wrapped = await runShellWrapper(sh, argv, fds, tempEnv);
  if (wrapped !== undefined) return wrapped;
  let r: Promise<number> | undefined;
  try {
    r = sh.host.runProgram(argv, programIo(sh, fds, tempEnv));
  } catch (e) {
    // the host commits pending redirect output first; a refusal there is reported, not a crash
    if ((e as { denied?: unknown } | null)?.denied) {
      pathError(sh, fds, name, e);
      return 126;
    }
    throw e;
  }
  if (!r) {
    const stand = BUILTIN_PROGRAMS.has(name) ? sh.shared.builtins[name] : undefined;
    // GNU pwd prints the physical directory unless told -L
    if (stand) return stand(sh, name === "pwd" && argv.length === 1 ? ["pwd", "-P"] : argv, fds);
    await sh.err(fds, `${name}: command not found`);
    return 127;
  }
  try {
    return await r;
  } catch (e) {
    if (e instanceof EpipeError) return 141;
    throw e;
  }
}

/** PATH search through the hash table, as bash does: a remembered path is used even if stale. */
export function lookupCommand(sh: Shell, name: string): { kind: "host" | "script"; path: string } | null {
  const path = sh.vars.get("PATH");
  if (path !== sh.hashedFor) {
    sh.hashed.clear();
    sh.hashedFor = path;
  }
  const hit = sh.hashed.get(name);
  if (hit) {
    hit.hits++;
    return hit;
  }
  const f = findInPath(sh, name);
  if (f) sh.hashed.set(name, { ...f, hits: 1 });
  return f;
}

/** PATH search: system dirs name host programs; other dirs may hold workspace scripts. */
export function findInPath(sh: Shell, name: string): { kind: "host" | "script"; path: string } | null {
  const SYSTEM = new Set(["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/sbin"]);
  const path = sh.vars.get("PATH") ?? "";
  for (const dir of path.split(":")) {
    const d = dir === "" ? "." : dir;
    // A host with a machine view lists its commands under /bin and /usr/bin itself.
    if (sh.host.commandAt) {
      try {
        if (sh.host.commandAt(sh.host.resolvePath(sh.cwd, `${d}/${name}`))) return { kind: "host", path: `${d}/${name}` };
      } catch {
        continue;
      }
    } else if (SYSTEM.has(d)) {
      if (sh.host.hasProgram?.(name)) return { kind: "host", path: `${d}/${name}` };
      continue;
    }
    try {
      const abs = sh.host.resolvePath(sh.cwd, `${d}/${name}`);
      if (sh.host.fs.stat(abs)?.type === "file") return { kind: "script", path: d.includes("/") || d === "." ? `${d}/${name}` : `./${d}/${name}` };
    } catch {
      // outside the allowed area: not searched
    }
  }
  return null;
}

export function isShellName(name: string): boolean {
  return name === "bash" || name === "sh" || name === "/bin/bash" || name === "/bin/sh" || name === "/usr/bin/bash" || name === "/usr/bin/env bash";
}

/** Runs a command outside the shell (a script, the shell, a program) with exactly `env`. */
export async function runWithEnv(sh: Shell, argv: string[], fds: Fd[], env: Record<string, string>): Promise<number> {
  const saved = sh.envOverride;
  sh.envOverride = env;
  try {
    return await runExternal(sh, argv, fds, null);
  } finally {
    sh.envOverride = saved;
  }
}

export function env(sh: Shell, tempEnv: Record<string, string> | null): Record<string, string> {
  if (sh.envOverride) return { ...sh.envOverride };
  const e = sh.vars.exported();
  if (tempEnv) Object.assign(e, tempEnv);
  return e;
}

export function programIo(sh: Shell, fds: Fd[], tempEnv: Record<string, string> | null) {
  return {
    cwd: sh.cwd,
    env: env(sh, tempEnv),
    stdin: fds[0]?.r ?? new InStream(null),
    stdout: fds[1]?.w ?? new NullWriter(),
    stderr: fds[2]?.w ?? new NullWriter(),
    limits: sh.shared.budget.limits,
    umask: getUmask(sh),
    extraFds: extraFds(sh, fds),
    extraWriters: extraWriters(sh),
  };
}

/** Readable fds above 2, plus <(...) outputs under their /dev/fd numbers. */
function extraFds(sh: Shell, fds: Fd[]): Record<number, InStream> {
  const out: Record<number, InStream> = {};
  fds.forEach((f, i) => {
    if (i > 2 && f?.r) out[i] = f.r;
  });
  for (const [p, v] of sh.shared.procFiles) {
    if (v instanceof Uint8Array) out[Number(p.slice(8))] = new InStream(new BytesReader(v));
  }
  return out;
}

/** >(...) pipes under their /dev/fd numbers, for programs that write to them. */
function extraWriters(sh: Shell): Record<number, ByteWriter> {
  const out: Record<number, ByteWriter> = {};
  for (const [p, v] of sh.shared.procFiles) if (v instanceof Pipe) out[Number(p.slice(8))] = v.writer;
  return out;
}
