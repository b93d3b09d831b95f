import { EpipeError, type ByteReader, type ProgramIo } from "../../shell/host";
import { programFor } from "../../wasi/programs";
import { runWasi } from "../../wasi/runner";
import type { ToolContext } from "../types";
import type { ProgramRunner } from "./session-host";

/**
 * Fuel (function entries plus loop iterations, counted by the metering pass in wasm/meter)
 * a WASI program may burn per second of `timeout_seconds`. Counting work, not time, is what
 * stops a runaway loop on Workers, where the clock stands still while code computes.
 */
export const WASM_FUEL_PER_SECOND = 100_000_000;
/** Bytes of piped input a program may be given at once. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;
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
 * The session's program runner: bundled WASI programs over the guarded workspace. A program
 * runs to completion on its whole input (WASI calls are synchronous here), then its output
 * goes down the shell's pipe.
 */
export function sessionPrograms(ctx: ToolContext): ProgramRunner {
  return (argv: string[], io: ProgramIo) => {
    const name = argv[0]!.slice(argv[0]!.lastIndexOf("/") + 1);
    const program = programFor(name);
    if (!program) return undefined;
    return (async () => {
      const enc = new TextEncoder();
      const stdin = await readAll(io.stdin);
      if (!(stdin instanceof Uint8Array)) {
        await io.stderr.write(enc.encode(`${name}: ${stdin.error}\n`));
        return 1;
      }
      const r = runWasi(program.module, {
        argv: [program.argv0, ...argv.slice(1)],
        env: io.env,
        cwd: io.cwd,
        fs: ctx.fs,
        stdin,
        limits: {
          maxOutputBytes: io.limits.maxOutputBytes,
          maxSteps: Math.max(1, Math.round((io.limits.timeoutMs / 1000) * WASM_FUEL_PER_SECOND)),
        },
      });
      if (r.denied) ctx.reportDenial?.(r.denied);
      try {
        if (r.stdout.length) await io.stdout.write(r.stdout);
      } catch (e) {
        if (e instanceof EpipeError) return EXIT_SIGPIPE;
        throw e;
      }
      if (r.stderr.length) await io.stderr.write(r.stderr).catch(() => undefined);
      return r.exitCode;
    })();
  };
}

export const isProgram = (name: string): boolean => programFor(name) !== undefined;
