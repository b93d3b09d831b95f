// spawn (background sub-agents) against the SCRIPTED model server
// (test/agents/scripted-model.global.mjs): the run outlives the spawning request, is driven by
// the session object's alarm, and resumes from SQLite after an eviction.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { sessionStub } from "../../src/service";
import { api, BOB, newSession, tool } from "../helpers";

const modelServer = inject("scriptedModel");
const stubOf = (id: string) => sessionStub(env, "alice", id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function requestsFor(script: string): Promise<any[]> {
  const all = (await (await fetch(`${modelServer}/requests`)).json()) as any[];
  return all.filter((r) => r.script === script);
}

/** Drives the session's alarm until the task has finished; returns the task as GET shows it. */
async function finished(id: string, task: string, ms = 15_000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    await runDurableObjectAlarm(stubOf(id));
    const r = await api("GET", `/v1/sessions/${id}/tasks/${task}`);
    expect(r.status).toBe(200);
    if (r.body.status !== "running") return r.body;
    if (Date.now() > until) throw new Error(`task ${task} still running: ${JSON.stringify(r.body)}`);
    await sleep(100);
  }
}

const logOf = async (id: string): Promise<any[]> => (await api("GET", `/v1/sessions/${id}/log`)).body.calls;

describe("spawn", () => {
  it("returns a task id at once; the result arrives after the spawning request ended", async () => {
    const id = await newSession();
    const started = await tool(id, "spawn", { task: "[script:background] append to trace.txt", tools: ["bash"], label: "tracer" });
    expect(started).toMatchObject({ success: true, label: "tracer", status: "running" });
    expect(started.task).toMatch(/^task-/);
    expect(started.output).toContain("pending message");

    const done = await finished(id, started.task);
    expect(done).toMatchObject({ task: started.task, label: "tracer", status: "done", report: "BG REPORT bash ran", tools: ["bash"], turns: 2, tool_calls: 1 });
    expect(done.finished_at).toEqual(expect.any(String));
    const trace = await tool(id, "read_file", { path: "trace.txt", line_numbers: false });
    expect(trace.output).toContain("bg");
    const log = await logOf(id);
    expect(log.find((c) => c.tool === "bash")).toMatchObject({ task: started.task, outcome: "ok" });
    expect(log.find((c) => c.tool === "spawn")?.task).toBeUndefined();
  });

  it("delivers the report as a pending message on the next tool call, exactly once", async () => {
    const id = await newSession();
    const started = await tool(id, "spawn", { task: "[script:background] x", tools: ["bash"] });
    expect(started.label).toBe("[script:background] x");
    await finished(id, started.task);
    const next = await tool(id, "set_status", { status: "working" });
    expect(next.pending_messages).toHaveLength(1);
    expect(next.pending_messages[0]).toMatchObject({ task: started.task, status: "done", report: "BG REPORT bash ran" });
    expect(next.output).toContain(`[Pending messages: 1 background task(s) finished]\n## ${started.task} ([script:background] x): done\nBG REPORT bash ran`);
    const again = await tool(id, "list_dir", {});
    expect(again.pending_messages).toBeUndefined();
    expect(JSON.stringify(again)).not.toContain("BG REPORT");
    // Still readable from the endpoint after delivery.
    expect((await api("GET", `/v1/sessions/${id}/tasks/${started.task}`)).body.report).toBe("BG REPORT bash ran");
  });

  it("refuses a tool it was not given, as that tool's result, and logs it with the task id", async () => {
    const id = await newSession();
    const started = await tool(id, "spawn", { task: "[script:background] y", tools: ["read_file"] });
    const done = await finished(id, started.task);
    expect(done).toMatchObject({ status: "done", report: "BG REPORT bash did not run" });
    const bash = (await logOf(id)).find((c) => c.tool === "bash");
    expect(bash).toMatchObject({ task: started.task, outcome: "denied", denied: { rule: "subagent-tools" } });
  });

  it("resumes from its last saved step after the session object is cut off mid-run", async () => {
    const id = await newSession();
    const gate = `evict-${crypto.randomUUID().slice(0, 8)}`;
    const started = await tool(id, "spawn", { task: `[script:gated][gate:${gate}] go`, tools: ["bash"] });
    // Wait until the model's second turn is being held (the bash call already ran and was saved).
    const held = async () => (await requestsFor("gated")).filter((r) => r.body.messages[1].content.includes(gate) && r.body.messages.some((m: any) => m.role === "tool"));
    for (let i = 0; (await held()).length === 0; i++) {
      if (i > 100) throw new Error("the scripted model never saw the second turn");
      await sleep(50);
    }
    // Cut the object off mid-run as a redeploy or crash does. (evictDurableObject would wait for
    // the run's in-flight model call to drain, so it cannot cut a run mid-call.)
    await runInDurableObject(stubOf(id), (_o, state) => state.abort("evicted by the test")).catch(() => undefined);
    expect((await api("GET", `/v1/sessions/${id}/tasks/${started.task}`)).body.status).toBe("running");
    await fetch(`${modelServer}/gates/${gate}`, { method: "POST" });
    const done = await finished(id, started.task);
    expect(done).toMatchObject({ status: "done", report: "RESUMED after 1 tool result(s)", turns: 2, tool_calls: 1 });
    // The bash call was not run again, and the second turn was asked twice (lost, then resumed).
    const trace = await tool(id, "read_file", { path: "trace.txt", line_numbers: false });
    expect(trace.output.match(/step1/g)).toHaveLength(1);
    expect((await held()).length).toBe(2);
  });

  it("runs at most 5 sub-agents at once (spawn and delegate together); the 6th is refused clearly", async () => {
    const id = await newSession();
    const six = await Promise.all(Array.from({ length: 6 }, (_, i) => tool(id, "spawn", { task: `[script:slow] ${i}`, tools: ["read_file"] })));
    const ok = six.filter((r) => r.success);
    const refused = six.filter((r) => !r.success);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toContain("at most 5 may run at once (delegate and spawn together)");
    const del = await tool(id, "delegate", { tasks: [{ prompt: "[script:slow] d", tools: ["read_file"] }] });
    expect(del.success).toBe(false);
    expect(del.error).toContain("at most 5 may run at once");
    for (const r of ok) expect((await finished(id, r.task)).report).toBe("slow report");
    expect((await tool(id, "spawn", { task: "[script:slow] again", tools: ["read_file"] })).success).toBe(true);
  });

  it("ends a run at its timeout with a clear result (spawn and delegate)", async () => {
    const id = await newSession();
    const started = await tool(id, "spawn", { task: "[script:slow] late", tools: ["read_file"], timeout: 1 });
    const done = await finished(id, started.task);
    expect(done.status).toBe("timeout");
    expect(done.report).toContain("ran out of time (timeout 1 s) after 0 turn(s)");
    const del = await tool(id, "delegate", { tasks: [{ prompt: "[script:slow] late", tools: ["read_file"], timeout: 1 }] });
    expect(del.success).toBe(false);
    expect(del.results[0]).toMatchObject({ success: false, timedOut: true });
    expect(del.output).toContain("timed out");
  });

  it("lists tasks; an unknown task is 404, another tenant sees nothing", async () => {
    const id = await newSession();
    const a = await tool(id, "spawn", { task: "[script:none] a", tools: ["read_file"] });
    await finished(id, a.task);
    const list = await api("GET", `/v1/sessions/${id}/tasks`);
    expect(list.status).toBe(200);
    expect(list.body.tasks.map((t: any) => t.task)).toEqual([a.task]);
    const unknown = await api("GET", `/v1/sessions/${id}/tasks/task-nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("task_not_found");
    for (const path of [`/v1/sessions/${id}/tasks`, `/v1/sessions/${id}/tasks/${a.task}`]) {
      const other = await api("GET", path, { key: BOB });
      expect(other.status).toBe(404);
      expect(other.body.error).toBe("session_not_found");
    }
  });

  const refusals: [string, unknown, string][] = [
    ["an unknown tool", { task: "x", tools: ["teleport"] }, "tools: 'teleport' is not a tool of this session"],
    ["delegate", { task: "x", tools: ["delegate"] }, "a sub-agent cannot be given 'delegate'"],
    ["no tools", { task: "x", tools: [] }, "tools"],
    ["a timeout above 600", { task: "x", tools: ["bash"], timeout: 601 }, "timeout"],
  ];
  it.each(refusals)("refuses %s before anything starts", async (_name, args, message) => {
    const id = await newSession();
    const r = await api("POST", `/v1/sessions/${id}/tools/spawn`, { body: args });
    expect(r.status === 400 || (r.status === 200 && r.body.success === false)).toBe(true);
    expect(JSON.stringify(r.body)).toContain(message);
    expect((await api("GET", `/v1/sessions/${id}/tasks`)).body.tasks).toEqual([]);
  });
});
