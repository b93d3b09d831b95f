import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";

/**
 * How a script waits synchronously for the session (child_process.execSync through the shell):
 * JSPI, as for Python's /dev/toolshed device (src/wasi/runner.ts). The sync QuickJS build's
 * import through which QuickJS calls a host function, and the module loader's two imports, are
 * wrapped in `WebAssembly.Suspending`, and the three exports through which guest code runs (eval,
 * call, pending jobs) are called through `WebAssembly.promising`: when a host function answers
 * with a promise, the whole QuickJS stack is suspended until it settles and the guest sees the
 * value as if the call had returned at once. In workerd a Suspending import suspends on every
 * call and may only be reached under a promising entry, so run.ts enters the guest only through
 * these (and plain exports only for code that calls no host function).
 *
 * quickjs-emscripten's own entry points (`evalCode`, `callFunction`, `executePendingJobs`) are
 * synchronous, so the three promising ones below re-do their few lines over the library's
 * internals (pinned version, checked at start): the pointers passed are the library's own.
 */

type Fn = (...a: number[]) => number;
const JSPI = WebAssembly as unknown as {
  Suspending?: new (fn: (...a: number[]) => unknown) => Fn;
  promising?: (fn: Fn) => (...a: number[]) => Promise<number>;
};

/** Whether the platform has JSPI (workerd does; Node 20 only behind a flag). */
export const canSuspend = (): boolean => typeof JSPI.Suspending === "function" && typeof JSPI.promising === "function";

/**
 * Wraps the host-call import and the module loader's two imports of the emscripten glue (found by
 * what they do, since the glue's names are minified) so that they may suspend. Throws if the glue
 * changed shape.
 */
export function suspendHostCalls(imports: WebAssembly.Imports, slot: WaitSlot, memory: WebAssembly.Memory): void {
  const found = { host: 0, load: 0, normalize: 0 };
  for (const ns of Object.values(imports) as Record<string, unknown>[]) {
    for (const [name, fn] of Object.entries(ns)) {
      if (typeof fn !== "function") continue;
      const text = String(fn);
      const orig = fn as (...a: number[]) => number;
      if (text.includes("callbacks.callFunction(")) {
        // The library refuses a promise from a host function in this build, so a host function
        // that waits leaves its promise (of the answer's value pointer) in the slot instead.
        ns[name] = new JSPI.Suspending!((...a: number[]) => {
          const r = orig(...a);
          const p = slot.pending;
          if (!p) return r;
          slot.pending = null;
          return p;
        });
        found.host++;
      } else if (text.includes("callbacks.loadModuleSource(") || text.includes("callbacks.normalizeModule(")) {
        // (rt, ctx, name) and (rt, ctx, base, request): the loader's answer needs guest code
        // (resolution, a CommonJS file's exports), which may itself wait; so it is prepared off
        // the guest's stack, through promising entries, while the import is suspended, and the
        // library's own callback then hands the prepared answer to QuickJS.
        const kind = text.includes("loadModuleSource") ? "load" : "normalize";
        ns[name] = new JSPI.Suspending!(async (...a: number[]) => {
          await null;
          if (slot.prepare)
            await slot.prepare(
              kind,
              (kind === "load" ? [a[2]!] : [a[2]!, a[3]!]).map((p) => cString(memory, p)),
            );
          return orig(...a);
        });
        found[kind]++;
      }
    }
  }
  if (found.host !== 1 || found.load !== 1 || found.normalize !== 1) {
    throw new Error(`QuickJS glue: expected one host-call and two module-loader imports, found ${JSON.stringify(found)}`);
  }
}

const utf8 = new TextDecoder();
/** A NUL-terminated UTF-8 string in the instance's memory. */
function cString(memory: WebAssembly.Memory, ptr: number): string {
  const bytes = new Uint8Array(memory.buffer);
  let end = ptr;
  while (bytes[end] !== 0) end++;
  return utf8.decode(bytes.subarray(ptr, end));
}

/** Where a waiting host function leaves the promise of its answer (a JSValue pointer). */
export interface WaitSlot {
  pending: Promise<number> | null;
  /** Prepares the module loader's answer (run.ts), before the library's callback asks for it. */
  prepare: ((kind: "load" | "normalize", names: string[]) => Promise<void>) | null;
}

/** The library internals the promising entry points need (quickjs-emscripten-core 0.32). */
interface Lifetime<T> {
  value: T;
  dispose(): void;
}
interface Memory {
  newHeapCharPointer(s: string): Lifetime<{ ptr: number; strlen: number }>;
  toPointerArray(handles: QuickJSHandle[]): Lifetime<number>;
  newMutablePointerArray(n: number): Lifetime<{ ptr: number }>;
  heapValueHandle(ptr: number): QuickJSHandle;
}
interface CtxInternals {
  ctx: { value: number };
  memory: Memory;
  ffi: {
    QTS_DupValuePointer(ctx: number, ptr: number): number;
    QTS_ResolveException(ctx: number, ptr: number): number;
    QTS_FreeValuePointer(ctx: number, ptr: number): void;
    QTS_FreeValuePointerRuntime(rt: number, ptr: number): void;
  };
}
interface RtInternals {
  rt: { value: number };
  memory: Memory;
}
interface Exports {
  _QTS_Eval: Fn;
  _QTS_Call: Fn;
  _QTS_ExecutePendingJob: Fn;
}

