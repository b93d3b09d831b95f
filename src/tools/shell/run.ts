import { checkEnvAssignment } from "../../policy/env";
import { PolicyDenied, type Denial } from "../../policy/denied";
import { MAX_OUTPUT_CHARS, truncateMiddle } from "../../policy/output";
import { runShell } from "../../shell";
import { LIMIT_EXIT, STEPS_PER_SECOND } from "../../shell/interp/limits";
import { ROOT, TMP } from "../../vfs/paths";
import type { ToolContext, ToolResult } from "../types";
import { machineView } from "./machine";
import { SessionShellHost, type ProgramRunner } from "./session-host";
import { LIMITS } from "../../limits";

export const DEFAULT_TIMEOUT_SECONDS = LIMITS.shellTimeoutSeconds;
/**
 * How long past `timeout_seconds` a run may sit on an await that never settles (a reader
 * waiting for a writer that is never closed) before the call gives up on it. The interpreter's
 * own budget stops busy work; this only catches a run that is idle forever, where a timer
 * does fire even on Workers.
 */
export const HANG_GRACE_MS = LIMITS.hangGraceMs;
/** Of the tool's output characters, stderr gets at most this share; stdout gets the rest. */
const STDERR_SHARE = LIMITS.stderrShareChars;

/** The environment every command starts with, before the session's and the call's own. */
function baseEnv(cwd: string): Record<string, string> {
  return {
    HOME: ROOT,
    PWD: cwd,
    PATH: "/usr/local/bin:/usr/bin:/bin",
    SHELL: "/bin/bash",
    USER: "agent",
    LOGNAME: "agent",
    LANG: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: TMP,
  };
}

/** Refuses blocked variables (LD_PRELOAD, BASH_ENV, exported functions, ...) before anything runs. */
function checkCallEnv(env: Record<string, string>): void {
  for (const [k, v] of Object.entries(env)) {
    const denial = checkEnvAssignment(k, v);
    if (denial) throw new PolicyDenied(denial);
  }
}

export interface ShellRun {
  script: string;
  /** As `bash -c` runs its string (the bash tool: set -u stops with 127, errors name `-c`); false: as a script bash reads. */
  commandString?: boolean;
  workingDir?: string;
  timeoutSeconds?: number;
  env?: Record<string, string>;
}

/**
 * A context that overrides some fields and reads the rest through from `base`. Not a spread: a
 * spread would build the session's lazy hosts (browser, MCP, sub-agents) that a shell call never uses.
 */
function derive(base: ToolContext, own: Partial<ToolContext>): ToolContext {
  const props: PropertyDescriptorMap = {};
  for (const [k, value] of Object.entries(own)) props[k] = { value, enumerable: true, writable: true };
  return Object.create(base, props) as ToolContext;
}

/** Runs a script like `sh -c` in the session and shapes the result the seed pages describe. */
export async function runInSession(
  outer: ToolContext,
  programsFor: (ctx: ToolContext) => ProgramRunner,
  run: ShellRun,
  hasProgram?: (name: string) => boolean,
): Promise<ToolResult> {
  // Refusals inside programs (a WASI open of .env) surface in the result like the shell's own.
  const denials: Denial[] = [];
  // The shell and its programs see the whole machine (/tmp, /usr/bin, /etc, ...); the file tools
  // that share `outer` keep the workspace-only view.
  const ctx = derive(outer, { fs: machineView(outer.fs), reportDenial: (d: Denial) => denials.push(d) });
  const started = Date.now();
  // working_dir is a tool parameter, so it keeps the file tools' boundary (/workspace).
  const cwd = run.workingDir ? outer.fs.resolve(ctx.cwd, run.workingDir) : ctx.cwd;
  const dir = ctx.fs.stat(cwd);
  if (!dir || dir.kind !== "dir") {
    return { success: false, error: `working_dir '${run.workingDir}' is not a directory in the workspace.` };
  }
  checkCallEnv(run.env ?? {});
  const seconds = run.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const host: SessionShellHost = new SessionShellHost(ctx.fs, (argv, io) => programs(argv, io), ROOT, hasProgram, ctx.policy?.commandRules);
  const programs = programsFor(derive(ctx, { fs: host.programFs }));
  let r: Awaited<ReturnType<typeof runShell>> | "stuck";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<"stuck">((resolve) => {
    timer = setTimeout(() => resolve("stuck"), seconds * 1000 + HANG_GRACE_MS);
  });
  try {
    const running = runShell(run.script, {
      // The tool's command runs as `bash -c` runs its string (the tool's description says so).
      commandString: run.commandString ?? true,
      host,
      cwd,
      env: { ...baseEnv(cwd), ...ctx.env, ...run.env },
      limits: { timeoutMs: seconds * 1000, maxSteps: seconds * STEPS_PER_SECOND },
      onOutput: outer.output,
    });
    r = await Promise.race([running, stuck]);
    if (r === "stuck") {
      // The abandoned run may still wake up later; its redirect output must not land then.
      host.discard();
      running.catch(() => undefined);
      return shellResult(
        {
          exitCode: LIMIT_EXIT.timeout,
          stdout: new Uint8Array(0),
          stderr: new TextEncoder().encode(
            `toolshed: the command was still waiting after ${seconds}s with nothing left to run (a read from a pipe or process substitution that nobody closes); it was abandoned and its output is lost\n`,
          ),
          limit: "timeout",
          ...(denials[0] ? { denied: denials[0] } : {}),
        },
        Date.now() - started,
      );
    }
    host.flush();
  } catch (e) {
    host.discard();
    throw e;
  } finally {
    clearTimeout(timer ?? undefined);
  }
  const denied = r.denied ?? denials[0];
  return shellResult(denied ? { ...r, denied } : r, Date.now() - started);
}

function shellResult(r: { exitCode: number; stdout: Uint8Array; stderr: Uint8Array; denied?: Denial; limit?: string }, durationMs: number): ToolResult {
  const decoder = new TextDecoder();
  const rawErr = decoder.decode(r.stderr);
  const stderr = truncateMiddle(rawErr, STDERR_SHARE);
  const stdout = truncateMiddle(decoder.decode(r.stdout), MAX_OUTPUT_CHARS - stderr.length);
  const lines = (s: string) => (s === "" ? "empty" : `${s.split("\n").length - (s.endsWith("\n") ? 1 : 0)} lines`);
  const summary = [
    r.denied ? `Denied by policy (${r.denied.rule}).` : r.limit ? `Stopped: ${r.limit}.` : r.exitCode === 0 ? "Succeeded." : `Failed with exit code ${r.exitCode}.`,
    `stdout: ${lines(stdout)}; stderr: ${lines(stderr)}; ${durationMs} ms.`,
  ].join(" ");
  return {
    success: r.exitCode === 0 && !r.denied,
    exit_code: r.exitCode,
    stdout,
    stderr,
    summary,
    duration_ms: durationMs,
    ...(r.denied ? { denied: r.denied } : {}),
    ...(r.limit ? { limit: r.limit } : {}),
  };
}
