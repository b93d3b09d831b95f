import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import jspiModule from "./fixtures/jspi.wasm";

/**
 * JSPI (WebAssembly.Suspending / WebAssembly.promising) lets a synchronous WASI import await a
 * promise: the Wasm stack is suspended and resumed. These tests pin down that this workerd
 * supports it, in a test and inside a Durable Object: the runner streams pipes through it
 * (runWasiStreaming, see streaming.test.ts).
 */
async function roundTrip(): Promise<number> {
  const W = WebAssembly as unknown as {
    Suspending: new (fn: () => Promise<number>) => WebAssembly.ImportValue;
    promising: (fn: unknown) => () => Promise<number>;
  };
  const wait = new W.Suspending(async () => {
    await new Promise((r) => setTimeout(r, 1));
    return 41;
  });
  const inst = new WebAssembly.Instance(jspiModule, { env: { wait } });
  return W.promising(inst.exports.run)();
}

describe("JSPI in workerd", () => {
  it("exposes WebAssembly.Suspending and WebAssembly.promising", () => {
    const W = WebAssembly as unknown as Record<string, unknown>;
    expect(typeof W.Suspending).toBe("function");
    expect(typeof W.promising).toBe("function");
  });

  it("suspends Wasm on an async import and resumes it with the result", async () => {
    expect(await roundTrip()).toBe(42);
  });

  it("works inside a Durable Object too", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
    expect(await runInDurableObject(stub, () => roundTrip())).toBe(42);
  });
});
