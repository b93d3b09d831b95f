import { WASI, WASIProcExit } from "@bjorn3/browser_wasi_shim";
import type { Fd } from "@bjorn3/browser_wasi_shim";
import { PolicyDenied, type Denial } from "../policy/denied";
import type { GuardedFs } from "../vfs/guarded-fs";
import { ROOT } from "../vfs/paths";
import { WasiFsContext } from "./fs/context";
import { DevDirFd } from "./fs/dev-fd";
import { WorkspaceDirFd } from "./fs/dir-fd";
import { WorkspaceFileFd } from "./fs/file-fd";
import { RunStopped, buildImports } from "./imports";
import { TOOLSHED_MODULE, buildToolshedImports } from "./toolshed-imports";
import { OutputFd, StdinFd } from "./stdio";

export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** The isolate has 128 MB for JS and every Wasm memory together. */
export const DEFAULT_MAX_MEMORY_BYTES = 64 * 1024 * 1024;
/** Syscalls one run may make: a work budget that holds where the clock stands still. */
export const DEFAULT_MAX_SYSCALLS = 5_000_000;
/**
 * Metered steps (function entries + loop iterations, counted by the `toolshed_fuel` global that
 * wasm/meter adds) one run may take. `sort` of three lines is ~560 steps; 12 MB sorts in well
 * under this.
 */
export const DEFAULT_MAX_STEPS = 1_000_000_000;
/** The global wasm/meter exports; a module without it runs unmetered (syscall budget only). */
const FUEL_EXPORT = "toolshed_fuel";

export const EXIT_TRAP = 134; // as a process killed by SIGABRT
export const EXIT_KILLED = 137; // as a process killed by SIGKILL (a limit stopped it)
export const EXIT_BAD_RUN = 126; // the run could not start ("cannot execute")

export interface WasiLimits {
  maxOutputBytes?: number;
  maxMemoryBytes?: number;
  maxSyscalls?: number;
  /** Only for modules metered by wasm/meter. */
  maxSteps?: number;
}

export interface WasiRunOptions {
  argv: string[];
  env: Record<string, string>;
  /** Absolute workspace directory; relative paths start here (the program gets it as $PWD). */
  cwd: string;
  fs: GuardedFs;
  /** The session's command rule set, for commands a program runs in-process (xargs, find -exec). */
  commandRules?: ReadonlySet<string>;
  stdin?: Uint8Array;
  /** The caller's other open fds (3 and up), captured; the program reads them as /dev/fd/N. */
  fdFiles?: Record<number, Uint8Array>;
  /** Writable fds of the caller (3 and up); what the program writes to /dev/fd/N comes back in `fdOutputs`. */
  fdSinks?: number[];
  limits?: WasiLimits;
  /** File-creation mask for what the program creates (default 022). */
  umask?: number;
}

export interface WasiRunResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** What the program wrote to each of `fdSinks` (only those written to). */
  fdOutputs?: Record<number, Uint8Array>;
  /** The first policy refusal the program ran into (it saw EACCES/EPERM). */
  denied?: Denial;
  /** Why the run ended abnormally or was cut short, for the caller (not the program's own words). */
  error?: string;
  /** Work done, for metering: syscalls, final linear memory, metered steps (if metered). */
  stats: { syscalls: number; memoryBytes: number; steps?: number };
}

interface Outcome {
  exitCode: number;
  /** A normal end (exit or return): open files are committed like an OS closing them. */
  clean: boolean;
  error?: string;
  stderrNote?: string;
}

const mib = (n: number) => `${Math.round((n / 1048576) * 10) / 10} MiB`;

function failed(error: string, stderr: string, denied?: Denial): WasiRunResult {
  return {
    exitCode: EXIT_BAD_RUN,
    stdout: new Uint8Array(0),
    stderr: new TextEncoder().encode(stderr.endsWith("\n") ? stderr : `${stderr}\n`),
    denied,
    error,
    stats: { syscalls: 0, memoryBytes: 0 },
  };
}

