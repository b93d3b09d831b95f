// Public entry of the shell: runShell runs one script in a fresh shell over a host.
//
// Exit codes of limits: 124 when the time/step budget runs out (like GNU timeout),
// 125 for every other resource limit (output bytes, string length, call or
// substitution depth, brace expansion size); `limit` in the result names which.
// Background jobs (`&`) run concurrently with the script, interleaved at await points,
// with stdin from /dev/null; `wait` joins them and runShell waits for all before returning.
import { BUILTINS } from "./builtins/index";
import { topLevelCommand } from "./interp/interactive";
import type { ShellHost, ShellLimits } from "./host";
import { Budget, LimitError, resolveLimits } from "./interp/limits";
import { Shell, initVars, ExitSig } from "./interp/shell";
import { BytesReader, Collector, InStream } from "./interp/streams";
import { encode } from "./bytes";
export { BUILTIN_PROGRAMS } from "./interp/builtin-programs";

export interface RunShellOptions {
  host: ShellHost;
  cwd: string;
  env: Record<string, string>;
  stdin?: Uint8Array;
  limits?: Partial<ShellLimits>;
  /** $0 (default "bash"). */
  arg0?: string;
  args?: string[];
  /** The script is a command string, as `bash -c SCRIPT` runs it: `$-` holds `c`, a fatal
   * expansion error exits 127 and a syntax error is reported as `bash: -c: line N: ...`. */
  commandString?: boolean;
  /** Sees the script's stdout and stderr as they are written; the result still holds all of it. */
  onOutput?: OutputSink;
}

export type OutputSink = (stream: "stdout" | "stderr", chunk: Uint8Array) => void;

export interface RunShellResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  denied?: { rule: string; reason: string };
  limit?: string;
}

export async function runShell(script: string, opts: RunShellOptions): Promise<RunShellResult> {
  const limits = resolveLimits(opts.limits);
  const host = opts.host;
  const budget = new Budget(limits, () => host.now());
  let limitHit: LimitError | null = null;
  const overflow = () => new LimitError("output", `toolshed: output limit (${limits.maxOutputBytes} bytes) exceeded`);
  const sink = opts.onOutput;
  const stdout = new Collector(limits.maxOutputBytes, overflow, sink && ((c) => sink("stdout", c)));
  const stderr = new Collector(limits.maxOutputBytes, overflow, sink && ((c) => sink("stderr", c)));
  const shared: import("./interp/shell").RunShared = {
    host,
    budget,
    jobs: new Map<number, Promise<number>>(),
    disowned: new Set<Promise<number>>(),
    coprocWriters: [],
    nextPid: 1000,
    startMs: host.now(),
    procFiles: new Map(),
    nextProcFd: 63,
    substDepth: 0,
    builtins: BUILTINS,
  };
  const sh = new Shell(shared);
  sh.rootPid = sh.pid;
  sh.cwd = opts.cwd;
  sh.arg0 = opts.arg0 ?? "bash";
  sh.positional = opts.args ?? [];
  sh.fromC = opts.commandString ?? false;
  initVars(sh, opts.env, opts.cwd);
  const fds = [{ r: new InStream(opts.stdin ? new BytesReader(opts.stdin) : null) }, { w: stdout }, { w: stderr }];
  sh.fds = fds;
  let exitCode = 0;
  try {
    try {
      exitCode = await sh.runScript(script, fds, 2, (text) => topLevelCommand(sh, text, fds));
    } catch (e) {
      exitCode = sh.catchTop(e, sh.fds);
    }
    exitCode = await sh.runExitTrap(exitCode);
    // a coprocess still reading its input sees its end, as when bash exits
    for (const w of shared.coprocWriters) w.close();
    // wait for background jobs so their output is not lost
    while (shared.jobs.size) {
      const entries = [...shared.jobs];
      for (const [pid, p] of entries) {
        await p;
        shared.jobs.delete(pid);
      }
    }
    for (const p of shared.disowned) await p;
  } catch (e) {
    if (e instanceof LimitError) limitHit = e;
    else if (e instanceof ExitSig) exitCode = e.status;
    else {
      exitCode = 2;
      const msg = e instanceof Error ? e.message : String(e);
      try {
        stderr.writeSync(encode(`bash: internal error: ${msg}\n`));
      } catch {
        /* full */
      }
    }
  }
  if (limitHit) {
    exitCode = limitHit.exitCode;
    // the stderr collector may be the one that overflowed; the message must still appear
    const msg = encode(limitHit.message + "\n");
    stderr.parts.push(msg);
    stderr.size += msg.length;
  }
  const res: RunShellResult = { exitCode, stdout: stdout.bytes(), stderr: stderr.bytes() };
  if (shared.denied) res.denied = shared.denied;
  if (limitHit) res.limit = limitHit.kind;
  return res;
}
