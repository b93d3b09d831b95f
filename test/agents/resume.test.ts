// runSubAgent resuming from saved states (what a background run finds in SQLite after an
// eviction). The model and the session are in-memory recorders here: this checks only which
// steps the loop repeats; test/agents/spawn.test.ts runs the real thing against the scripted model.
import { describe, expect, it } from "vitest";
import type { SubAgentHost } from "../../src/agents/host";
import { initialState, runSubAgent, type AgentState } from "../../src/agents/loop";
import type { ChatMessage, ChatModel, ToolCall } from "../../src/agents/model";

const call = (id: string): ToolCall => ({ id, type: "function", function: { name: "read_file", arguments: `{"path":"${id}"}` } });

function recorders() {
  const ran: string[] = [];
  let modelCalls = 0;
  const model: ChatModel = { complete: async () => (modelCalls++, { content: "final", toolCalls: [] }) };
  const host = {
    tools: () => new Map([["read_file", { type: "function", function: { name: "read_file", description: "", parameters: {} } }]]),
    call: async (_n: string, args: unknown) => (ran.push((args as { path: string }).path), { success: true }),
    logRefusal: () => {},
  } as unknown as SubAgentHost;
  return { model, host, ran, modelCalls: () => modelCalls };
}

const base = initialState({ prompt: "go" }).messages;
const answered = (id: string): ChatMessage => ({ role: "tool", tool_call_id: id, content: "{}" });

const cases: [string, AgentState, string[], number][] = [
  ["fresh: one model turn", { messages: [...base], turns: 0, toolCalls: 0 }, [], 1],
  ["cut off after the final answer: nothing repeated", { messages: [...base, { role: "assistant", content: "done" }], turns: 1, toolCalls: 0 }, [], 0],
  [
    "cut off between two tool calls: only the unanswered one runs",
    { messages: [...base, { role: "assistant", content: null, tool_calls: [call("a"), call("b")] }, answered("a")], turns: 1, toolCalls: 1 },
    ["b"],
    1,
  ],
  [
    "cut off during a model turn: the turn is asked again",
    { messages: [...base, { role: "assistant", content: null, tool_calls: [call("a")] }, answered("a")], turns: 1, toolCalls: 1 },
    [],
    1,
  ],
];

describe("runSubAgent resumes a saved state", () => {
  it.each(cases)("%s", async (_name, state, ranCalls, modelTurns) => {
    const r = recorders();
    const out = await runSubAgent(r.model, r.host, { id: "t", prompt: "go", tools: ["read_file"], maxTurns: 15, timeoutSeconds: 60 }, { state });
    expect(out.success).toBe(true);
    expect(r.ran).toEqual(ranCalls);
    expect(r.modelCalls()).toBe(modelTurns);
  });
});