/** Checks cwd and env before anything runs; returns a reason when they are unusable. */
function checkInputs(opts: WasiRunOptions): { error: string; denied?: Denial } | { envList: string[] } {
  if (opts.argv.length === 0 || typeof opts.argv[0] !== "string") {
    return { error: "argv must hold at least the program name (argv[0])" };
  }
  if (opts.argv.some((a) => a.includes("\0"))) return { error: "arguments may not contain NUL bytes" };
  try {
    if (opts.fs.resolve(ROOT, opts.cwd) !== opts.cwd) {
      return { error: `cwd must be an absolute, normalized workspace path (got '${opts.cwd}')` };
    }
  } catch (e) {
    if (e instanceof PolicyDenied) return { error: `cwd '${opts.cwd}' is refused: ${e.denial.reason}`, denied: e.denial };
    throw e;
  }
  if (opts.fs.stat(opts.cwd)?.kind !== "dir") return { error: `cwd '${opts.cwd}' is not a directory in the workspace` };
  const envList: string[] = [];
  for (const [k, v] of Object.entries({ ...opts.env, PWD: opts.cwd })) {
    if (k === "" || k.includes("=") || k.includes("\0") || v.includes("\0")) {
      return { error: `environment variable name '${k}' is not valid (empty, or contains '=' or NUL)` };
    }
    envList.push(`${k}=${v}`);
  }
  return { envList };
}

/** What ended the program, from what `start` threw. */
function classify(e: unknown, argv0: string): Outcome {
  if (e instanceof WASIProcExit) return { exitCode: e.code, clean: true };
  if (e instanceof RunStopped) {
    return { exitCode: e.exitCode, clean: false, error: e.message, stderrNote: `${argv0}: killed: ${e.message}\n` };
  }
  // Traps (unreachable, out-of-bounds, a failed allocation that aborts) and stack exhaustion.
  if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError) {
    const what = e.message || "trap";
    return {
      exitCode: EXIT_TRAP,
      clean: false,
      error: `the program crashed (WebAssembly trap: ${what})`,
      stderrNote: `${argv0}: crashed: WebAssembly trap: ${what}\n`,
    };
  }
  const what = e instanceof Error ? e.message : String(e);
  return { exitCode: EXIT_TRAP, clean: false, error: `the runtime failed: ${what}`, stderrNote: `${argv0}: runtime error: ${what}\n` };
}

/**
 * Runs one WASI command to completion against the workspace, synchronously. The workspace is
 * preopened as `/workspace` (only that: a "." preopen makes wasi-libc map any absolute path such
 * as /etc/passwd onto the cwd); programs resolve relative paths against $PWD, which is set to
 * `cwd`. Nothing the program does can throw out of here: traps, limits and host faults all come
 * back as an exit code with `error` saying why.
 */
export function runWasi(program: WebAssembly.Module, opts: WasiRunOptions): WasiRunResult {
  const checked = checkInputs(opts);
  if ("error" in checked) return failed(checked.error, `${opts.argv[0] ?? "wasi"}: ${checked.error}`, checked.denied);

  const limits = {
    maxOutputBytes: opts.limits?.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxMemoryBytes: opts.limits?.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES,
    maxSyscalls: opts.limits?.maxSyscalls ?? DEFAULT_MAX_SYSCALLS,
    maxSteps: opts.limits?.maxSteps ?? DEFAULT_MAX_STEPS,
  };
  const ctx = new WasiFsContext(opts.fs, opts.umask);
  return execute(program, opts.argv, checked.envList, opts.stdin, limits, ctx, opts.cwd, opts.fdFiles, opts.fdSinks, opts.commandRules);
}

/**
 * Runs a program that needs no files (no preopen at all), e.g. `toolbox --list`. Used at
 * startup to ask bundled programs about themselves; never for user commands.
 */
