// How provider answers become one model turn: OpenAI's chat-completions shape, Workers AI's
// native shape, and the malformed ones, which must be clear errors.
import { describe, expect, it } from "vitest";
import { chatModel } from "../../src/agents/model";
import { parseReply } from "../../src/agents/model/reply";

describe("parseReply", () => {
  const good: [string, unknown, { content: string | null; calls: [string, string][] }][] = [
    ["OpenAI text", { choices: [{ message: { role: "assistant", content: "done" } }] }, { content: "done", calls: [] }],
    [
      "OpenAI tool calls",
      { choices: [{ message: { content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] } }] },
      { content: null, calls: [["bash", '{"command":"ls"}']] },
    ],
    [
      "OpenAI arguments as an object (some servers)",
      { choices: [{ message: { tool_calls: [{ id: "c1", function: { name: "read_file", arguments: { path: "a" } } }] } }] },
      { content: null, calls: [["read_file", '{"path":"a"}']] },
    ],
    ["Workers AI text", { response: "hi" }, { content: "hi", calls: [] }],
    [
      "Workers AI tool calls",
      { response: null, tool_calls: [{ name: "bash", arguments: { command: "pwd" } }] },
      { content: null, calls: [["bash", '{"command":"pwd"}']] },
    ],
  ];
  it.each(good)("%s", (_name, body, want) => {
    const r = parseReply(body);
    expect(r.content).toBe(want.content);
    expect(r.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual(want.calls);
    for (const c of r.toolCalls) expect(c.id).not.toBe("");
  });

  const bad: [string, unknown][] = [
    ["no choices", { choices: [] }],
    ["null", null],
    ["a string", "hello"],
    ["a tool call without a name", { choices: [{ message: { tool_calls: [{ id: "x", function: { arguments: "{}" } }] } }] }],
  ];
  it.each(bad)("%s is a clear error", (_name, body) => {
    expect(() => parseReply(body)).toThrow(/malformed reply/);
  });
});

describe("the Workers AI binding", () => {
  it("is called as env.AI.run(model, {messages, tools}) and its answer parsed", async () => {
    // A stand-in binding (no Workers AI offline) that records what it was asked.
    const calls: [string, any][] = [];
    const ai = { run: async (model: string, input: unknown) => (calls.push([model, input]), { response: "ok from ai" }) };
    const model = chatModel({ ai, model: "@cf/test/model", timeoutMs: 1000 });
    const tools = [{ type: "function" as const, function: { name: "bash", description: "d", parameters: { type: "object" } } }];
    const r = await model.complete([{ role: "user", content: "hi" }], tools);
    expect(r).toEqual({ content: "ok from ai", toolCalls: [] });
    expect(calls).toEqual([["@cf/test/model", { messages: [{ role: "user", content: "hi" }], tools }]]);
  });

  it("a failing binding is a clear error", async () => {
    const ai = { run: async () => Promise.reject(new Error("3040: Capacity temporarily exceeded, 429")) };
    await expect(chatModel({ ai, model: "@cf/x", timeoutMs: 1000 }).complete([], [])).rejects.toThrow("Workers AI is rate limiting requests");
  });
});
