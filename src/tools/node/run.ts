import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import type { Denial } from "../../policy/denied";
import type { GuardedFs } from "../../policy/guarded-fs";
import { newEngine } from "./engine";
import { GuestFailure, fsOps } from "./fs-ops";
import { NODE_INTERRUPTS_PER_SECOND, NODE_STACK_BYTES } from "./limits";
import type { Services } from "./services";
import { NODE_RUNTIME } from "./runtime.gen";

/** The Node version scripts see: the API level this runtime imitates (docs/node.md). */
export const NODE_VERSION = "v20.0.0";
/** Exit status of a run a limit stopped, as for a toolbox program (wasi/runner.ts EXIT_KILLED). */
const EXIT_KILLED = 137;

export type NodeMain = { kind: "eval"; code: string; print: boolean; esm: boolean } | { kind: "file"; path: string };

export interface NodeRunOptions {
  fs: GuardedFs;
  cwd: string;
  env: Record<string, string>;
  /** process.argv as Node builds it: ["/usr/bin/node", script, ...args]. */
  argv: string[];
  main: NodeMain;
  /** Whole stdin, read before the run when the script may ask for it; empty otherwise. */
  stdin: Uint8Array;
  timeoutMs: number;
  maxOutputBytes: number;
  services: Services;
  write(fd: 1 | 2, bytes: Uint8Array): void;
  flush(): Promise<void>;
  denied(d: Denial): void;
}

/** What a *Sync child_process call answers where the guest cannot be suspended. */
const WAIT_REFUSED =
  "child_process.execSync/spawnSync/execFileSync cannot wait here (called from inside a host callback, such as a toJSON method the host is serializing); call it from the script's own code, or use the callback form child_process.exec(cmd, cb)";

class Stop {
  constructor(
    readonly code: number,
    readonly message?: string,
  ) {}
}

const enc = new TextEncoder();

/** An exception the guest threw out of a hook call. */
class GuestThrow {
  constructor(readonly handle: QuickJSHandle) {}
}

/**
 * Runs one `node` invocation in a fresh QuickJS runtime: boots the Node layer (guest/), runs the
 * main script or -e code, then the event loop (promise jobs, host calls in flight, timers) until
 * nothing is left, as Node does. Returns the exit status.
 */
