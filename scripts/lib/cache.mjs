// Build outputs cached OUTSIDE the clone, keyed by a hash of their inputs, so that a fresh clone
// on the same machine (CI clones afresh each run) copies them instead of rebuilding for minutes.
// Nothing here is committed, and a machine without the cache builds as before.
// (scripts/build-python.mjs names the same base itself: its cache key hashes its own text.)
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** ${XDG_CACHE_HOME:-~/.cache}/toolshed: every cached build lives under it. */
export const cacheBase = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "toolshed");

/** The cache entry for `kind` built from inputs hashing to `hash`. */
export function cacheEntry(kind, hash) {
  return join(cacheBase, `${kind}-${hash}`);
}

/** Copies `names` from the entry into `dir` when the entry holds them all; true when it did. */
export function restoreFromCache(entry, names, dir) {
  if (!names.every((n) => existsSync(join(entry, n)))) return false;
  mkdirSync(dir, { recursive: true });
  for (const n of names) copyFileSync(join(entry, n), join(dir, n));
  return true;
}

/** Stores `names` from `dir` as the entry, whole or not at all (a staging folder, then a rename). */
export function storeInCache(entry, names, dir) {
  const staging = `${entry}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const n of names) copyFileSync(join(dir, n), join(staging, n));
  rmSync(entry, { recursive: true, force: true });
  renameSync(staging, entry);
}
