/**
 * Every limit of checkpoints, with its reason, in one place (to move into src/limits.ts).
 */

/** Longest label kept: a label names a checkpoint in a list, it is not a commit message. */
export const MAX_LABEL_CHARS = 200;

/** Checkpoints one session keeps at most, automatic and named together: each list and prune reads them all. */
export const MAX_CHECKPOINTS = 500;

/** Default retention of automatic checkpoints: those before the last 50 calls... */
export const DEFAULT_KEEP_CALLS = 50;
/** ...plus the newest of each hour, for this many hours (a day). */
export const DEFAULT_KEEP_HOURS = 24;

/**
 * Default cap on bytes held only by history (content no live file uses any more): as much as the
 * workspace quota allows by default, so history can at most double what a session stores.
 */
export const DEFAULT_HISTORY_BYTES = 1024 * 1024 * 1024;

/** Files a diff lists at most; past it the listing says it was cut (a model cannot read more anyway). */
export const MAX_DIFF_PATHS = 2000;

/** Text a unified diff holds at most (characters); the rest is named, not printed. */
export const MAX_DIFF_TEXT = 1024 * 1024;

/** Largest file a unified diff reads, each side: bigger files are listed as changed without hunks. */
export const MAX_DIFF_FILE_BYTES = 4 * 1024 * 1024;

/** A half-made fork (its Worker died mid-stream) is erased by an alarm this long after it started. */
export const FORK_CLEANUP_MS = 15 * 60 * 1000;