export function runDetached(program: WebAssembly.Module, argv: string[]): WasiRunResult {
  const limits = { maxOutputBytes: 1024 * 1024, maxMemoryBytes: DEFAULT_MAX_MEMORY_BYTES, maxSyscalls: 100_000, maxSteps: 10_000_000 };
  return execute(program, argv, [], undefined, limits, null, ROOT);
}

/** Modes for the `toolshed` imports, through the same policy as every other file access. */
function fileModes(ctx: WasiFsContext, cwd: string): NonNullable<Parameters<typeof buildToolshedImports>[1]["modes"]> {
  const at = (path: string) => ctx.fs.resolve(cwd, path);
  return {
    get: (path) => {
      try {
        return ctx.fs.mustStat(at(path)).mode;
      } catch (e) {
        return -ctx.errnoOf(e);
      }
    },
    set: (path, mode) => {
      try {
        ctx.fs.setMode(at(path), mode);
        return 0;
      } catch (e) {
        return -ctx.errnoOf(e);
      }
    },
  };
}

function execute(
  program: WebAssembly.Module,
  argv: string[],
  envList: string[],
  stdin: Uint8Array | undefined,
  limits: Required<WasiLimits>,
  ctx: WasiFsContext | null,
  cwd: string,
  fdFiles: Record<number, Uint8Array> = {},
  fdSinks: number[] = [],
  commandRules?: ReadonlySet<string>,
): WasiRunResult {
  const argv0 = argv[0]!;
  const stdout = new OutputFd(limits.maxOutputBytes);
  const stderr = new OutputFd(limits.maxOutputBytes);
  const stdio: [Fd, Fd, Fd] = [new StdinFd(stdin), stdout, stderr];
  const sinks = new Map(fdSinks.filter((n) => n > 2).map((n) => [n, new OutputFd(limits.maxOutputBytes)] as const));
  const fds: Fd[] = [...stdio];
  // fd 3 is /workspace (programs and tests rely on it); fd 4 is the small /dev (dev-fd.ts). In
  // the machine view fd 5 is `/`: wasi-libc maps an absolute path to the longest matching
  // preopen, so /tmp, /etc and /usr/bin go through it while /workspace and /dev keep theirs.
  if (ctx) fds.push(new WorkspaceDirFd(ctx, ROOT, ROOT), new DevDirFd(stdio, fdFiles, sinks, "/dev"));
  if (ctx?.fs.system) fds.push(new WorkspaceDirFd(ctx, "/", "/"));
  const shim = new WASI(argv, envList, fds, { debug: false });

  let syscalls = 0;
  const guard = {
    check(memory: WebAssembly.Memory | undefined) {
      if (++syscalls > limits.maxSyscalls) {
        throw new RunStopped(EXIT_KILLED, `system call limit reached (${limits.maxSyscalls} calls)`);
      }
      if (memory && memory.buffer.byteLength > limits.maxMemoryBytes) {
        throw new RunStopped(EXIT_KILLED, `memory limit exceeded (${mib(memory.buffer.byteLength)} > ${mib(limits.maxMemoryBytes)})`);
      }
    },
  };
  const imports = buildImports(shim, guard);
  const memoryOf = () => shim.inst?.exports.memory as WebAssembly.Memory | undefined;

  // Commands a program runs in-process (xargs, find -exec) pass the same command rules as the
  // shell's; a refusal counts as the run's denial like a refused file access.
  let commandDenial: Denial | undefined;
  const toolshed = buildToolshedImports(memoryOf, {
    cwd,
    home: ROOT,
    rules: commandRules,
    denied: (d) => {
      if (ctx) ctx.denial ??= d;
      else commandDenial ??= d;
    },
    say: (text) => stderr.note(text),
    modes: ctx ? fileModes(ctx, cwd) : undefined,
  });
  const guardedToolshed: typeof toolshed = {};
  for (const [name, fn] of Object.entries(toolshed)) {
    guardedToolshed[name] = (...args: number[]) => {
      guard.check(memoryOf());
      return fn(...args);
    };
  }

  let instance: WebAssembly.Instance;
  try {
    instance = new WebAssembly.Instance(program, { wasi_snapshot_preview1: imports, [TOOLSHED_MODULE]: guardedToolshed });
  } catch (e) {
    const what = e instanceof Error ? e.message : String(e);
    return failed(`the program could not be instantiated: ${what}`, `${argv0}: cannot execute: ${what}`);
  }
  const memory = instance.exports.memory;
  if (!(memory instanceof WebAssembly.Memory) || typeof instance.exports._start !== "function") {
    return failed("not a WASI command module (it must export `memory` and `_start`)", `${argv0}: cannot execute: not a WASI command`);
  }
  if (memory.buffer.byteLength > limits.maxMemoryBytes) {
    const msg = `memory limit exceeded before start (${mib(memory.buffer.byteLength)} > ${mib(limits.maxMemoryBytes)})`;
    return failed(msg, `${argv0}: ${msg}`);
  }

  const fuel = instance.exports[FUEL_EXPORT];
  const metered = fuel instanceof WebAssembly.Global;
  if (metered) fuel.value = BigInt(limits.maxSteps);

  let outcome: Outcome;
  try {
    const code = shim.start(instance as unknown as Parameters<WASI["start"]>[0]);
    outcome = { exitCode: code, clean: true };
  } catch (e) {
    // Running out of fuel is a trap too; the negative counter tells it from a crash.
    if (metered && (fuel.value as bigint) < 0n) {
      const msg = `step limit reached (${limits.maxSteps} steps)`;
      outcome = { exitCode: EXIT_KILLED, clean: false, error: msg, stderrNote: `${argv0}: killed: ${msg}\n` };
    } else {
      outcome = classify(e, argv0);
    }
  }

  // Like an OS at process exit: fds still open are closed, which commits their writes; after a
  // crash or a kill their pending writes are dropped so nobody sees a half-written file.
  for (const f of ctx ? [...ctx.openFiles] : []) {
    if (!(f instanceof WorkspaceFileFd)) continue;
    if (outcome.clean) f.fd_close();
    else f.abandon();
  }

  const memoryBytes = memory.buffer.byteLength;
  const errors: string[] = [];
  if (outcome.error) errors.push(outcome.error);
  if (outcome.clean && memoryBytes > limits.maxMemoryBytes) {
    outcome.exitCode = EXIT_KILLED;
    errors.push(`memory limit exceeded (${mib(memoryBytes)} > ${mib(limits.maxMemoryBytes)})`);
  }
  if (stdout.overflowed) errors.push(`stdout passed the output limit of ${limits.maxOutputBytes} bytes; the rest was discarded (the program saw a broken pipe)`);
  if (stderr.overflowed) errors.push(`stderr passed the output limit of ${limits.maxOutputBytes} bytes; the rest was discarded`);
  if (ctx?.hostError) errors.push(`a file operation failed inside the host (the program saw EIO): ${ctx.hostError}`);
  if (outcome.stderrNote) stderr.note(outcome.stderrNote);

  const result: WasiRunResult = {
    exitCode: outcome.exitCode,
    stdout: stdout.contents(),
    stderr: stderr.contents(),
    stats: { syscalls, memoryBytes },
  };
  for (const [n, sink] of sinks) {
    const bytes = sink.contents();
    if (bytes.length) (result.fdOutputs ??= {})[n] = bytes;
  }
  if (metered) result.stats.steps = Number(BigInt(limits.maxSteps) - (fuel.value as bigint));
  const denied = ctx?.denial ?? commandDenial;
  if (denied) result.denied = denied;
  if (errors.length > 0) result.error = errors.join("; ");
  return result;
}
