import { ToolError } from "../tools/errors";
import type { Json, ToolResult } from "../tools/types";
import type { SubAgentHost } from "./host";
import type { ChatMessage, ChatModel, FunctionTool, ToolCall } from "./model";
import { subAgentSystemPrompt } from "./prompt";

export interface SubAgentTask {
  id: string;
  prompt: string;
  tools: string[];
  maxTurns: number;
}

export interface SubAgentOutcome {
  [field: string]: Json;
  task: string;
  success: boolean;
  report: string;
  turns: number;
  toolCalls: number;
}

/** Largest tool result handed back to the model, in characters (the rest is cut with a note). */
const MAX_TOOL_RESULT_CHARS = 30_000;

function toolMessage(call: ToolCall, result: ToolResult): ChatMessage {
  let content = JSON.stringify(result);
  if (content.length > MAX_TOOL_RESULT_CHARS) content = `${content.slice(0, MAX_TOOL_RESULT_CHARS)}… [cut: the result had ${content.length} characters]`;
  return { role: "tool", tool_call_id: call.id, content };
}

/** One tool call of the model: run when it is one of the task's tools, refused (and logged) otherwise. */
async function runCall(host: SubAgentHost, task: SubAgentTask, call: ToolCall): Promise<ToolResult> {
  const name = call.function.name;
  if (!task.tools.includes(name)) {
    const denial = { rule: "subagent-tools", reason: `This sub-agent was not given '${name}'; its tools are: ${task.tools.join(", ")}.` };
    host.logRefusal(name, task.id, denial);
    return { success: false, error: `Denied by policy (subagent-tools): ${denial.reason}`, denied: denial };
  }
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || "{}");
  } catch {
    return { success: false, error: `The arguments of ${name} are not valid JSON; send a JSON object.` };
  }
  return host.call(name, args, task.id);
}

/**
 * Runs one sub-agent to its report: model turn, then its tool calls one after the other, until
 * the model answers without tool calls or the turn cap is reached. A provider failure ends the
 * task with the provider's clear error.
 */
export async function runSubAgent(model: ChatModel, host: SubAgentHost, task: SubAgentTask): Promise<SubAgentOutcome> {
  const specs: FunctionTool[] = [];
  const all = host.tools();
  for (const name of task.tools) specs.push(all.get(name)!);
  const messages: ChatMessage[] = [
    { role: "system", content: subAgentSystemPrompt() },
    { role: "user", content: task.prompt },
  ];
  let toolCalls = 0;
  for (let turn = 1; turn <= task.maxTurns; turn++) {
    let reply;
    try {
      reply = await model.complete(messages, specs);
    } catch (e) {
      const report = e instanceof ToolError ? e.message : "The model call failed unexpectedly; retry later.";
      if (!(e instanceof ToolError)) console.error("sub-agent model call failed", e);
      return { task: task.id, success: false, report, turns: turn, toolCalls };
    }
    messages.push({ role: "assistant", content: reply.content, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls } : {}) });
    if (reply.toolCalls.length === 0) return { task: task.id, success: true, report: reply.content ?? "", turns: turn, toolCalls };
    for (const call of reply.toolCalls) {
      toolCalls++;
      messages.push(toolMessage(call, await runCall(host, task, call)));
    }
  }
  return {
    task: task.id,
    success: false,
    report: `The sub-agent reached its turn cap (${task.maxTurns}) without a final report; give it a larger max_turns or a smaller task.`,
    turns: task.maxTurns,
    toolCalls,
  };
}
