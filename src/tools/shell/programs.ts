import { EpipeError, type ByteReader, type ProgramIo } from "../../shell/host";
import { programFor } from "../../wasi/programs";
import { admitRun, canStream, joinCall, runWasi, runWasiHosted, runWasiStreaming, type WasiRunResult } from "../../wasi/runner";
import { runShell, type RunShellResult } from "../../shell";
import { ROOT } from "../../vfs/paths";
import type { Subshell, ToolContext } from "../types";
import { hostCommandFor } from "./host-commands";
import { SessionShellHost, type ProgramRunner } from "./session-host";
import { LIMITS } from "../../limits";
import { programHost } from "./program-host";

/**
 * Fuel (function entries plus loop iterations, counted by the metering pass in wasm/meter)
 * a WASI program may burn per second of `timeout_seconds`. Counting work, not time, is what
 * stops a runaway loop on Workers, where the clock stands still while code computes.
 */
const WASM_FUEL_PER_SECOND = 300_000_000;
/** Bytes of piped input a program may be given at once. */
const MAX_STDIN_BYTES = LIMITS.programStdinBytes;
/** Exit status of a writer whose reader went away (128 + SIGPIPE), as bash reports it. */
const EXIT_SIGPIPE = 141;

async function readAll(stdin: ByteReader): Promise<Uint8Array | { error: string }> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let chunk = await stdin.read(); chunk; chunk = await stdin.read()) {
    total += chunk.length;
    if (total > MAX_STDIN_BYTES) return { error: `input larger than ${MAX_STDIN_BYTES} bytes; write it to a file and pass the file name` };
    parts.push(chunk);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/**
 * The caller's open fds (3 and up) that the arguments name as `/dev/fd/N` — process
 * substitutions and `N<file` redirects — read whole, for the program to open under /dev/fd.
 * Only named ones are read: another open fd may be a pipe nobody will ever close.
 */
async function namedFdFiles(argv: string[], io: ProgramIo): Promise<Record<number, Uint8Array> | { error: string }> {
  const files: Record<number, Uint8Array> = {};
  if (!io.extraFds) return files;
  for (const arg of argv) {
    for (const m of arg.matchAll(/\/dev\/fd\/(\d+)/g)) {
      const n = Number(m[1]);
      const reader = io.extraFds[n];
      if (n <= 2 || !reader || files[n]) continue;
      const data = await readAll(reader);
      if (!(data instanceof Uint8Array)) return data;
      files[n] = data;
    }
  }
  return files;
}

/** Writable fds above 2 (a `>(cmd)`) that the arguments name as `/dev/fd/N`. */
function namedFdSinks(argv: string[], io: ProgramIo): number[] {
  const sinks = new Set<number>();
  for (const arg of argv) {
    for (const m of arg.matchAll(/\/dev\/fd\/(\d+)/g)) {
      const n = Number(m[1]);
      if (n > 2 && io.extraWriters?.[n]) sinks.add(n);
    }
  }
  return [...sinks];
}

/**
 * The session's program runner: host commands (curl, wget, chmod, getconf, ...), then bundled WASI programs
 * over the guarded workspace, reading the shell's stdin as a shared open file description (only
 * what they ask for). When the input is settled and the outputs never make a writer wait (a
 * file, the tool's own output), the program runs synchronously, writing stdout and stderr
 * straight through (so `2>&1` keeps their order): the cheap start. Else it streams (JSPI): it waits on an empty pipe, is held back by a
 * full one and sees EPIPE when its reader is gone, so `yes | head -1` ends at once.
 */
/** A command line through a fresh shell of the session: its policy and log, pending writes flushed. */
async function runSubshell(ctx: ToolContext, script: string, opts: Parameters<Subshell>[1]): Promise<RunShellResult> {
  const host = new SessionShellHost(ctx.fs, (argv, pio) => programs(argv, pio), ROOT, isProgram, ctx.policy?.commandRules);
  const programs = sessionPrograms({ ...ctx, fs: host.programFs });
  // Its programs belong to the caller's call (a python waiting for this command holds memory).
  joinCall(host.programFs, ctx.fs);
  try {
    const r = await runShell(script, { host, ...opts });
    host.flush();
    if (r.denied) ctx.reportDenial?.(r.denied);
    return r;
  } catch (e) {
    host.discard();
    throw e;
  }
}

export function sessionPrograms(ctx: ToolContext): ProgramRunner {
  return (argv: string[], io: ProgramIo) => {
    const name = argv[0]!.slice(argv[0]!.lastIndexOf("/") + 1);
    const hostCommand = hostCommandFor(name);
    if (hostCommand) {
      return hostCommand(argv, io, ctx, (script, opts) => runSubshell(ctx, script, opts)).catch((e: unknown) => {
        if (e instanceof EpipeError) return EXIT_SIGPIPE;
        throw e;
      });
    }
    const program = programFor(name);
    if (!program) return undefined;
    return (async () => {
      const enc = new TextEncoder();
      const fail = async (error: string) => {
        await io.stderr.write(enc.encode(`${name}: ${error}\n`));
        return 1;
      };
      if (program.prepare) {
        try {
          await program.prepare(ctx.workerEnv?.ASSETS);
        } catch (e) {
          return fail(`cannot start: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      const fdFiles = await namedFdFiles(argv.slice(1), io);
      if ("error" in fdFiles) return fail(String(fdFiles.error));
      const given = [...(program.args ?? []), ...argv.slice(1)];
      const args = program.adaptArgs ? program.adaptArgs(given, io.cwd) : given;
      const env = program.env ? { ...io.env, ...program.env } : io.env;
      const opts = {
        argv: [program.argv0, ...args],
        preopens: program.preopens?.(),
        env,
        snapshotEnv: program.snapshotEnv?.(args, env) ?? null,
        cwd: io.cwd,
        fs: ctx.fs,
        commandRules: ctx.policy?.commandRules,
        fdFiles,
        fdSinks: namedFdSinks(argv.slice(1), io),
        host: (typeof program.hostCalls === "function" ? program.hostCalls(argv.slice(1)) : program.hostCalls)
          ? programHost(ctx, io, (script, o) => runSubshell(ctx, script, o))
          : undefined,
        umask: io.umask,
        limits: {
          maxOutputBytes: io.limits.maxOutputBytes,
          maxSteps: Math.max(1, Math.round((io.limits.timeoutMs / 1000) * WASM_FUEL_PER_SECOND)),
        },
      };
      const quick = io.stdin.settled && io.stdout.writeSync && io.stderr.writeSync;
      let r: WasiRunResult;
      // Programs start in turns (wasi/turns.ts); a synchronous one starts right after its admission.
      if (quick) {
        const direct = {
          ...opts,
          stdin: io.stdin,
          stdoutSync: (data: Uint8Array) => io.stdout.writeSync!(data),
          stderrSync: (data: Uint8Array) => io.stderr.writeSync!(data),
        };
        r = await admitRun(ctx.fs).then(() => (opts.host ? runWasiHosted(program.module, direct) : runWasi(program.module, direct)));
      } else if (canStream()) r = await runWasiStreaming(program.module, { ...opts, stdin: io.stdin, stdout: io.stdout, stderr: io.stderr });
      else {
        // No JSPI in this runtime: the input is drained first and the output handed over at the end.
        const stdin = await readAll(io.stdin);
        if (!(stdin instanceof Uint8Array)) return fail(stdin.error);
        r = await admitRun(ctx.fs).then(() => runWasi(program.module, { ...opts, stdin: io.stdin.isNull ? undefined : stdin }));
      }
      if (r.denied) ctx.reportDenial?.(r.denied);
      // What went to a >(cmd) reaches that command's pipe now that the program is done.
      for (const [n, bytes] of Object.entries(r.fdOutputs ?? {})) {
        await io.extraWriters?.[Number(n)]?.write(bytes).catch(() => undefined);
      }
      try {
        if (r.stdout.length) await io.stdout.write(r.stdout);
      } catch (e) {
        if (e instanceof EpipeError) return EXIT_SIGPIPE;
        throw e;
      }
      if (r.stderr.length) await io.stderr.write(r.stderr).catch(() => undefined);
      // The program only saw EACCES/EPERM; the reason is what tells the model what to do instead.
      if (r.denied) await io.stderr.write(enc.encode(`toolshed: denied (${r.denied.rule}): ${r.denied.reason}\n`)).catch(() => undefined);
      // A limit the shell's own writer hit while the program streamed ends the run as it would have.
      if (r.failure !== undefined) throw r.failure;
      return r.exitCode;
    })();
  };
}

export const isProgram = (name: string): boolean => hostCommandFor(name) !== undefined || programFor(name) !== undefined;
