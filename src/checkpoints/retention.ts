import { DEFAULT_HISTORY_BYTES, DEFAULT_KEEP_CALLS, DEFAULT_KEEP_HOURS } from "./limits";

/**
 * How long automatic checkpoints are kept, set by the operator:
 *   TOOLSHED_CHECKPOINTS = "calls=50,hours=24,bytes=1073741824"  (the defaults), or "off".
 * `calls`: keep those taken before the last N calls; `hours`: also the newest of each hour for
 * that many hours; `bytes`: at most this much content held only by history (oldest unnamed
 * checkpoints go first past it). Named checkpoints are kept until deleted.
 */
export interface RetentionRule {
  /** False: no automatic checkpoints at all (named ones still work). */
  auto: boolean;
  calls: number;
  hours: number;
  maxHistoryBytes: number;
}

export const DEFAULT_RETENTION: RetentionRule = { auto: true, calls: DEFAULT_KEEP_CALLS, hours: DEFAULT_KEEP_HOURS, maxHistoryBytes: DEFAULT_HISTORY_BYTES };

/** Parses the setting; a bad one is reported, never guessed at (the caller fails loudly). */
export function parseRetention(text: string | undefined): RetentionRule | { error: string } {
  const raw = (text ?? "").trim();
  if (raw === "") return DEFAULT_RETENTION;
  if (raw === "off") return { ...DEFAULT_RETENTION, auto: false };
  const rule = { ...DEFAULT_RETENTION };
  for (const part of raw.split(",")) {
    const m = /^\s*(calls|hours|bytes)\s*=\s*(\d{1,15})\s*$/.exec(part);
    if (!m) return { error: `TOOLSHED_CHECKPOINTS: cannot read '${part.trim()}'; write e.g. "calls=50,hours=24,bytes=1073741824" or "off"` };
    const n = Number(m[2]);
    if (m[1] === "calls") rule.calls = n;
    else if (m[1] === "hours") rule.hours = n;
    else rule.maxHistoryBytes = n;
  }
  return rule;
}
