import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { sessionStub } from "../../src/service";
import { checkConsistency } from "../../src/vfs/consistency";
import { faults, type FaultPoint } from "../../src/vfs/faults";
import { api, tool } from "../helpers";

/** How the Durable Object is interrupted: an exception unwinds the write, an abort kills the object mid-write. */
export type FaultKind = "throw" | "abort";

export const stubOf = (id: string) => sessionStub(env, "alice", id);

/**
 * Runs `action` with a fault armed at the `nth` time the write reaches `point`: either an error
 * thrown there, or the object's `ctx.abort()` (a crash: in-memory state gone, the next request
 * gets a fresh instance). Returns whether the fault fired; the hook is disarmed afterwards.
 */
export async function withFault<T>(
  id: string,
  kind: FaultKind | "none",
  point: FaultPoint,
  nth: number,
  action: () => Promise<T>,
): Promise<{ fired: boolean; outcome: T | Error }> {
  const ctx = await runInDurableObject(stubOf(id), (_o, state) => state);
  let hits = 0;
  let fired = false;
  faults.hook = (p) => {
    if (p !== point || ++hits !== nth) return;
    fired = true;
    faults.hook = null;
    if (kind === "abort") ctx.abort("injected fault");
    throw new Error("injected fault");
  };
  let outcome: T | Error;
  try {
    outcome = await action();
  } catch (e) {
    outcome = e as Error;
  } finally {
    faults.hook = null;
  }
  return { fired, outcome };
}

/** The tables' invariants hold (see src/vfs/consistency.ts). */
export async function expectConsistent(id: string, allowUncommitted = 0): Promise<void> {
  const problems = await runInDurableObject(stubOf(id), (_o, state) => checkConsistency(state.storage.sql, { allowUncommitted }));
  expect(problems).toEqual([]);
}

/** The session still serves a write and a read after the fault. */
export async function expectWorks(id: string): Promise<void> {
  const w = await tool(id, "write_file", { path: "after-fault.txt", content: "still here\n" });
  expect(w.success).toBe(true);
  const r = await api("GET", `/v1/sessions/${id}/files/after-fault.txt`);
  expect(r.status).toBe(200);
  expect(r.body).toBe("still here\n");
}

/** A file's bytes through the API, or null when it does not exist. */
export async function contentOf(id: string, path: string): Promise<string | null> {
  const r = await api("GET", `/v1/sessions/${id}/files/${path}`);
  if (r.status === 404) return null;
  expect(r.status).toBe(200);
  return typeof r.body === "string" ? r.body : JSON.stringify(r.body);
}