export type Outcome = { value: QuickJSHandle; error?: undefined } | { error: QuickJSHandle; value?: undefined };
const JS_EVAL_TYPE_GLOBAL = 0;
const JS_EVAL_TYPE_MODULE = 1;

export class Waits {
  private readonly evalP;
  private readonly callP;
  private readonly jobsP;
  /** Promising calls in progress (nested only under a suspended module-loader import): a host function may suspend only inside one. */
  depth = 0;
  /** Host callbacks in progress (JS frames on the QuickJS stack): no suspension through them. */
  inHost = 0;

  constructor(
    em: unknown,
    private readonly memory: WebAssembly.Memory,
    readonly slot: WaitSlot,
  ) {
    const x = em as Partial<Exports>;
    if (typeof x._QTS_Eval !== "function" || typeof x._QTS_Call !== "function" || typeof x._QTS_ExecutePendingJob !== "function") {
      throw new Error("QuickJS glue: QTS_Eval/QTS_Call/QTS_ExecutePendingJob exports are missing");
    }
    this.evalP = JSPI.promising!(x._QTS_Eval);
    this.callP = JSPI.promising!(x._QTS_Call);
    this.jobsP = JSPI.promising!(x._QTS_ExecutePendingJob);
  }

  /** Makes the guest's current host call wait for `answer` (a string handed to the guest). */
  wait(ctx: QuickJSContext, answer: Promise<string>): void {
    const c = ctx as unknown as CtxInternals;
    this.slot.pending = answer.then((text) => {
      const h = ctx.newString(text);
      const ptr = c.ffi.QTS_DupValuePointer(c.ctx.value, (h as unknown as Lifetime<number>).value);
      h.dispose();
      return ptr;
    });
  }

  /**
   * Whether a host function called now may answer with a promise (and so suspend the guest):
   * inside a promising entry and not under a synchronous host callback. Promising entries nest
   * only where the outer one is suspended (the module loader's imports), so the innermost one is
   * the running one and may suspend too.
   */
  get canWait(): boolean {
    return this.depth >= 1 && this.inHost === 0;
  }

  private async run(call: () => Promise<number>): Promise<number> {
    this.depth++;
    try {
      return await call();
    } finally {
      this.depth--;
    }
  }

  private outcome(ctx: QuickJSContext, ptr: number): Outcome {
    const c = ctx as unknown as CtxInternals;
    const errorPtr = c.ffi.QTS_ResolveException(c.ctx.value, ptr);
    if (errorPtr) {
      c.ffi.QTS_FreeValuePointer(c.ctx.value, ptr);
      return { error: c.memory.heapValueHandle(errorPtr) };
    }
    return { value: c.memory.heapValueHandle(ptr) };
  }

  /** ctx.evalCode(code, filename, { type }) that may suspend. */
  async evalCode(ctx: QuickJSContext, code: string, filename: string, type: "global" | "module"): Promise<Outcome> {
    const c = ctx as unknown as CtxInternals;
    const src = c.memory.newHeapCharPointer(code);
    const name = c.memory.newHeapCharPointer(filename);
    try {
      const flags = type === "module" ? JS_EVAL_TYPE_MODULE : JS_EVAL_TYPE_GLOBAL;
      const ptr = await this.run(() => this.evalP(c.ctx.value, src.value.ptr, src.value.strlen, name.value.ptr, 0, flags));
      return this.outcome(ctx, ptr);
    } finally {
      src.dispose();
      name.dispose();
    }
  }

  /** ctx.callFunction(fn, thisVal, ...args) that may suspend. */
  async callFunction(ctx: QuickJSContext, fn: QuickJSHandle, thisVal: QuickJSHandle, args: QuickJSHandle[] = []): Promise<Outcome> {
    const c = ctx as unknown as CtxInternals;
    const argv = c.memory.toPointerArray(args);
    try {
      const ptr = await this.run(() =>
        this.callP(c.ctx.value, (fn as unknown as Lifetime<number>).value, (thisVal as unknown as Lifetime<number>).value, args.length, argv.value),
      );
      return this.outcome(ctx, ptr);
    } finally {
      argv.dispose();
    }
  }

  /** rt.executePendingJobs(-1) for a runtime with the one context `ctx`, that may suspend. */
  async executePendingJobs(rt: QuickJSRuntime, ctx: QuickJSContext): Promise<{ error?: QuickJSHandle }> {
    const r = rt as unknown as RtInternals;
    const out = r.memory.newMutablePointerArray(1);
    try {
      const valuePtr = await this.run(() => this.jobsP(r.rt.value, -1, out.value.ptr));
      // Read afresh: the memory may have grown (and its old buffer gone) during the jobs.
      const ctxPtr = new DataView(this.memory.buffer).getInt32(out.value.ptr, true);
      if (ctxPtr === 0) {
        (ctx as unknown as CtxInternals).ffi.QTS_FreeValuePointerRuntime(r.rt.value, valuePtr);
        return {};
      }
      const handle = (ctx as unknown as CtxInternals).memory.heapValueHandle(valuePtr);
      if (ctx.typeof(handle) === "number") {
        handle.dispose();
        return {};
      }
      return { error: handle };
    } finally {
      out.dispose();
    }
  }
}
