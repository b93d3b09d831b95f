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
 *
 * A run may also ask for an instance in another state than a fresh one: an image `capture`d
 * from an instance after some of its work (a started interpreter, snapshot.ts). Such instances
 * are pooled apart and put back into that image after each run.
 */

const RESETTABLE_SECTION = "toolshed.resettable";
const WASM_PAGE = 65536;
/** Idle instances kept per module (or captured image) and import shape. */
const MAX_IDLE = LIMITS.idleInstances;
/** Each idle instance holds its memory (3 MiB for the toolbox, 10 MiB for python): all of them together stay under this. */
const MAX_IDLE_BYTES = LIMITS.idleInstancesBytes;
let idleBytes = 0;
const bytesOf = (i: WebAssembly.Instance) => (i.exports.memory as WebAssembly.Memory).buffer.byteLength;

type ImportFn = (...args: any[]) => unknown;
export type ImportTable = Record<string, Record<string, ImportFn>>;
/** Wraps an import so that it may suspend the program (JSPI's WebAssembly.Suspending). */
export type Suspender = (fn: ImportFn) => WebAssembly.ImportValue;

/** What an instance holds before it runs: a fresh one's state, or one captured later. */
export interface Image {
  memoryBytes: number;
  /** The memory's stretches of non-zero pages; every byte outside them is zero. */
  segments: { at: number; data: Uint8Array }[];
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
/** Idle fresh instances by module and import shape. */
const pools = new WeakMap<WebAssembly.Module, Map<string, Pooled[]>>();
/** Idle instances in a captured image, by import shape (dropped with the image). */
const capturedPools = new WeakMap<Image, Map<string, Pooled[]>>();

/**
 * Granularity of an image's stretches: a started CPython has non-zero bytes from near the start
 * of its 10 MiB to near the end, with long runs of zero pages between them.
 */
const IMAGE_PAGE = 4096;

/** The state of `instance` now: its memory and exported mutable globals; null without a memory. */
export function capture(instance: WebAssembly.Instance): Image | null {
  const memory = instance.exports.memory;
  if (!(memory instanceof WebAssembly.Memory)) return null;
  const bytes = new Uint8Array(memory.buffer);
  const words = new Uint32Array(memory.buffer);
  const zeroPage = (at: number) => {
    for (let w = at / 4, end = (at + IMAGE_PAGE) / 4; w < end; w++) if (words[w] !== 0) return false;
    return true;
  };
  const segments: Image["segments"] = [];
  let from = -1;
  for (let at = 0; at <= bytes.length; at += IMAGE_PAGE) {
    const used = at < bytes.length && !zeroPage(at);
    if (used && from < 0) from = at;
    if (!used && from >= 0) {
      segments.push({ at: from, data: bytes.slice(from, at) });
      from = -1;
    }
  }
  // Every mutable global the module exports, under the meter's names or its own (the fuel).
  const globals = Object.entries(instance.exports)
    .filter(([, g]) => g instanceof WebAssembly.Global && isMutable(g))
    .map(([name, g]) => ({ name, value: (g as WebAssembly.Global).value }));
  return { memoryBytes: bytes.length, segments, globals };
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

/** Puts the instance into the state `image` describes; false when it cannot be (its memory is larger). */
function reset(instance: WebAssembly.Instance, image: Image): boolean {
  const memory = instance.exports.memory as WebAssembly.Memory;
  const short = image.memoryBytes - memory.buffer.byteLength;
  if (short < 0) return false;
  if (short > 0) memory.grow(short / WASM_PAGE);
  const bytes = new Uint8Array(memory.buffer);
  let zeroFrom = 0;
  for (const { at, data } of image.segments) {
    bytes.fill(0, zeroFrom, at);
    bytes.set(data, at);
    zeroFrom = at + data.length;
  }
  bytes.fill(0, zeroFrom);
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
 * "module.name") are wrapped with `suspend`. With `from`, the instance is in that captured state
 * instead of a fresh one's (the module must be resettable). Throws what `new
 * WebAssembly.Instance` throws.
 */
export function acquire(module: WebAssembly.Module, imports: ImportTable, suspending: ReadonlySet<string> = new Set(), suspend?: Suspender, from?: Image): Lease {
  const resettable = isResettable(module);
  if (from && !resettable) throw new Error("only a resettable module can start from a captured image");
  if (!resettable) {
    const direct: WebAssembly.Imports = {};
    for (const [from, fns] of Object.entries(imports)) {
      direct[from] = Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, suspend && suspending.has(`${from}.${name}`) ? suspend(fn) : fn]));
    }
    return { instance: new WebAssembly.Instance(module, direct), release: () => undefined };
  }
  let byShape = from ? capturedPools.get(from) : pools.get(module);
  if (!byShape) {
    byShape = new Map();
    if (from) capturedPools.set(from, byShape);
    else pools.set(module, byShape);
  }
  const shape = [...suspending].sort().join(",");
  let idle = byShape.get(shape);
  if (!idle) byShape.set(shape, (idle = []));
  let pooled = idle.pop();
  if (pooled) idleBytes -= bytesOf(pooled.instance);
  else {
    const slot: Pooled["slot"] = { imports: null };
    const instance = new WebAssembly.Instance(module, trampolines(module, slot, suspending, suspend));
    if (!images.has(module)) images.set(module, capture(instance));
    if (from && !reset(instance, from)) throw new Error("the captured image has less memory than a fresh instance starts with");
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
      const image = from ?? images.get(module);
      if (!image || pool.length >= MAX_IDLE || idleBytes + image.memoryBytes > MAX_IDLE_BYTES || !reset(entry.instance, image)) return;
      pool.push(entry);
      idleBytes += bytesOf(entry.instance);
    },
  };
}

/** Whether wasm/meter marked the module: all of its mutable state is in its memory and exported globals. */
export const isResettable = (module: WebAssembly.Module): boolean => WebAssembly.Module.customSections(module, RESETTABLE_SECTION).length > 0;
