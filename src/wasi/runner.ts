import { WASI, WASIProcExit, wasi } from "@bjorn3/browser_wasi_shim";
import type { Fd } from "@bjorn3/browser_wasi_shim";
import { PolicyDenied, type Denial } from "../policy/denied";
import type { GuardedFs } from "../policy/guarded-fs";
import { ROOT } from "../vfs/paths";
import { WasiFsContext } from "./fs/context";
import { DevDirFd } from "./fs/dev-fd";
import { WorkspaceDirFd } from "./fs/dir-fd";
import { WorkspaceFileFd } from "./fs/file-fd";
import { ProgramExit, RunStopped, buildImports } from "./imports";
import { acquire, type Lease } from "./instance-pool";
import { entryFor, steps, type Entry } from "./snapshot";
import { ROOT_OWNED, TOOLSHED_MODULE, buildToolshedImports } from "./toolshed-imports";
import { OutputFd, StdinFd, StreamOutFd, SyncOutFd } from "./stdio";
import { resumeInTurn, takeTurn } from "./turns";
import { SharedStreamFd } from "./fs/dev-fd";
import { HostDeviceFd, type HostCall } from "./fs/host-device";
import type { ByteWriter, SharedReader } from "../shell/host";
import { EMPTY } from "../shell/interp/streams";
import { concat } from "../shell/bytes";
import { LIMITS } from "../limits";

const DEFAULT_MAX_OUTPUT_BYTES = LIMITS.programOutputBytes;
/** The isolate has 128 MB for JS and every Wasm memory together. */
const DEFAULT_MAX_MEMORY_BYTES = LIMITS.programMemoryBytes;
/** Syscalls one run may make: a work budget that holds where the clock stands still. */
const DEFAULT_MAX_SYSCALLS = LIMITS.programSyscalls;
/**
 * Metered steps (function entries + loop iterations, counted by the `toolshed_fuel` global that
 * wasm/meter adds) one run may take. `sort` of three lines is ~560 steps; 12 MB sorts in well
 * under this.
 */
const DEFAULT_MAX_STEPS = LIMITS.programSteps;
/**
 * Linear memory all programs running at once may hold together (a streaming pipeline keeps one
 * instance per stage alive); the isolate's 128 MB also hold the JS heap.
 */
const DEFAULT_MAX_TOTAL_MEMORY_BYTES = LIMITS.programsTotalMemoryBytes;
/**
 * Fuel a streaming run pays per byte it moves through a pipe (once writing, once reading): the
 * host's copying is work the program's own counter does not see, and a stage such as `yes`
 * produces gigabytes for little fuel of its own. Two steps a byte keeps `yes | cat` within
 * about the time its timeout gives it.
 */
const STEPS_PER_PIPED_BYTE = 2;
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
  /** Bytes, or the caller's open file description: the program takes from it only what it reads. */
  stdin?: Uint8Array | SharedReader;
  /** The caller's other open fds (3 and up), captured; the program reads them as /dev/fd/N. */
  fdFiles?: Record<number, Uint8Array>;
  /** Writable fds of the caller (3 and up); what the program writes to /dev/fd/N comes back in `fdOutputs`. */
  fdSinks?: number[];
  limits?: WasiLimits;
  /** File-creation mask for what the program creates (default 022). */
  umask?: number;
  /**
   * Extra preopened directories after the session's own (a program's read-only files, such as
   * Python's standard library at /usr/lib/python3.11); wasi-libc picks the longest matching one.
   */
  preopens?: Fd[];
  /**
   * Answers the program's requests on /dev/toolshed (host-device.ts): commands and fetches
   * through the session. The program waits for an answer only where the run can suspend (JSPI):
   * `runWasiHosted` and `runWasiStreaming`; a plain `runWasi` answers "not supported".
   */
  host?: HostCall;
  /**
   * The run may start from a kept copy of the program after its own initialization, which sees
   * only these variables ("NAME=value"; they key the copy). snapshot.ts; the program decides
   * which runs may, e.g. python3 without options.
   */
  snapshotEnv?: string[] | null;
}

export type { HostCall };

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
  /** Streaming runs: what the caller's stdout/stderr writer threw (not EPIPE), for the caller to raise. */
  failure?: unknown;
}

