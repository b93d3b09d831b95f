// A warm call asks SQLite only what it must: every statement costs workerd CPU (about 0.1 ms
// each under wrangler dev, measured by adding statements to a call), so the settings are kept
// in memory after the first read, the question "did a background task finish?" is asked only
// after one did, and the automatic checkpoint is found with one statement (issue 27).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { api, newSession } from "../helpers";

/** Records every statement the session object runs while `fn` does. */
async function statements(id: string, fn: () => Promise<unknown>): Promise<string[]> {
  const log: string[] = [];
  let restore = () => {};
  await runInDurableObject(sessionStub(env, "alice", id), async (_instance, state) => {
    const sql = state.storage.sql as unknown as { exec: (q: string, ...a: unknown[]) => unknown };
    const exec = sql.exec;
    sql.exec = function (q: string, ...a: unknown[]) {
      log.push(q.replace(/\s+/g, " ").trim());
      return exec.call(this, q, ...a);
    };
    restore = () => void (sql.exec = exec);
  });
  try {
    await fn();
  } finally {
    restore();
  }
  return log;
}

const bash = (id: string, command: string) => api("POST", `/v1/sessions/${id}/tools/bash`, { body: { command } });

describe("SQL statements per call", () => {
  it("a warm `bash echo hi` runs five: checkpoint, log, last use and retention's two", async () => {
    const id = await newSession();
    for (let i = 0; i < 3; i++) expect((await bash(id, "echo hi")).body.stdout).toBe("hi\n");
    const log = await statements(id, async () => expect((await bash(id, "echo hi")).body.stdout).toBe("hi\n"));
    expect(log).toHaveLength(5);
    expect(log.some((q) => q.startsWith("SELECT key, value FROM session_meta"))).toBe(false);
    expect(log.some((q) => q.includes("subagent_tasks"))).toBe(false);
    expect(log.filter((q) => q.includes("cp_checkpoints") && q.includes("cp_delta"))).toHaveLength(1);
  });

  it("the settings kept in memory stay those stored", async () => {
    const id = await newSession();
    await bash(id, "echo hi");
    await runInDurableObject(sessionStub(env, "alice", id), async (instance, state) => {
      const before = (await instance.meta())!;
      await instance.callTool("bash", { command: "true" });
      const after = (await instance.meta())!;
      const stored = state.storage.sql.exec<{ value: string }>(`SELECT value FROM session_meta WHERE key = 'lastUsedAt'`).one().value;
      expect(after.lastUsedAt).toBeGreaterThanOrEqual(before.lastUsedAt);
      expect(after.lastUsedAt).toBe(Number(stored));
      // What a caller does to its copy stays there.
      after.env["CHANGED"] = "1";
      expect((await instance.meta())!.env["CHANGED"]).toBeUndefined();
    });
  });

  it("a file-changing call after a change still gets a new automatic checkpoint", async () => {
    const id = await newSession();
    await bash(id, "echo one > a.txt");
    await bash(id, "echo two > a.txt");
    const r = await api("GET", `/v1/sessions/${id}/checkpoints`);
    expect(r.status).toBe(200);
    const list = (r.body.checkpoints ?? r.body) as { kind: string }[];
    expect(list.filter((c) => c.kind === "auto").length).toBeGreaterThanOrEqual(2);
  });
});