export async function runNode(o: NodeRunOptions): Promise<number> {
  const { mod, waits } = await newEngine();
  const rt: QuickJSRuntime = mod.newRuntime();
  rt.setMaxStackSize(NODE_STACK_BYTES);
  const maxTicks = Math.max(1, Math.round((o.timeoutMs / 1000) * NODE_INTERRUPTS_PER_SECOND));
  let ticks = 0;
  let killed = false;
  let exitCode: number | null = null;
  let outBytes = 0;
  let outOverflow: string | null = null;
  // Counting the interrupt handler's calls is counting work: it holds where the clock stands still.
  rt.setInterruptHandler(() => {
    if (exitCode !== null || outOverflow) return true;
    if (++ticks > maxTicks) killed = true;
    return killed;
  });
  const ctx: QuickJSContext = rt.newContext();
  let cwd = o.cwd;
  const fsApi = fsOps(o.fs, () => cwd, o.denied);
  const pending = new Set<Promise<unknown>>();
  let clock = 0;
  const services = o.services;
  // Host answers that arrived while the guest was suspended (waits.depth > 0): given to the
  // guest once it is not running, since nothing may call into the instance mid-suspension.
  const arrived: (() => void)[] = [];
  const deliver = (f: () => void) => (waits && waits.depth > 0 ? arrived.push(f) : f());

  const write = (fd: number, text: string) => {
    if (exitCode !== null || outOverflow) return;
    const bytes = enc.encode(text);
    outBytes += bytes.length;
    if (outBytes > o.maxOutputBytes) {
      outOverflow = `${fd === 1 ? "stdout" : "stderr"} passed the output limit of ${o.maxOutputBytes} bytes; the rest was discarded`;
      return;
    }
    o.write(fd === 2 ? 2 : 1, bytes);
  };

  const isArrayBuffer = ctx.unwrapResult(ctx.evalCode("(x) => x instanceof ArrayBuffer", "<host>", { type: "global" }));
  const ok = (v: unknown) => ctx.newString(JSON.stringify({ v: v === undefined ? null : v }));
  const fail = (e: GuestFailureLike) => ctx.newString(JSON.stringify({ e }));
  type GuestFailureLike = GuestFailure["error"];
  const arg = (h: QuickJSHandle): unknown => {
    const t = ctx.typeof(h);
    if (t === "string") return ctx.getString(h);
    if (t === "number") return ctx.getNumber(h);
    if (t === "object") {
      const isBuf = ctx.unwrapResult(ctx.callFunction(isArrayBuffer, ctx.undefined, h)).consume((v) => ctx.dump(v));
      if (isBuf) return ctx.getArrayBuffer(h).value.slice();
    }
    return ctx.dump(h);
  };
  const bytesOut = (b: Uint8Array) => ctx.newArrayBuffer(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  const later = (work: Promise<unknown>) => {
    const d = ctx.newPromise();
    // In flight until the guest has its answer (not merely until the work ends): an answer that
    // arrives while the guest runs waits in `arrived`, and the loop must not end before it is given.
    const settle = (answer: string) =>
      deliver(() => {
        d.resolve(ctx.newString(answer));
        d.dispose();
        pending.delete(p);
      });
    const p: Promise<unknown> = work.then(
      (v) => settle(JSON.stringify({ v })),
      (e) => settle(JSON.stringify({ e: e instanceof GuestFailure ? e.error : { message: String(e instanceof Error ? e.message : e) } })),
    );
    pending.add(p);
    return d.handle;
  };

  const ops: Record<string, (...a: any[]) => unknown> = {
    ...fsApi,
    write: (fd: number, text: string) => (write(fd, text), null),
    stdin: () => o.stdin,
    cwd: () => cwd,
    chdir: (d: string) => {
      const n = fsApi.stat(d, true, "chdir") as { mode: number };
      if ((n.mode & 0o170000) !== 0o040000) throw new GuestFailure({ code: "ENOTDIR", syscall: "chdir", path: d });
      cwd = o.fs.resolve(cwd, d);
      return null;
    },
    exit: (code: number) => {
      if (exitCode === null) exitCode = code & 0xff;
      return null;
    },
    // Timers run on a clock the loop moves (it sleeps for real, then steps the clock by that
    // much): the order of timers is Node's, whatever the platform's clock resolution.
    now: () => clock,
    memory: () => Number((ctx.dump(rt.computeMemoryUsage()) as { memory_used_size?: number }).memory_used_size ?? 0),
    ...services.sync,
  };
  const asyncOps: Record<string, (...a: any[]) => Promise<unknown>> = services.async;

  const hostFn = (opH: QuickJSHandle, ...argH: QuickJSHandle[]) => {
    if (waits) waits.inHost++;
    try {
      return hostCall(opH, argH);
    } finally {
      if (waits) waits.inHost--;
    }
  };
  const hostCall = (opH: QuickJSHandle, argH: QuickJSHandle[]) => {
    const op = ctx.getString(opH);
    const args = argH.map(arg);
    if (asyncOps[op]) return later(asyncOps[op]!(...args));
    const fn = ops[op];
    if (!fn) return fail({ message: `unknown host call ${op}` });
    try {
      const v = fn(...args);
      return v instanceof Uint8Array ? bytesOut(v) : ok(v);
    } catch (e) {
      if (e instanceof GuestFailure) return fail(e.error);
      throw e;
    }
  };
  ctx.newFunction("__host", hostFn).consume((f) => ctx.setProp(ctx.global, "__host", f));
  if (waits) {
    const blocking = services.blocking;
    ctx
      .newFunction("__hostWait", (opH, ...argH) => {
        const op = ctx.getString(opH);
        const args = argH.map((h) => ctx.dump(h) as unknown);
        if (!blocking[op]) return ctx.newString(JSON.stringify({ e: { message: `unknown host call ${op}` } }));
        // Only the guest's own code may wait: not from inside a host callback (a module loader,
        // an 'exit' listener run by the host), where JS frames sit on the suspended stack.
        if (!waits.canWait) return ctx.newString(JSON.stringify({ e: { code: "ERR_NOT_SUPPORTED", message: WAIT_REFUSED } }));
        // The guest's stack is suspended (JSPI) until the answer is there (suspend.ts). The
        // work starts after the suspension, and only a string crosses back.
        waits.wait(
          ctx,
          (async () => {
            await null;
            try {
              return JSON.stringify({ v: await blocking[op]!(...args) });
            } catch (e) {
              return JSON.stringify({ e: e instanceof GuestFailure ? e.error : { message: String(e instanceof Error ? e.message : e) } });
            }
          })(),
        );
        return undefined;
      })
      .consume((f) => ctx.setProp(ctx.global, "__hostWait", f));
  }
  ctx
    .newFunction("__compile", (codeH, fileH, asScriptH) => {
      const code = ctx.getString(codeH);
      const file = ctx.getString(fileH);
      void asScriptH;
      if (waits) waits.inHost++;
      try {
        return ctx.evalCode(code, file, { type: "global", strict: false });
      } finally {
        if (waits) waits.inHost--;
      }
    })
    .consume((f) => ctx.setProp(ctx.global, "__compile", f));

  // The module loader for ES modules: built-ins and CommonJS files as synthetic modules.
  let hooks: QuickJSHandle | null = null;
  const hook = (name: string, ...args: (string | number | boolean)[]): unknown => {
    if (waits) waits.inHost++;
    try {
      return hookCall(name, args);
    } finally {
      if (waits) waits.inHost--;
    }
  };
  /**
   * A hook called from the top (the event loop, not from inside a host callback): through JSPI's
   * promising entry when this run can wait, since the Suspending host-call import may only be
   * reached under one (a hook may run the script's code: 'exit' listeners, timers).
   */
  const hookTop = async (name: string, ...args: (string | number)[]): Promise<unknown> => {
    if (!waits) return hook(name, ...args);
    const fn = ctx.getProp(hooks!, name);
    const argHandles = args.map((a) => (typeof a === "string" ? ctx.newString(a) : ctx.newNumber(a)));
    const r = await waits.callFunction(ctx, fn, hooks!, argHandles);
    fn.dispose();
    for (const h of argHandles) h.dispose();
    if (r.error) throw new GuestThrow(r.error);
    return r.value!.consume((v) => ctx.dump(v));
  };
  const hookCall = (name: string, args: (string | number | boolean)[]): unknown => {
    const fn = ctx.getProp(hooks!, name);
    const argHandles = args.map((a) => (typeof a === "string" ? ctx.newString(a) : typeof a === "number" ? ctx.newNumber(a) : a ? ctx.true : ctx.false));
    const r = ctx.callFunction(fn, hooks!, ...argHandles);
    fn.dispose();
    argHandles.forEach((h) => h.alive && h !== ctx.true && h !== ctx.false && h.dispose());
    if (r.error) throw new GuestThrow(r.error);
    return r.value.consume((v) => ctx.dump(v));
  };
  // The module loader for ES modules: built-ins and CommonJS files as synthetic modules. Its
  // steps are generators, driven synchronously by plain hook calls, or (when the run can wait)
  // asynchronously through promising entries while QuickJS's loader import is suspended.
  type Ask = { hook: string; args: string[] } | { describe: QuickJSHandle };
  type Answer = string | { error: Error };
  function* loadSource(name: string): Generator<Ask, Answer, unknown> {
    try {
      if (name.startsWith("node:")) {
        const names = (yield { hook: "exportNames", args: [name] }) as string[];
        return `const m = globalThis.__node.require(${JSON.stringify(name)});\nexport default m;\n${names.length ? `export const { ${names.join(", ")} } = m;\n` : ""}`;
      }
      if (yield { hook: "isEsm", args: [name] }) return (ops.readText as (p: string) => string)(name).replace(/^#!.*/, "");
      if (name.endsWith(".json")) return `export default ${(ops.readText as (p: string) => string)(name)};`;
      const names = ((yield { hook: "exportNames", args: [name] }) as string[]) ?? [];
      return `const m = globalThis.__node.hooks.cjsExports(${JSON.stringify(name)});\nexport default m;\n${names.length ? `export const { ${names.join(", ")} } = m;\n` : ""}`;
    } catch (e) {
      if (e instanceof GuestThrow) return { error: new Error((yield { describe: e.handle }) as string) };
      if (e instanceof GuestFailure) return { error: new Error(`Cannot find module '${name}'`) };
      throw e;
    }
  }
  function* normalize(base: string, request: string): Generator<Ask, Answer, unknown> {
    if (request.startsWith("node:")) return request;
    if (!/^[./]/.test(request)) {
      try {
        yield { hook: "exportNames", args: [request] };
        return `node:${request}`;
      } catch (e) {
        if (e instanceof GuestThrow) e.handle.dispose();
      }
    }
    try {
      return (yield { hook: "resolve", args: [request, base.startsWith("/") ? base : `${cwd}/[eval]`] }) as string;
    } catch (e) {
      if (e instanceof GuestThrow) return { error: new Error((yield { describe: e.handle }) as string) };
      throw e;
    }
  }
  const driveSync = (g: Generator<Ask, Answer, unknown>): Answer => {
    let step = g.next();
    while (!step.done) {
      const ask = step.value;
      let v: unknown;
      try {
        v = "describe" in ask ? describe(ask.describe) : hook(ask.hook, ...ask.args);
      } catch (e) {
        step = g.throw(e);
        continue;
      }
      step = g.next(v);
    }
    return step.value;
  };
  const driveAsync = async (g: Generator<Ask, Answer, unknown>): Promise<Answer> => {
    let step = g.next();
    while (!step.done) {
      const ask = step.value;
      let v: unknown;
      try {
        v = "describe" in ask ? await describeTop(ask.describe) : await hookTop(ask.hook, ...ask.args);
      } catch (e) {
        step = g.throw(e);
        continue;
      }
      step = g.next(v);
    }
    return step.value;
  };
  let prepared: Answer | null = null;
  const take = (): Answer | null => {
    const a = prepared;
    prepared = null;
    return a;
  };
  if (waits) {
    waits.slot.prepare = async (kind, names) => {
      prepared = await driveAsync(kind === "load" ? loadSource(names[0]!) : normalize(names[0]!, names[1]!));
    };
  }
  rt.setModuleLoader(
    (name) => take() ?? driveSync(loadSource(name)),
    (base, request) => take() ?? driveSync(normalize(base, request)),
  );

  const describe = (h: QuickJSHandle): string => {
    const fn = ctx.getProp(hooks!, "describe");
    const r = ctx.callFunction(fn, hooks!, h);
    fn.dispose();
    const text = r.error ? String(ctx.dump(r.error)) : ctx.getString(r.value);
    (r.error ?? r.value).dispose();
    return text;
  };
  /** describe() from the top, through a promising entry when the run can wait. */
  const describeTop = async (h: QuickJSHandle): Promise<string> => {
    if (!waits) return describe(h);
    const fn = ctx.getProp(hooks!, "describe");
    const r = await waits.callFunction(ctx, fn, hooks!, [h]);
    fn.dispose();
    const text = r.error ? String(ctx.dump(r.error)) : ctx.getString(r.value!);
    (r.error ?? r.value)!.dispose();
    return text;
  };

  const err = (text: string) => o.write(2, enc.encode(text));
  /** Runs guest code from the top: through JSPI's promising entry where there is one, so it may wait. */
  const evalEntry = async (code: string, file = "<node>", type: "global" | "module" = "global"): Promise<QuickJSHandle | { error: QuickJSHandle }> => {
    const r = waits ? await waits.evalCode(ctx, code, file, type) : ctx.evalCode(code, file, { type });
    return r.error ? { error: r.error } : r.value!;
  };
  const runJobs = async (): Promise<{ error?: QuickJSHandle }> => {
    if (waits) return waits.executePendingJobs(rt, ctx);
    const r = rt.executePendingJobs(-1);
    return r.error ? { error: r.error } : (r.value, {});
  };
  /** What an exception that reached the top means: exit, a limit, or an uncaught error (printed). */
  const settle = async (errorH: QuickJSHandle): Promise<Stop> => {
    if (exitCode !== null) return new Stop(exitCode);
    if (outOverflow) return new Stop(EXIT_KILLED, `node: killed: ${outOverflow}\n`);
    if (killed) return new Stop(EXIT_KILLED, `node: killed: step limit reached (${maxTicks * 10_000} steps)\n`);
    const text = await printError(errorH);
    return new Stop(1, text);
  };
  const printError = async (errorH: QuickJSHandle): Promise<string> => `${hooks ? await describeTop(errorH) : String(ctx.dump(errorH))}\n\nNode.js ${NODE_VERSION}\n`;

  let result = 0;
  try {
    const boot = waits
      ? await waits.evalCode(ctx, `${NODE_RUNTIME}\n;globalThis.__nodeBoot`, "<node:runtime>", "global")
      : ctx.evalCode(`${NODE_RUNTIME}\n;globalThis.__nodeBoot`, "<node:runtime>", { type: "global" });
    if (boot.error) throw new Error(`node runtime failed to start: ${String(ctx.dump(boot.error))}`);
    const bootFn = boot.value!;
    const bootJson = JSON.stringify({ argv: o.argv, env: o.env, version: NODE_VERSION, pid: 4242 });
    const bootArg = ctx.newString(bootJson);
    const booted = waits ? await waits.callFunction(ctx, bootFn, ctx.undefined, [bootArg]) : ctx.callFunction(bootFn, ctx.undefined, bootArg);
    bootArg.dispose();
    bootFn.dispose();
    if (booted.error) throw new Error(`node runtime failed to start: ${String(ctx.dump(booted.error))}`);
    hooks = booted.value!;

    // The main script.
    let top: QuickJSHandle | { error: QuickJSHandle };
    const m = o.main;
    if (m.kind === "file" && ((await hookTop("isEsm", m.path)) as boolean)) {
      const src = ops.readText!(m.path) as string;
      top = await evalEntry(src.replace(/^#!.*/, ""), m.path, "module");
    } else if (m.kind === "eval" && m.esm) {
      top = await evalEntry(m.code, `${cwd}/[eval1]`, "module");
    } else if (m.kind === "file") {
      top = await evalEntry(`__node.hooks.runMain(${JSON.stringify(m.path)})`);
    } else if (waits) {
      // From the top, not from inside __compile (a host callback): so execSync may suspend it.
      top = await evalEntry("__node.hooks.evalCode(null, false)");
      if (!("error" in top)) {
        top.dispose();
        top = await evalEntry(m.code, "[eval]");
        if (!("error" in top) && m.print) {
          const log = ctx.unwrapResult(ctx.evalCode("(v) => console.log(v)", "<node>", { type: "global" }));
          const value = top;
          const printed = await waits.callFunction(ctx, log, ctx.undefined, [value]);
          log.dispose();
          value.dispose();
          top = printed.error ? { error: printed.error } : printed.value!;
        }
        if (!("error" in top)) top.dispose(), (top = ctx.undefined);
      }
    } else {
      top = await evalEntry(`__node.hooks.evalCode(${JSON.stringify(m.code)}, ${m.print})`);
    }
    let topPromise: QuickJSHandle | null = null;
    if ("error" in top) throw await settle(top.error);
    if (ctx.typeof(top) === "object" && ctx.getPromiseState(top).type !== undefined) topPromise = top;
    else top.dispose();

    // The event loop: promise jobs, then host calls in flight, then the next timer.
    let slept = 0;
    for (;;) {
      while (arrived.length) arrived.shift()!();
      const jobs = await runJobs();
      if (jobs.error) throw await settle(jobs.error);
      if (exitCode !== null || outOverflow || killed) break;
      await o.flush();
      if (topPromise) {
        const state = ctx.getPromiseState(topPromise);
        if (state.type === "rejected") {
          const e = state.error;
          topPromise.dispose();
          topPromise = null;
          throw await settle(e);
        }
      }
      if (pending.size) {
        const before = Date.now();
        await Promise.race(pending);
        clock += Math.max(0, Date.now() - before);
        continue;
      }
      const next = (await hookTop("nextTimer")) as number;
      if (next < 0) {
        // 'beforeExit' may schedule more work, as in Node.
        await hookTop("beforeExit", (await hookTop("exitCode")) as number);
        if (rt.hasPendingJob() || pending.size || ((await hookTop("nextTimer")) as number) >= 0) continue;
        break;
      }
      if (next > 0) {
        if (slept + next > o.timeoutMs) {
          killed = true;
          throw new Stop(EXIT_KILLED, `node: killed: timers would wait past the call's timeout (${o.timeoutMs} ms)\n`);
        }
        slept += next;
        await new Promise((r) => setTimeout(r, next));
        clock += next;
      }
      const fired = await evalEntry("__node.hooks.fireTimer()");
      if ("error" in fired) throw await settle(fired.error);
      fired.dispose();
    }
    topPromise?.dispose();
    if (exitCode === null && !outOverflow && !killed) {
      const code = (await hookTop("exitCode")) as number;
      try {
        await hookTop("emitExit", code);
      } catch (e) {
        if (e instanceof GuestThrow) throw await settle(e.handle);
        throw e;
      }
      result = exitCode ?? code;
    } else if (outOverflow || killed) {
      throw await settle(ctx.undefined);
    } else result = exitCode ?? 0;
  } catch (e) {
    if (e instanceof GuestThrow) e = await settle(e.handle);
    // The host's own stack ran out under the guest's (JSPI's stacks are smaller than the main
    // one, and some C-heavy recursion outruns NODE_STACK_BYTES): the instance stopped mid-call and
    // is dropped, and the script ends as Node's does on an uncaught RangeError.
    const overflow = e instanceof RangeError && /call stack/i.test(e.message);
    if (overflow) e = new Stop(1, `RangeError: Maximum call stack size exceeded\n\nNode.js ${NODE_VERSION}\n`);
    if (!(e instanceof Stop)) throw e;
    if (e.message) err(e.message);
    result = e.code;
    // An uncaught error still runs 'exit' listeners, as in Node.
    if (result === 1 && exitCode === null && hooks && !overflow) {
      try {
        await hookTop("emitExit", 1);
      } catch {
        /* an exit listener that throws changes nothing more */
      }
    }
  } finally {
    await o.flush();
    // The instance is dropped whole (engine.ts): no teardown of a runtime a limit may have stopped mid-way.
  }
  return result;
}