/** A streaming run: fd 1 and fd 2 go to these writers as the program writes. */
export interface WasiStreamOptions extends WasiRunOptions {
  stdout: ByteWriter;
  stderr: ByteWriter;
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
    if (opts.fs.normalize(ROOT, opts.cwd) !== opts.cwd) {
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
  if (e instanceof ProgramExit || e instanceof WASIProcExit) return { exitCode: e.code, clean: true };
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
 * Runs one WASI command to completion against the workspace, synchronously: its stdin must be
 * settled (bytes, a file, a finished pipe) and its output is collected. The workspace is
 * preopened as `/workspace` (only that: a "." preopen makes wasi-libc map any absolute path such
 * as /etc/passwd onto the cwd); programs resolve relative paths against $PWD, which is set to
 * `cwd`. Nothing the program does can throw out of here: traps, limits and host faults all come
 * back as an exit code with `error` saying why.
 */
export function runWasi(
  program: WebAssembly.Module,
  opts: WasiRunOptions & { stdoutSync?: (data: Uint8Array) => void; stderrSync?: (data: Uint8Array) => void },
): WasiRunResult {
  // A writer that never waits takes fd 1 (and fd 2) directly; else the output is collected for
  // the caller. Writing both through keeps their order when they are one sink (`2>&1`).
  const direct = opts.stdoutSync ? new SyncOutFd(opts.stdoutSync, refused) : null;
  const directErr = opts.stderrSync ? new SyncOutFd(opts.stderrSync, refused) : null;
  const run = start(program, opts, new StdinFd(opts.stdin), null, direct, directErr, false);
  if ("exitCode" in run) return run;
  // Suspended streaming runs keep their memory while this one runs.
  live.set(run.memory, opts.fs);
  let outcome: Outcome;
  try {
    outcome = { exitCode: enterSync(run), clean: true };
  } catch (e) {
    outcome = ended(run, e);
  } finally {
    live.delete(run.memory);
  }
  const result = finish(run, outcome);
  const failure = direct?.failure ?? directErr?.failure;
  if (failure !== undefined) result.failure = failure;
  return result;
}

interface Jspi {
  Suspending: new (fn: (...args: number[]) => number | Promise<number>) => WebAssembly.ImportValue;
  promising: (fn: unknown) => () => Promise<unknown>;
}
const JSPI = WebAssembly as unknown as Partial<Jspi>;

/** Whether this runtime can suspend Wasm on a promise (JSPI); without it, runs are not streamed. */
export const canStream = (): boolean => typeof JSPI.Suspending === "function" && typeof JSPI.promising === "function";

/**
 * Runs one WASI command while the caller's streams flow: reading an empty pipe or writing a
 * full one suspends the program (JSPI) until the other side moves, so pipeline stages run
 * side by side over bounded buffers. Fuel and the syscall budget are counted as in `runWasi`
 * (a suspended program burns neither); the memory cap also holds for all live runs together.
 */
export async function runWasiStreaming(program: WebAssembly.Module, opts: WasiStreamOptions): Promise<WasiRunResult> {
  if (!canStream()) throw new Error("runWasiStreaming needs JSPI (WebAssembly.Suspending / promising)");
  const out = new StreamOutFd(opts.stdout);
  const err = new StreamOutFd(opts.stderr);
  await admitRun(opts.fs);
  const run = start(program, opts, new StdinFd(opts.stdin), [out, err], null, null, true);
  if ("exitCode" in run) return run;
  const result = finish(run, await runSuspending(run, opts.fs));
  const failure = out.failure ?? err.failure;
  if (failure !== undefined) result.failure = failure;
  return result;
}

/**
 * `runWasi` for a program the host answers (`opts.host`): output written straight through as
 * there, but the program may suspend (JSPI) on /dev/toolshed while the session runs a command
 * or a fetch for it. Without JSPI it is `runWasi`, whose device answers "not supported".
 * The caller admits the run (admitRun) first, as for `runWasi`.
 */
export async function runWasiHosted(
  program: WebAssembly.Module,
  opts: WasiRunOptions & { stdoutSync?: (data: Uint8Array) => void; stderrSync?: (data: Uint8Array) => void },
): Promise<WasiRunResult> {
  if (!canStream() || !opts.host) return runWasi(program, opts);
  const direct = opts.stdoutSync ? new SyncOutFd(opts.stdoutSync, refused) : null;
  const directErr = opts.stderrSync ? new SyncOutFd(opts.stderrSync, refused) : null;
  const run = start(program, opts, new StdinFd(opts.stdin), null, direct, directErr, true);
  if ("exitCode" in run) return run;
  const result = finish(run, await runSuspending(run, opts.fs));
  const failure = direct?.failure ?? directErr?.failure;
  if (failure !== undefined) result.failure = failure;
  return result;
}

/**
 * Workspace views of the same call: a command a program runs through the session (Python's
 * subprocess) works through its own shell's view, and must not queue for memory behind the
 * very program that waits for it (admitRun).
 */
const sameCall = new WeakMap<object, object>();

/** Records that runs over `child` belong to the call working through `parent`. */
export function joinCall(child: object, parent: object): void {
  if (child !== parent) sameCall.set(child, parent);
}

const callOf = (fs: object): object => {
  let at = fs;
  for (let i = 0; i < 64; i++) {
    const up = sameCall.get(at);
    if (!up) break;
    at = up;
  }
  return at;
};

/**
 * Memories of the runs in progress in this isolate (every session's), for the cap on all of them
 * together, each with the workspace view of the call that started it.
 */
const live = new Map<WebAssembly.Memory, object>();
const liveBytes = () => {
  let n = 0;
  for (const m of live.keys()) n += m.buffer.byteLength;
  return n;
};
/**
 * Other calls' programs may hold this much before a call with none running waits to start one;
 * the rest of the cap is room for the running ones to grow.
 */
const ADMIT_BELOW_BYTES = DEFAULT_MAX_TOTAL_MEMORY_BYTES / 3;
/** Polls a call waits for memory before it starts anyway (and may meet the cap). */
const MAX_ADMIT_POLLS = 20_000;

/** Calls waiting to start their first program, oldest first (admitRun): memory goes to them in turn. */
const waiting: object[] = [];

/**
 * Waits for the turn (turns.ts) in which a program of the call working through `fs` may start;
 * the caller starts it at once, with no await between. It may start when the call already runs
 * one (a pipeline's stages must live together), else when it is the oldest waiting call, other
 * calls' programs hold less than a third of the shared cap, and fewer than
 * LIMITS.programCallsAtOnce calls run programs: busy sessions queue for memory instead of killing
 * one another's programs at the cap, and a waiting call holds none, so waiting cannot deadlock.
 * The count matters because a call's programs start small and grow: under 100 sessions, calls
 * admitted one after another while the first stages were small then grew past the cap together.
 * In order, because a call that lost every race kept polling until MAX_ADMIT_POLLS and then
 * started anyway, into the cap.
 */
export async function admitRun(fs: object): Promise<void> {
  const ticket = {};
  let queued = false;
  try {
    for (let polls = 0; ; polls++) {
      await takeTurn();
      const running = new Set([...live.values()].map(callOf));
      if (running.has(callOf(fs))) return;
      const first = waiting.length === 0 || waiting[0] === ticket;
      if (polls >= MAX_ADMIT_POLLS || (first && liveBytes() <= ADMIT_BELOW_BYTES && running.size < LIMITS.programCallsAtOnce)) return;
      if (!queued) {
        waiting.push(ticket);
        queued = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } finally {
    if (queued) waiting.splice(waiting.indexOf(ticket), 1);
  }
}

/**
 * Runs a program that needs no files (no preopen at all), e.g. `toolbox --list`. Used at
 * startup to ask bundled programs about themselves; never for user commands.
 */
export function runDetached(program: WebAssembly.Module, argv: string[]): WasiRunResult {
  const limits = { maxOutputBytes: 1024 * 1024, maxMemoryBytes: DEFAULT_MAX_MEMORY_BYTES, maxSyscalls: 100_000, maxSteps: 10_000_000 };
  const run = instantiate(program, argv, [], new StdinFd(), null, limits, null, ROOT, {}, []);
  if ("exitCode" in run) return run;
  let outcome: Outcome;
  try {
    outcome = { exitCode: enterSync(run), clean: true };
  } catch (e) {
    outcome = ended(run, e);
  }
  return finish(run, outcome);
}

/** Modes for the `toolshed` imports, through the same policy as every other file access. */
function fileModes(ctx: WasiFsContext, cwd: string): NonNullable<Parameters<typeof buildToolshedImports>[1]["modes"]> {
  const at = (path: string) => ctx.fs.resolve(cwd, path);
  return {
    get: (path) => {
      try {
        const info = ctx.fs.mustStat(at(path));
        return info.mode | (info.uid === 0 ? ROOT_OWNED : 0);
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

/** A program instantiated and ready to start, with what `finish` needs to report on it. */
interface Run {
  shim: WASI;
  module: WebAssembly.Module;
  instance: WebAssembly.Instance;
  /** `_start`, or the halves of a start from a kept copy (snapshot.ts). */
  entry: Entry;
  /** Returned once the run's results are read: the instance may run the next program. */
  lease: Lease;
  memory: WebAssembly.Memory;
  fuel: WebAssembly.Global | null;
  argv0: string;
  limits: Required<WasiLimits>;
  ctx: WasiFsContext | null;
  stdout: OutputFd | null;
  stderr: OutputFd;
  sinks: Map<number, OutputFd>;
  syscalls: () => number;
  commandDenial: () => Denial | undefined;
}

/** Checks the options and instantiates; a WasiRunResult when the run cannot start. */
function start(
  program: WebAssembly.Module,
  opts: WasiRunOptions,
  stdin: StdinFd,
  streams: [StreamOutFd, StreamOutFd] | null,
  direct: SyncOutFd | null = null,
  directErr: SyncOutFd | null = null,
  canWait = false,
): Run | WasiRunResult {
  const checked = checkInputs(opts);
  if ("error" in checked) return failed(checked.error, `${opts.argv[0] ?? "wasi"}: ${checked.error}`, checked.denied);
  const limits = {
    maxOutputBytes: opts.limits?.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxMemoryBytes: opts.limits?.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES,
    maxSyscalls: opts.limits?.maxSyscalls ?? DEFAULT_MAX_SYSCALLS,
    maxSteps: opts.limits?.maxSteps ?? DEFAULT_MAX_STEPS,
  };
  const ctx = new WasiFsContext(opts.fs, opts.umask);
  return instantiate(
    program,
    opts.argv,
    checked.envList,
    stdin,
    streams,
    limits,
    ctx,
    opts.cwd,
    opts.fdFiles ?? {},
    opts.fdSinks ?? [],
    opts.commandRules,
    direct,
    directErr,
    opts.preopens ?? [],
    opts.host ? { call: opts.host, canWait: canWait && canStream() } : null,
    opts.snapshotEnv ?? null,
  );
}

function instantiate(
  program: WebAssembly.Module,
  argv: string[],
  envList: string[],
  stdin: StdinFd,
  streams: [StreamOutFd, StreamOutFd] | null,
  limits: Required<WasiLimits>,
  ctx: WasiFsContext | null,
  cwd: string,
  fdFiles: Record<number, Uint8Array>,
  fdSinks: number[],
  commandRules?: ReadonlySet<string>,
  direct: SyncOutFd | null = null,
  directErr: SyncOutFd | null = null,
  preopens: Fd[] = [],
  host: { call: HostCall; canWait: boolean } | null = null,
  snapshotEnv: string[] | null = null,
): Run | WasiRunResult {
  const argv0 = argv[0]!;
  // A run that writes through keeps its stderr OutputFd only for the host's own note.
  const stdout = streams || direct ? null : new OutputFd(limits.maxOutputBytes);
  const stderr = new OutputFd(limits.maxOutputBytes);
  const stdio: [Fd, Fd, Fd] = streams ? [stdin, ...streams] : [stdin, direct ?? stdout!, directErr ?? stderr];
  const sinks = new Map(fdSinks.filter((n) => n > 2).map((n) => [n, new OutputFd(limits.maxOutputBytes)] as const));
  const fds: Fd[] = [...stdio];
  // fd 3 is /workspace (programs and tests rely on it); fd 4 is the small /dev (dev-fd.ts). In
  // the machine view fd 5 is `/`: wasi-libc maps an absolute path to the longest matching
  // preopen, so /tmp, /etc and /usr/bin go through it while /workspace and /dev keep theirs.
  if (ctx) {
    const dev = new DevDirFd(stdio, fdFiles, sinks, "/dev");
    if (host) dev.hostDevice = { canWait: host.canWait };
    fds.push(new WorkspaceDirFd(ctx, ROOT, ROOT), dev);
  }
  if (ctx?.fs.system) fds.push(new WorkspaceDirFd(ctx, "/", "/"));
  if (ctx) fds.push(...preopens);
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
      if (live.size > 1 && liveBytes() > DEFAULT_MAX_TOTAL_MEMORY_BYTES) {
        const msg = `memory limit exceeded (the programs running together hold ${mib(liveBytes())} > ${mib(DEFAULT_MAX_TOTAL_MEMORY_BYTES)})`;
        throw new RunStopped(EXIT_KILLED, msg);
      }
    },
  };
  let fuel: WebAssembly.Global | null = null;
  const charge = (bytes: number) => {
    if (fuel) fuel.value = (fuel.value as bigint) - BigInt(bytes * STEPS_PER_PIPED_BYTE);
  };
  const imports = buildImports(shim, guard);
  if (streams) Object.assign(imports, streamingImports(shim, guard, charge, { ...imports }));
  const hostWaits = host?.canWait === true;
  // What the program wrote and flushed is on disk before a command it runs looks (as fsync).
  const syncFiles = () => {
    for (const f of ctx ? [...ctx.openFiles] : []) if (f instanceof WorkspaceFileFd) f.fd_sync();
  };
  if (hostWaits) Object.assign(imports, hostImports(shim, guard, host!.call, { ...imports }, syncFiles));
  const suspend = streams || hostWaits ? (fn: (...args: any[]) => unknown) => new JSPI.Suspending!(fn as (...args: number[]) => number) : undefined;
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

  // wasi-libc keeps the preopen table of the init half, so the fd layout is part of the key.
  const entry = entryFor(program, snapshotEnv, fds.length);
  let lease: Lease;
  try {
    const from = entry.kind === "resume" ? entry.image : undefined;
    lease = acquire(
      program,
      { wasi_snapshot_preview1: imports, [TOOLSHED_MODULE]: guardedToolshed },
      streams ? SUSPENDING : hostWaits ? READ_SUSPENDS : NONE,
      suspend,
      from,
    );
  } catch (e) {
    const what = e instanceof Error ? e.message : String(e);
    return failed(`the program could not be instantiated: ${what}`, `${argv0}: cannot execute: ${what}`);
  }
  const instance = lease.instance;
  const memory = instance.exports.memory;
  if (!(memory instanceof WebAssembly.Memory) || typeof instance.exports._start !== "function") {
    lease.release();
    return failed("not a WASI command module (it must export `memory` and `_start`)", `${argv0}: cannot execute: not a WASI command`);
  }
  if (memory.buffer.byteLength > limits.maxMemoryBytes) {
    lease.release();
    const msg = `memory limit exceeded before start (${mib(memory.buffer.byteLength)} > ${mib(limits.maxMemoryBytes)})`;
    return failed(msg, `${argv0}: ${msg}`);
  }

  const fuelExport = instance.exports[FUEL_EXPORT];
  fuel = fuelExport instanceof WebAssembly.Global ? fuelExport : null;
  if (fuel) fuel.value = BigInt(limits.maxSteps);
  return {
    shim,
    module: program,
    instance,
    entry,
    lease,
    memory,
    fuel,
    argv0,
    limits,
    ctx,
    stdout,
    stderr,
    sinks,
    syscalls: () => syscalls,
    commandDenial: () => commandDenial,
  };
}

/** The imports a streaming run may suspend in (streamingImports). */
const SUSPENDING: ReadonlySet<string> = new Set(["wasi_snapshot_preview1.fd_read", "wasi_snapshot_preview1.fd_write"]);
const NONE: ReadonlySet<string> = new Set();
/** A run that only waits for the host (runWasiHosted). */
const READ_SUSPENDS: ReadonlySet<string> = new Set(["wasi_snapshot_preview1.fd_read"]);

/**
 * fd_read on /dev/toolshed with a request written and no answer yet: the program suspends while
 * the host answers (a command through the session's shell, a fetch), then reads the answer.
 * Every other read takes `next` (the streaming or the synchronous import).
 */
function hostImports(
  shim: WASI,
  guard: { check(m: WebAssembly.Memory | undefined): void },
  host: HostCall,
  next: Record<string, (...args: any[]) => unknown>,
  beforeAsk: () => void,
) {
  return {
    fd_read: (fd: number, iovs: number, iovsLen: number, nreadPtr: number): unknown => {
      const f = shim.fds[fd];
      if (!(f instanceof HostDeviceFd) || !f.waiting) return next.fd_read!(fd, iovs, iovsLen, nreadPtr);
      guard.check(shim.inst.exports.memory as WebAssembly.Memory);
      beforeAsk();
      return resumeInTurn(f.ask(host)).then(() => next.fd_read!(fd, iovs, iovsLen, nreadPtr));
    },
  };
}

/**
 * fd_read on a pipe that is still being written and fd_write to the caller's streams, as
 * imports that the instance wraps with JSPI's Suspending: when the bytes are not there (or the
 * pipe is full) they answer a promise and the program is suspended until it settles. Everything
 * else takes the synchronous imports.
 */
function streamingImports(
  shim: WASI,
  guard: { check(m: WebAssembly.Memory | undefined): void },
  charge: (bytes: number) => void,
  sync: Record<string, (...args: any[]) => unknown>,
) {
  const memory = () => shim.inst.exports.memory as WebAssembly.Memory;
  const streamOf = (fd: number) => {
    const f = shim.fds[fd];
    return f instanceof SharedStreamFd ? f.target : f;
  };
  const fdRead = (fd: number, iovs: number, iovsLen: number, nreadPtr: number): number | Promise<number> => {
    const f = streamOf(fd);
    if (!(f instanceof StdinFd) || f.source.settled) return sync.fd_read!(fd, iovs, iovsLen, nreadPtr) as number;
    guard.check(memory());
    // One iovec is filled, as read(2) on a pipe returns what is there rather than waiting for more.
    const v = new DataView(memory().buffer);
    let ptr = 0;
    let len = 0;
    for (let i = 0; i < iovsLen && len === 0; i++) {
      ptr = v.getUint32(iovs + i * 8, true);
      len = v.getUint32(iovs + i * 8 + 4, true);
    }
    const deliver = (data: Uint8Array | null | undefined) => {
      const bytes = data ?? EMPTY;
      charge(bytes.length);
      new Uint8Array(memory().buffer).set(bytes, ptr);
      new DataView(memory().buffer).setUint32(nreadPtr, bytes.length, true);
      return wasi.ERRNO_SUCCESS;
    };
    if (len === 0) return deliver(EMPTY);
    const now = f.source.tryRead(len);
    return now === undefined ? resumeInTurn(f.readAsync(len)).then(deliver) : deliver(now);
  };
  const fdWrite = (fd: number, iovs: number, iovsLen: number, nwrittenPtr: number): number | Promise<number> => {
    const f = streamOf(fd);
    if (!(f instanceof StreamOutFd)) return sync.fd_write!(fd, iovs, iovsLen, nwrittenPtr) as number;
    guard.check(memory());
    const v = new DataView(memory().buffer);
    const parts: Uint8Array[] = [];
    for (let i = 0; i < iovsLen; i++) {
      const ptr = v.getUint32(iovs + i * 8, true);
      const len = v.getUint32(iovs + i * 8 + 4, true);
      // A writer that never waits (a file) takes views and the program is not suspended.
      if (len) parts.push(f.synchronous ? new Uint8Array(memory().buffer, ptr, len) : new Uint8Array(memory().buffer, ptr, len).slice());
    }
    if (f.synchronous) {
      let written = 0;
      let errno: number = wasi.ERRNO_SUCCESS;
      for (const part of parts) {
        charge(part.length);
        errno = f.writeNow(part);
        if (errno !== wasi.ERRNO_SUCCESS) break;
        written += part.length;
      }
      if (f.failure !== undefined) throw refused(f.failure);
      v.setUint32(nwrittenPtr, written, true);
      return written > 0 ? wasi.ERRNO_SUCCESS : errno;
    }
    const data = concat(parts);
    charge(data.length);
    if (data.length === 0) {
      v.setUint32(nwrittenPtr, 0, true);
      return wasi.ERRNO_SUCCESS;
    }
    return resumeInTurn(f.writeAsync(data)).then((errno) => {
      if (f.failure !== undefined) throw refused(f.failure);
      new DataView(memory().buffer).setUint32(nwrittenPtr, errno === wasi.ERRNO_SUCCESS ? data.length : 0, true);
      return errno;
    });
  };
  return { fd_read: fdRead, fd_write: fdWrite };
}

/** Ends a run whose output writer failed (a limit, a full quota); the caller raises the failure. */
function refused(failure: unknown): RunStopped {
  const what = failure instanceof Error ? failure.message : String(failure);
  return new RunStopped(EXIT_KILLED, `its output was refused: ${what}`);
}

/** Runs a started program whose imports may suspend it (JSPI), its memory counted as live meanwhile. */
async function runSuspending(run: Run, fs: WasiRunOptions["fs"]): Promise<Outcome> {
  live.set(run.memory, fs);
  try {
    run.shim.inst = run.instance as unknown as WASI["inst"];
    for (const call of entryCalls(run)) await JSPI.promising!(call)();
    return { exitCode: 0, clean: true };
  } catch (e) {
    return ended(run, e);
  } finally {
    live.delete(run.memory);
  }
}

/**
 * The exported functions a run calls, in order: `_start`, or the halves of a start from a kept
 * copy. The init half sees only the variables the copy may hold (it serves later runs, other
 * sessions' too), and the copy is taken once it returns. A driver that stops early (a throw)
 * closes the generator, which puts the run's environment back.
 */
function* entryCalls(run: Run): Generator<() => unknown> {
  const { init, afterInit, main } = steps(run.module, run.instance, run.entry);
  if (init && run.entry.kind === "init") {
    const own = run.shim.env;
    run.shim.env = run.entry.env;
    try {
      yield init;
    } finally {
      run.shim.env = own;
    }
    afterInit!();
  }
  yield main;
}

/** Runs the program's entry calls; its exit status, or what it threw. */
function enterSync(run: Run): number {
  run.shim.inst = run.instance as unknown as WASI["inst"];
  try {
    for (const call of entryCalls(run)) call();
    return 0;
  } catch (e) {
    if (e instanceof WASIProcExit) return e.code;
    throw e;
  }
}

/** What ended the program, from what its start threw. */
function ended(run: Run, e: unknown): Outcome {
  // Running out of fuel is a trap too; the negative counter tells it from a crash.
  if (run.fuel && (run.fuel.value as bigint) < 0n) {
    const msg = `step limit reached (${run.limits.maxSteps} steps)`;
    return { exitCode: EXIT_KILLED, clean: false, error: msg, stderrNote: `${run.argv0}: killed: ${msg}\n` };
  }
  return classify(e, run.argv0);
}

function finish(run: Run, outcome: Outcome): WasiRunResult {
  const { ctx, limits, memory, stdout, stderr } = run;
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
  if (stdout?.overflowed) errors.push(`stdout passed the output limit of ${limits.maxOutputBytes} bytes; the rest was discarded (the program saw a broken pipe)`);
  if (stderr.overflowed) errors.push(`stderr passed the output limit of ${limits.maxOutputBytes} bytes; the rest was discarded`);
  if (ctx?.hostError) errors.push(`a file operation failed inside the host (the program saw EIO): ${ctx.hostError}`);
  if (outcome.stderrNote) stderr.note(outcome.stderrNote);

  const result: WasiRunResult = {
    exitCode: outcome.exitCode,
    stdout: stdout?.contents() ?? EMPTY,
    stderr: stderr.contents(),
    stats: { syscalls: run.syscalls(), memoryBytes },
  };
  for (const [n, sink] of run.sinks) {
    const bytes = sink.contents();
    if (bytes.length) (result.fdOutputs ??= {})[n] = bytes;
  }
  if (run.fuel) result.stats.steps = Number(BigInt(limits.maxSteps) - (run.fuel.value as bigint));
  const denied = ctx?.denial ?? run.commandDenial();
  if (denied) result.denied = denied;
  if (errors.length > 0) result.error = errors.join("; ");
  run.lease.release();
  return result;
}
