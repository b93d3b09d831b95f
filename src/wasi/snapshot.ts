import { LIMITS } from "../limits";
import { capture, isResettable, type Image } from "./instance-pool";

/**
 * Starting a program from a copy of itself taken after its own initialization, kept per isolate.
 *
 * A module that exports `toolshed_init` and `toolshed_resume` (python.wasm, built with
 * scripts/python/snapshot-entry.c) can be started in two halves: `toolshed_init` does the part
 * of its start that does not depend on the command (CPython's core initialization and the
 * frozen modules every start imports), `toolshed_resume` reads the run's argv and environment
 * and does the rest. The first such run in an isolate calls both and keeps the state between
 * them (`capture`); later runs start an instance in that state and call only `toolshed_resume`.
 * The state is the same whichever run took it, provided what the init half reads is the same:
 * the init half sees only the variables the program names (for CPython: the locale), which key
 * the copy with the preopen layout (wasi-libc keeps its preopen table from the init half).
 *
 * Per isolate, not per build: nothing needs a build-time tool, the copy is taken by the same
 * runtime that uses it, and no session's data can be in it (the init half reads no file of the
 * workspace, nothing of the command and none of the session's variables).
 */

const INIT = "toolshed_init";
const RESUME = "toolshed_resume";

const snapshots = new WeakMap<WebAssembly.Module, Map<string, Image>>();
const halves = new WeakMap<WebAssembly.Module, boolean>();

/** Whether the module can be started in two halves (both exports, and resettable), asked once per module. */
function hasHalves(module: WebAssembly.Module): boolean {
  let yes = halves.get(module);
  if (yes === undefined) {
    const names = WebAssembly.Module.exports(module).map((e) => e.name);
    yes = isResettable(module) && names.includes(INIT) && names.includes(RESUME);
    halves.set(module, yes);
  }
  return yes;
}

/** How a run enters its program. */
export type Entry =
  | { kind: "start" }
  /** Call the init half seeing only `env`, keep the state under `key`, then the resume half. */
  | { kind: "init"; key: string; env: string[] }
  /** The instance is in `image`; call the resume half. */
  | { kind: "resume"; image: Image };

/**
 * The entry for a run whose program allows a snapshot whose init half sees `env` (null: it does
 * not), over `fds` file descriptors (stdio and preopens).
 */
export function entryFor(module: WebAssembly.Module, env: readonly string[] | null, fds: number): Entry {
  if (env === null || !hasHalves(module)) return { kind: "start" };
  const key = `${env.join("\n")}|fds=${fds}`;
  const image = snapshots.get(module)?.get(key);
  return image ? { kind: "resume", image } : { kind: "init", key, env: [...env] };
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

/** The copies kept of `module` in this isolate. */
export const keptCopies = (module: WebAssembly.Module): Image[] => [...(snapshots.get(module)?.values() ?? [])];
