// The alarm dispatcher (src/session/alarms.ts) inside a real session object's storage: one
// alarm kept at the earliest job, handlers by kind, a failed job kept for its lease.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { AlarmScheduler, LEASE_MS } from "../../src/session/alarms";
import { newSession } from "../helpers";

const inObject = <R>(id: string, fn: (storage: DurableObjectStorage) => Promise<R>) =>
  runInDurableObject(sessionStub(env, "alice", id), (_o, state) => fn(state.storage));

describe("alarm dispatcher", () => {
  it("keeps the one alarm at the earliest job and runs due jobs by kind", async () => {
    const id = await newSession();
    await inObject(id, async (storage) => {
      const alarms = new AlarmScheduler(storage);
      const ran: string[] = [];
      const t = Date.now();
      await alarms.schedule("browser-idle", "b", t + 60_000, { tab: 1 });
      await alarms.schedule("upload-cleanup", "u", t + 10_000, { upload: "x" });
      expect(await storage.getAlarm()).toBe(t + 10_000);
      await alarms.cancel("u");
      expect(await storage.getAlarm()).toBe(t + 60_000);
      await alarms.schedule("upload-cleanup", "u", t + 5_000, { upload: "y" });
      const handlers = {
        "browser-idle": async (p: unknown) => void ran.push(`browser ${JSON.stringify(p)}`),
        "upload-cleanup": async (p: unknown) => void ran.push(`upload ${JSON.stringify(p)}`),
      };
      await alarms.run(handlers, t + 6_000);
      expect(ran).toEqual(['upload {"upload":"y"}']);
      expect(alarms.jobs().map((j) => j.id)).toEqual(["b"]);
      expect(await storage.getAlarm()).toBe(t + 60_000);
      await alarms.run(handlers, t + 61_000);
      expect(ran).toHaveLength(2);
      expect(alarms.jobs()).toEqual([]);
      expect(await storage.getAlarm()).toBeNull();
    });
  });

  const cases: [string, Record<string, () => Promise<void>>, number | null][] = [
    ["a handler that throws keeps its job for the next lease", { flaky: async () => Promise.reject(new Error("boom")) }, LEASE_MS],
    ["a job of an unknown kind is dropped", {}, null],
  ];
  it.each(cases)("%s", async (_name, handlers, leftAfter) => {
    const id = await newSession();
    await inObject(id, async (storage) => {
      const alarms = new AlarmScheduler(storage);
      const t = Date.now();
      await alarms.schedule("flaky", "j", t, {});
      await alarms.run(handlers, t);
      const jobs = alarms.jobs();
      if (leftAfter === null) expect(jobs).toEqual([]);
      else expect(jobs.map((j) => j.due)).toEqual([t + leftAfter]);
    });
  });
});
