// Work budgets. On Workers the clock stands still during CPU-bound code, so every
// budget counts work; the clock is only consulted at await points as a second guard.
import { LimitErrorMarker, ShellLimits } from "../host";
import { LIMITS } from "../../limits";

/** Steps per second of timeout, calibrated so a busy loop stops near its timeout
 * (measured: ~2-4M simple commands/s would be far above what this interpreter does;
 * a `while :; do :; done` iteration is 2-3 steps at roughly 1-2 µs each). */
export const STEPS_PER_SECOND = 800_000;

const DEFAULT_LIMITS: ShellLimits = {
  maxSteps: 0, // 0: derive from timeoutMs
  timeoutMs: LIMITS.interpreterTimeoutMs,
  maxCallDepth: LIMITS.shellCallDepth,
  maxSubstDepth: LIMITS.shellSubstDepth,
  maxStringLength: LIMITS.shellStringBytes,
  maxBraceExpansion: LIMITS.shellBraceWords,
  maxOutputBytes: LIMITS.shellOutputBytes,
  pipeBufferBytes: LIMITS.pipeBufferBytes,
};

/**
 * Bytes one run may write to files through redirects: a runaway `yes > f` stops here, while a
 * sort of an input larger than memory into a file still fits (the workspace quota bounds the
 * stored bytes on its own).
 */
export const MAX_FILE_OUTPUT_BYTES = LIMITS.fileOutputBytes;

/** Exit codes: 124 for timeout (as GNU timeout), 125 for any other resource limit. */
export const LIMIT_EXIT = { timeout: 124, other: 125 } as const;

export class LimitError extends LimitErrorMarker {
  constructor(
    public kind: string,
    message: string,
  ) {
    super(message);
  }
  get exitCode(): number {
    return this.kind === "timeout" ? LIMIT_EXIT.timeout : LIMIT_EXIT.other;
  }
}

export function resolveLimits(l?: Partial<ShellLimits>): ShellLimits {
  const out = { ...DEFAULT_LIMITS, ...(l ?? {}) };
  if (!out.maxSteps) out.maxSteps = Math.max(1000, Math.round((out.timeoutMs / 1000) * STEPS_PER_SECOND));
  return out;
}

/** Shared by a shell and all its subshells: one budget per run. */
/** Subshells (pipeline stages, background jobs, substitutions) alive at once; a fork bomb's wall. */
const MAX_LIVE_PROCESSES = LIMITS.liveProcesses;

export class Budget {
  steps = 0;
  private live = 0;
  enterProcess(): void {
    if (this.live >= MAX_LIVE_PROCESSES) {
      throw new LimitError("processes", `toolshed: process limit reached (${MAX_LIVE_PROCESSES} subshells at once); runaway background jobs or a fork bomb`);
    }
    this.live++;
  }
  leaveProcess(): void {
    this.live--;
  }
  deadline: number;
  outputBytes = 0;
  private sinceClock = 0;
  constructor(
    public limits: ShellLimits,
    private now: () => number,
  ) {
    this.deadline = now() + limits.timeoutMs;
  }
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) {
      throw new LimitError("timeout", `toolshed: time limit reached (step budget of ${this.limits.maxSteps} exhausted, timeout ${this.limits.timeoutMs / 1000}s)`);
    }
    if ((this.sinceClock += n) >= 256) {
      this.sinceClock = 0;
      this.checkClock();
    }
  }
  checkClock(): void {
    if (this.now() > this.deadline) throw new LimitError("timeout", `toolshed: time limit reached (${this.limits.timeoutMs / 1000}s)`);
  }
}
