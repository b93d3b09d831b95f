// delegate against the SCRIPTED model server (test/agents/scripted-model.global.mjs): the
// sub-agent's tool calls go through the session's real dispatch, policy and log.
import { describe, expect, inject, it } from "vitest";
import { api, newSession, tool } from "../helpers";

const modelServer = inject("scriptedModel");

async function requestsFor(script: string): Promise<any[]> {
  const all = (await (await fetch(`${modelServer}/requests`)).json()) as any[];
  return all.filter((r) => r.script === script);
}

describe("delegate", () => {
  it("runs a sub-agent with read_file and bash; its write_file is refused and logged with the task id", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "notes.txt", content: "hello from notes\nsecond line\n" });
    const r = await tool(id, "delegate", { tasks: [{ prompt: "[script:files] summarise notes.txt", tools: ["read_file", "bash"] }] });
    expect(r.success).toBe(true);
    const [result] = r.results;
    expect(result).toMatchObject({ success: true, turns: 3, toolCalls: 3 });
    expect(result.task).toMatch(/^task-/);
    // The report quotes what each tool really returned to the sub-agent.
    const seen = JSON.parse(result.report.replace(/^REPORT /, ""));
    expect(seen[0].success).toBe(true);
    expect(JSON.stringify(seen[0])).toContain("hello from notes");
    expect(seen[1].success).toBe(true);
    expect(seen[1].output ?? seen[1].stdout).toMatch(/2\s+ran-in-bash|2\nran-in-bash/);
    expect(seen[2]).toMatchObject({ success: false, denied: { rule: "subagent-tools" } });
    expect(seen[2].error).toContain("not given 'write_file'");

    // Nothing was written, and the log holds the three calls with the task id.
    const read = await tool(id, "read_file", { path: "forbidden.txt" });
    expect(read.success).toBe(false);
    const log = (await api("GET", `/v1/sessions/${id}/log`)).body.calls as any[];
    const mine = log.filter((c) => c.task === result.task).reverse();
    expect(mine.map((c) => [c.tool, c.outcome])).toEqual([
      ["read_file", "ok"],
      ["bash", "ok"],
      ["write_file", "denied"],
    ]);
    expect(log.find((c) => c.tool === "delegate")?.task).toBeUndefined();

    // The model saw exactly the two tools, the reporting footer, and the key in the header only.
    const [first] = await requestsFor("files");
    expect(first.authorized).toBe(true);
    expect(first.body.model).toBe("scripted-model");
    expect(first.body.tools.map((t: any) => t.function.name).sort()).toEqual(["bash", "read_file"]);
    expect(first.body.messages[0].role).toBe("system");
    expect(first.body.messages[0].content).toContain("# Reporting back\nWhen you finish, respond with a concise report");
  });

  it("runs tasks side by side, one result each, in order", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "notes.txt", content: "one\ntwo\n" });
    const r = await tool(id, "delegate", {
      tasks: [
        { prompt: "[script:files] a", tools: ["read_file", "bash"] },
        { prompt: "[script:none] b", tools: ["read_file"] },
        { prompt: "[script:loop] c", tools: ["read_file"], max_turns: 2 },
      ],
    });
    expect(r.success).toBe(true);
    expect(r.results.map((x: any) => x.success)).toEqual([true, true, false]);
    expect(r.results[1].report).toContain("no script in the prompt");
    expect(r.results[2].report).toContain("turn cap (2)");
    expect(new Set(r.results.map((x: any) => x.task)).size).toBe(3);
  });

  const refusals: [string, unknown, string][] = [
    ["an unknown tool", { tasks: [{ prompt: "x", tools: ["read_file", "teleport"] }] }, "tasks.0.tools: 'teleport' is not a tool of this session"],
    ["delegate itself", { tasks: [{ prompt: "x", tools: ["delegate"] }] }, "sub-agents do not start sub-agents"],
    ["six tasks", { tasks: Array.from({ length: 6 }, () => ({ prompt: "x", tools: ["read_file"] })) }, "tasks"],
    ["no tools", { tasks: [{ prompt: "x", tools: [] }] }, "tasks.0.tools"],
    ["a turn cap above 50", { tasks: [{ prompt: "x", tools: ["read_file"], max_turns: 51 }] }, "tasks.0.max_turns"],
  ];
  it.each(refusals)("refuses %s before any model call", async (_name, args, message) => {
    const id = await newSession();
    // A mark in every prompt: the test counts only its own requests, as other files run at once.
    const mark = crypto.randomUUID();
    const r = await api("POST", `/v1/sessions/${id}/tools/delegate`, { body: JSON.parse(JSON.stringify(args).replaceAll('"prompt":"x"', `"prompt":"x ${mark}"`)) });
    const text = JSON.stringify(r.body);
    expect(r.status === 400 || (r.status === 200 && r.body.success === false)).toBe(true);
    expect(text).toContain(message);
    expect((await requestsFor("none")).filter((q) => JSON.stringify(q.body).includes(mark))).toEqual([]);
  });

  it("refuses a tool the session was not created with", async () => {
    const id = await newSession(undefined, { tools: ["read_file", "delegate"] });
    const r = await tool(id, "delegate", { tasks: [{ prompt: "x", tools: ["bash"] }] });
    expect(r.success).toBe(false);
    expect(r.error).toContain("'bash' is not a tool of this session; choose among read_file.");
  });

  const providerErrors: [string, string][] = [
    ["unauthorized", "refused the credentials (HTTP 401): the operator must check TOOLSHED_LLM_API_KEY"],
    ["ratelimited", "rate limiting requests (HTTP 429). Retry after 7 s."],
    ["malformed", "malformed reply (not JSON)"],
    ["wrongshape", "malformed reply (no choices[0].message)"],
    ["hang", "did not answer within 4 s"],
  ];
  it.each(providerErrors)("a %s provider reply is a clear error without the key", async (script, message) => {
    const id = await newSession();
    const r = await tool(id, "delegate", { tasks: [{ prompt: `[script:${script}] go`, tools: ["read_file"] }] });
    expect(r.success).toBe(false);
    expect(r.results[0].success).toBe(false);
    expect(r.results[0].report).toContain(message);
    expect(r.error).toContain(message);
    expect(JSON.stringify(r)).not.toContain("test-llm-key");
  });

  it("runs at most 5 sub-agents at once per session and refuses more clearly", async () => {
    const id = await newSession();
    const five = tool(id, "delegate", { tasks: Array.from({ length: 5 }, (_, i) => ({ prompt: `[script:slow] ${i}`, tools: ["read_file"] })) });
    await new Promise((r) => setTimeout(r, 500));
    const sixth = await tool(id, "delegate", { tasks: [{ prompt: "[script:slow] 6", tools: ["read_file"] }] });
    expect(sixth.success).toBe(false);
    expect(sixth.error).toContain("at most 5 may run at once");
    const done = await five;
    expect(done.results.map((x: any) => x.report)).toEqual(Array(5).fill("slow report"));
    // Slots are given back: the next delegate runs.
    const after = await tool(id, "delegate", { tasks: [{ prompt: "[script:slow] 7", tools: ["read_file"] }] });
    expect(after.results[0].report).toBe("slow report");
  });
});
