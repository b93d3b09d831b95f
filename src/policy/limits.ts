import type { Quotas } from "../vfs/workspace";
import { LIMITS } from "../limits";

const DEFAULT_QUOTAS: Quotas = { maxBytes: LIMITS.quotaBytes, maxFiles: LIMITS.quotaFiles };
/** JSON bodies (tool arguments) larger than this are refused with 413. */
const DEFAULT_MAX_JSON_BYTES = LIMITS.jsonBodyBytes;
/** Raw uploads through the files endpoint. */
export const MAX_UPLOAD_BYTES = LIMITS.uploadBytes;
export const MAX_STATUS_CHARS = LIMITS.statusChars;
export const GREP_MAX_LINES = LIMITS.grepLines;
export const GLOB_MAX_RESULTS = LIMITS.globResults;
/** Files bigger than this are not searched by grep (they are listed as skipped). */
export const GREP_MAX_FILE_BYTES = LIMITS.grepFileBytes;
/** send_file: the largest file, and what a session's outbox may hold at once. */
export const SEND_MAX_FILE_BYTES = LIMITS.sendFileBytes;
/** How long a sent file and its download link last (TOOLSHED_OUTBOX_TTL_SECONDS, at most 7 days). */
const OUTBOX_DEFAULT_TTL_SECONDS = LIMITS.outboxTtlSeconds;
const OUTBOX_MAX_TTL_SECONDS = LIMITS.outboxMaxTtlSeconds;

const positiveInt = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

export function quotasFromEnv(env: { TOOLSHED_QUOTA_BYTES?: string; TOOLSHED_QUOTA_FILES?: string }): Quotas {
  return {
    maxBytes: positiveInt(env.TOOLSHED_QUOTA_BYTES, DEFAULT_QUOTAS.maxBytes),
    maxFiles: positiveInt(env.TOOLSHED_QUOTA_FILES, DEFAULT_QUOTAS.maxFiles),
  };
}

export function maxJsonBytesFromEnv(env: { TOOLSHED_MAX_JSON_BYTES?: string }): number {
  return positiveInt(env.TOOLSHED_MAX_JSON_BYTES, DEFAULT_MAX_JSON_BYTES);
}

export function outboxTtlSecondsFromEnv(env: { TOOLSHED_OUTBOX_TTL_SECONDS?: string }): number {
  return Math.min(positiveInt(env.TOOLSHED_OUTBOX_TTL_SECONDS, OUTBOX_DEFAULT_TTL_SECONDS), OUTBOX_MAX_TTL_SECONDS);
}
