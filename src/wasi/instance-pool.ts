import { LIMITS } from "../limits";

/**
 * Instances kept per isolate and run again, so that a program start is not an instantiation.
 *
 * `new WebAssembly.Instance` of the toolbox copies its 589 KB of data segments into a fresh
 * memory and fills an 817-entry table: about 1.1-1.6 ms, and every dropped memory is external
 * memory that pulls full garbage collections after it (another ~1 ms per start over a loop of
 * starts). A module that wasm/meter marked `toolshed.resettable` keeps all of its mutable state in
 * its memory and in globals exported as `toolshed_global_<i>`; putting back the memory image and
 * the globals it had when it was instantiated gives the next run exactly a fresh instance. Only
 * an instance whose memory still has its initial size is kept (memory cannot shrink, and a run
 * must not start with pages a fresh one would not have); the meter gives modules enough initial
 * memory for the small commands that dominate loops. Other modules are instantiated per run.
 *
 * The instance is bound to trampolines that call the imports of the run holding it, so a run
 * passes its own imports (its fds, its limits) exactly as before.
 */

const RESETTABLE_SECTION = "toolshed.resettable";
/** Idle instances kept per module and import shape; each holds its memory (3 MiB for the toolbox). */
const MAX_IDLE = LIMITS.idleInstances;

type ImportFn = (...args: any[]) => unknown;
export type ImportTable = Record<string, Record<string, ImportFn>>;
/** Wraps an import so that it may suspend the program (JSPI's WebAssembly.Suspending). */
export type Suspender = (fn: ImportFn) => WebAssembly.ImportValue;

/** What a fresh instance of a module holds before it runs. */
interface Image {
  memoryBytes: number;
  /** The memory's bytes from the first non-zero one to the last; all others are zero. */
  dataAt: number;
  data: Uint8Array;
  globals: { name: string; value: unknown }[];
}

interface Pooled {
  instance: WebAssembly.Instance;
  /** The imports of the run that holds the instance (null while idle). */
  slot: { imports: ImportTable | null };
}

/** An instance lent to one run; `release` once the run is over and its results are read. */
export interface Lease {
  instance: WebAssembly.Instance;
  release(): void;
}

const images = new WeakMap<WebAssembly.Module, Image | null>();
const pools = new WeakMap<WebAssembly.Module, Map<string, Pooled[]>>();

function imageOf(module: WebAssembly.Module, fresh: WebAssembly.Instance): Image | null {
  const memory = fresh.exports.memory;
  if (!(memory instanceof WebAssembly.Memory)) return null;
  const bytes = new Uint8Array(memory.buffer);
  let lo = 0;
  while (lo < bytes.length && bytes[lo] === 0) lo++;
  let hi = bytes.length;
  while (hi > lo && bytes[hi - 1] === 0) hi--;
  // Every mutable global the module exports, under the meter's names or its own (the fuel).
  const globals = Object.entries(fresh.exports)
    .filter(([, g]) => g instanceof WebAssembly.Global && isMutable(g))
    .map(([name, g]) => ({ name, value: (g as WebAssembly.Global).value }));
  return { memoryBytes: bytes.length, dataAt: lo, data: bytes.slice(lo, hi), globals };
}

function isMutable(g: WebAssembly.Global): boolean {
  try {
    // biome-ignore lint/correctness/noSelfAssign: writing a global is the probe for mutability.
    g.value = g.value;
    return true;
  } catch {
    return false;
  }
}

/** Puts the instance back into the state `image` describes; false when it cannot be. */
function reset(instance: WebAssembly.Instance, image: Image): boolean {
  const memory = instance.exports.memory as WebAssembly.Memory;
  if (memory.buffer.byteLength !== image.memoryBytes) return false;
  const bytes = new Uint8Array(memory.buffer);
  bytes.fill(0, 0, image.dataAt);
  bytes.set(image.data, image.dataAt);
  bytes.fill(0, image.dataAt + image.data.length);
  for (const { name, value } of image.globals) (instance.exports[name] as WebAssembly.Global).value = value;
  return true;
}

function trampolines(module: WebAssembly.Module, slot: Pooled["slot"], suspending: ReadonlySet<string>, suspend?: Suspender): WebAssembly.Imports {
  const table: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== "function") continue;
    const call: ImportFn = (...args) => {
      const fn = slot.imports?.[from]?.[name];
      if (!fn) throw new Error(`import ${from}.${name} called outside a run`);
      return fn(...args);
    };
    (table[from] ??= {})[name] = suspend && suspending.has(`${from}.${name}`) ? suspend(call) : call;
  }
  return table;
}

/**
 * An instance of `module` for one run over `imports`; the `suspending` imports (as
 * "module.name") are wrapped with `suspend`. Throws what `new WebAssembly.Instance` throws.
 */
export function acquire(module: WebAssembly.Module, imports: ImportTable, suspending: ReadonlySet<string> = new Set(), suspend?: Suspender): Lease {
  const resettable = WebAssembly.Module.customSections(module, RESETTABLE_SECTION).length > 0;
  if (!resettable) {
    const direct: WebAssembly.Imports = {};
    for (const [from, fns] of Object.entries(imports)) {
      direct[from] = Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, suspend && suspending.has(`${from}.${name}`) ? suspend(fn) : fn]));
    }
    return { instance: new WebAssembly.Instance(module, direct), release: () => undefined };
  }
  let byShape = pools.get(module);
  if (!byShape) pools.set(module, (byShape = new Map()));
  const shape = [...suspending].sort().join(",");
  let idle = byShape.get(shape);
  if (!idle) byShape.set(shape, (idle = []));
  let pooled = idle.pop();
  if (!pooled) {
    const slot: Pooled["slot"] = { imports: null };
    const instance = new WebAssembly.Instance(module, trampolines(module, slot, suspending, suspend));
    if (!images.has(module)) images.set(module, imageOf(module, instance));
    pooled = { instance, slot };
  }
  pooled.slot.imports = imports;
  const entry = pooled;
  const pool = idle;
  let released = false;
  return {
    instance: entry.instance,
    release() {
      if (released) return;
      released = true;
      entry.slot.imports = null;
      const image = images.get(module);
      if (image && pool.length < MAX_IDLE && reset(entry.instance, image)) pool.push(entry);
    },
  };
}
