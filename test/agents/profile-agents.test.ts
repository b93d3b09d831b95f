// The platforms' sub-agent tools (src/profiles/agents.ts) in real sessions of their profiles,
// against the SCRIPTED model server (test/agents/scripted-model.global.mjs).
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { sessionStub } from "../../src/service";
import { api, newSession, tool } from "../helpers";

const modelServer = inject("scriptedModel");

/** The tool names the model was offered in the first request whose prompt has `marker`. */
async function offeredTools(marker: string): Promise<string[]> {
  const all = (await (await fetch(`${modelServer}/requests`)).json()) as any[];
  const hit = all.find((r) => r.body.messages?.some((m: any) => m.role === "user" && m.content.includes(marker)));
  return hit.body.tools.map((t: any) => t.function.name).sort();
}

async function finished(id: string, task: string): Promise<any> {
  for (let i = 0; i < 150; i++) {
    await runDurableObjectAlarm(sessionStub(env, "alice", id));
    const r = await api("GET", `/v1/sessions/${id}/tasks/${task}`);
    if (r.body.status !== "running") return r.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${task} never finished`);
}

describe("sub-agent tools of the platform profiles", () => {
  it("darix spawn_worker runs in the background with the picked tools and the system prompt; the response comes as a wake message", async () => {
    const id = await newSession(undefined, { profile: "darix-worker" });
    const marker = crypto.randomUUID();
    const r = await tool(id, "spawn_worker", { systemPrompt: `You are a tracer ${marker}.`, tools: ["bash"], initialMessage: `[script:background] ${marker}` });
    expect(r).toMatchObject({ success: true, status: "running" });
    await finished(id, r.task);
    expect(await offeredTools(marker)).toEqual(["bash"]);
    const all = (await (await fetch(`${modelServer}/requests`)).json()) as any[];
    const system = all.find((x) => x.body.messages?.[1]?.content?.includes(marker)).body.messages[0].content;
    expect(system).toMatch(new RegExp(`^You are a tracer ${marker}\\.\\n\\n# Reporting back\\n`));
    const next = await tool(id, "read", { path: "trace.txt" });
    expect(next.pending_messages[0]).toMatchObject({ task: r.task, status: "done", report: "BG REPORT bash ran" });
  });

  it("darix spawn_worker refuses an unknown tool name at parse time", async () => {
    const id = await newSession(undefined, { profile: "darix-worker" });
    const r = await api("POST", `/v1/sessions/${id}/tools/spawn_worker`, { body: { systemPrompt: "x", tools: ["read_file"], initialMessage: "go" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("tools.0");
  });

  it("libertai spawn gives the subagent every tool of the session except spawn", async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    const marker = crypto.randomUUID();
    const r = await tool(id, "spawn", { task: `[script:none] ${marker} and a long tail so that the label is cut at fifty characters` });
    expect(r.label).toBe(`[script:none] ${marker} and a long tail so that the label is cut at fifty characters`.slice(0, 50));
    await finished(id, r.task);
    const served = (await api("GET", `/v1/sessions/${id}`)).body.tools as string[];
    expect(served).toContain("spawn");
    expect(await offeredTools(marker)).toEqual(served.filter((n) => n !== "spawn").sort());
  });

  it("wayland Delegate runs its tasks synchronously with their toolsets (or every non-agent tool)", async () => {
    const id = await newSession(undefined, { profile: "wayland-core" });
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const r = await tool(id, "Delegate", { tasks: [{ prompt: `[script:none] ${a}`, toolsets: ["Read", "Grep"] }, { prompt: `[script:none] ${b}` }] });
    expect(r.success).toBe(true);
    expect(r.results.map((x: any) => x.success)).toEqual([true, true]);
    expect(await offeredTools(a)).toEqual(["Grep", "Read"]);
    expect(await offeredTools(b)).toEqual(["Bash", "Edit", "Glob", "Grep", "Read", "WebFetch", "Write"]);
    const refused = await tool(id, "Delegate", { tasks: [{ prompt: "x", toolsets: ["Spawn"] }] });
    expect(refused.error).toContain("a sub-agent cannot be given 'Spawn'");
  });

  it("wayland Spawn fans out and waits; a named agent is refused clearly", async () => {
    const id = await newSession(undefined, { profile: "wayland-core" });
    const r = await tool(id, "Spawn", { tasks: [{ prompt: "[script:none] one" }, { prompt: "[script:none] two" }] });
    expect(r.results).toHaveLength(2);
    expect(r.results[0].report).toContain("no script in the prompt");
    // Streamed, each sub-agent's report is relayed as it finishes (stdout events), before the result.
    const streamed = await api("POST", `/v1/sessions/${id}/tools/Spawn`, {
      body: { tasks: [{ prompt: "[script:none] three" }] },
      headers: { accept: "text/event-stream" },
    });
    const events = [...String(streamed.body).matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => [m[1], JSON.parse(m[2]!)]);
    expect(events.map((e) => e[0])).toEqual(["start", "stdout", "result"]);
    expect(events[1]![1].data).toMatch(/^## Task 1 \(task-[0-9a-f-]+\): done\nno script in the prompt/);
    const named = await api("POST", `/v1/sessions/${id}/tools/Spawn`, { body: { tasks: [{ agent: "debugger", prompt: "x" }] } });
    expect(named.status).toBe(400);
    expect(named.body.message).toContain("named agents are not supported");
  });
});
