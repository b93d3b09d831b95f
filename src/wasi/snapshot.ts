import { LIMITS } from "../limits";
import { capture, isResettable, type Image } from "./instance-pool";

/**
 * Starting a program from a copy of itself taken after its own initialization, kept per isolate.
 *
 * A module that exports `toolshed_init` and `toolshed_resume` (python.wasm, built with
 * scripts/python/snapshot-entry.c) can be started in two halves: `toolshed_init` does the part
 * of its start that does not depend on the command (CPython's core initialization and the
 * frozen modules every start imports: 0.9 of the 1.9 million steps of `python3 -c pass`),
 * `toolshed_resume` reads the run's argv and environment and does the rest. The first such run in an isolate calls both and keeps the
 * state between them (`capture`); later runs start an instance in that state and call only
 * `toolshed_resume`. The state is the same whichever run took it, provided what the init half
 * reads is the same: the caller's key says so (for CPython: the locale variables), and the
 * preopen layout is part of it, because wasi-libc keeps its preopen table from the init half.
 *
 * Per isolate, not per build: nothing needs a build-time tool, the copy is taken by the same
 * runtime that uses it, and no session's data can be in it (the init half reads no file of the
 * workspace and nothing of the command).
 */

const INIT = "toolshed_init";
const RESUME = "toolshed_resume";

const snapshots = new WeakMap<WebAssembly.Module, Map<string, Image>>();

/** How a run enters its program. */
export type Entry =
  | { kind: "start" }
  /** Call the init half, keep the state under `key`, then the resume half. */
  | { kind: "init"; key: string }
  /** The instance is in `image`; call the resume half. */
  | { kind: "resume"; image: Image };

/** The entry for a run whose caller allows a snapshot under `key` (null: it does not). */
export function entryFor(module: WebAssembly.Module, key: string | null): Entry {
  if (key === null || !isResettable(module)) return { kind: "start" };
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  if (!names.includes(INIT) || !names.includes(RESUME)) return { kind: "start" };
  const image = snapshots.get(module)?.get(key);
  return image ? { kind: "resume", image } : { kind: "init", key };
}

/** The exported functions a run calls in order; the state after `init` is kept by `afterInit`. */
export function steps(module: WebAssembly.Module, instance: WebAssembly.Instance, entry: Entry): { init?: () => unknown; afterInit?: () => void; main: () => unknown } {
  const fn = (name: string) => instance.exports[name] as () => unknown;
  if (entry.kind === "start") return { main: fn("_start") };
  if (entry.kind === "resume") return { main: fn(RESUME) };
  return {
    init: fn(INIT),
    afterInit: () => keep(module, instance, entry.key),
    main: fn(RESUME),
  };
}

function keep(module: WebAssembly.Module, instance: WebAssembly.Instance, key: string): void {
  const image = capture(instance);
  if (!image) return;
  let byKey = snapshots.get(module);
  if (!byKey) snapshots.set(module, (byKey = new Map()));
  // A new key past the bound replaces the oldest (a Map keeps insertion order).
  if (!byKey.has(key) && byKey.size >= LIMITS.snapshotsPerProgram) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, image);
}
