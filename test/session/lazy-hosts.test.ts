// A call builds only the hosts its tool uses, and reads the session's settings once
// (issue: every call built the browser, MCP and sub-agent hosts and read the settings twice).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { newSession } from "../helpers";

type Counted = { browserHost: number; deferredHost: number; subAgentHost: number; reads: number };

/** Wraps the object's host builders and its settings read with counters. */
function count(instance: unknown): Counted {
  const o = instance as Record<string, unknown> & { open(): { store: { read(): unknown } } };
  const n: Counted = { browserHost: 0, deferredHost: 0, subAgentHost: 0, reads: 0 };
  for (const name of ["browserHost", "deferredHost", "subAgentHost"] as const) {
    const original = o[name] as (...a: unknown[]) => unknown;
    o[name] = (...a: unknown[]) => (n[name]++, original.apply(o, a));
  }
  const store = o.open().store;
  const read = store.read.bind(store);
  store.read = () => (n.reads++, read());
  return n;
}

describe("lazy hosts", () => {
  it("a bash echo builds no browser, MCP or sub-agent host and reads the settings once", async () => {
    const id = await newSession();
    await runInDurableObject(sessionStub(env, "alice", id), async (instance) => {
      const n = count(instance);
      const r = await instance.callTool("bash", { command: "echo hi" });
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.result).toMatchObject({ success: true, stdout: "hi\n" });
      expect(n).toEqual({ browserHost: 0, deferredHost: 0, subAgentHost: 0, reads: 1 });
    });
  });

  it("a host is built on first use, once", async () => {
    const id = await newSession();
    await runInDurableObject(sessionStub(env, "alice", id), async (instance) => {
      const n = count(instance);
      const o = instance as unknown as { open(): unknown; context(s: unknown, p: unknown): { browser?: unknown; agents?: unknown } };
      const { profileOf } = await import("../../src/profiles");
      const ctx = o.context(o.open(), profileOf("toolshed"));
      expect(n.browserHost).toBe(0);
      const first = ctx.browser;
      expect(ctx.browser).toBe(first);
      expect(n.browserHost).toBe(1);
      expect(ctx.agents).toBeDefined();
      expect(n).toMatchObject({ browserHost: 1, subAgentHost: 1, deferredHost: 0 });
    });
  });
});
