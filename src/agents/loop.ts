import { ToolError } from "../tools/result";
import type { Json, ToolResult } from "../tools/result";
import type { SubAgentHost } from "./host";
import type { ChatMessage, ChatModel, FunctionTool, ToolCall } from "./model";
import { subAgentSystemPrompt } from "./prompt";
import { LIMITS } from "../limits";

export interface SubAgentTask {
  id: string;
  prompt: string;
  tools: string[];
  maxTurns: number;
  /** Wall-clock budget of the whole run, in seconds. */
  timeoutSeconds: number;
  /** A persona replacing the default system prompt (the reporting footer is added anyway). */
  system?: string;
}

/** Where a run stands: enough to resume it after the session object was evicted. */
export interface AgentState {
  messages: ChatMessage[];
  turns: number;
  toolCalls: number;
}

export interface SubAgentOutcome {
  [field: string]: Json;
  task: string;
  success: boolean;
  report: string;
  turns: number;
  toolCalls: number;
  /** True when the wall-clock timeout ended the run. */
  timedOut: boolean;
}

/** How a run reports its progress: called after every model turn and every tool result. */
export type SaveState = (state: AgentState) => void;

/** Largest tool result handed back to the model, in characters (the rest is cut with a note). */
const MAX_TOOL_RESULT_CHARS = LIMITS.subAgentToolResultChars;

export const initialState = (task: Pick<SubAgentTask, "prompt" | "system">): AgentState => ({
  messages: [
    { role: "system", content: subAgentSystemPrompt(task.system) },
    { role: "user", content: task.prompt },
  ],
  turns: 0,
  toolCalls: 0,
});

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

const TIMED_OUT = Symbol("timed out");

/**
 * Waits for `work`, or for the deadline, whichever comes first. The clock is only read around
 * awaited I/O (model and tool calls), never inside a computation; work that loses the race is
 * left to finish on its own (its tool call is still logged).
 */
async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | typeof TIMED_OUT> {
  const left = deadline - Date.now();
  if (left <= 0) return TIMED_OUT;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), left)));
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one sub-agent to its report, from `state` (a fresh one, or one saved before an
 * eviction): model turn, then its tool calls one after the other, until the model answers
 * without tool calls, the turn cap is reached or the deadline (epoch ms) passes. A provider
 * failure ends the task with the provider's clear error.
 */
export async function runSubAgent(
  model: ChatModel,
  host: SubAgentHost,
  task: SubAgentTask,
  opts: { deadline?: number; state?: AgentState; save?: SaveState } = {},
): Promise<SubAgentOutcome> {
  const deadline = opts.deadline ?? Date.now() + task.timeoutSeconds * 1000;
  const state = opts.state ?? initialState(task);
  const save = opts.save ?? (() => {});
  const specs: FunctionTool[] = [];
  const all = host.tools();
  for (const name of task.tools) specs.push(all.get(name)!);
  const end = (success: boolean, report: string, timedOut = false): SubAgentOutcome => ({
    task: task.id,
    success,
    report,
    turns: state.turns,
    toolCalls: state.toolCalls,
    timedOut,
  });
  const timedOut = () =>
    end(
      false,
      `The sub-agent ran out of time (timeout ${task.timeoutSeconds} s) after ${state.turns} turn(s) and ${state.toolCalls} tool call(s); give it a longer timeout or a smaller task.`,
      true,
    );

  // A resumed run whose last saved step was an assistant turn with tool calls finishes those
  // calls first (the ones already answered are not run again).
  const pending = (): ToolCall[] => {
    const last = [...state.messages].reverse().find((m) => m.role === "assistant");
    if (last?.role !== "assistant" || !last.tool_calls) return [];
    const answered = new Set(state.messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : [])));
    return last.tool_calls.filter((c) => !answered.has(c.id));
  };

  // Saved after its final answer but cut off before the task was marked finished.
  const last = state.messages[state.messages.length - 1];
  if (last?.role === "assistant" && !last.tool_calls) return end(true, last.content ?? "");

  for (;;) {
    for (const call of pending()) {
      const result = await beforeDeadline(runCall(host, task, call), deadline);
      if (result === TIMED_OUT) return timedOut();
      state.toolCalls++;
      state.messages.push(toolMessage(call, result));
      save(state);
    }
    if (state.turns >= task.maxTurns) {
      return end(false, `The sub-agent reached its turn cap (${task.maxTurns}) without a final report; give it a larger max_turns or a smaller task.`);
    }
    let reply;
    try {
      reply = await beforeDeadline(model.complete(state.messages, specs), deadline);
    } catch (e) {
      const report = e instanceof ToolError ? e.message : "The model call failed unexpectedly; retry later.";
      if (!(e instanceof ToolError)) console.error("sub-agent model call failed", e);
      state.turns++;
      return end(false, report);
    }
    if (reply === TIMED_OUT) return timedOut();
    state.turns++;
    state.messages.push({ role: "assistant", content: reply.content, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls } : {}) });
    save(state);
    if (reply.toolCalls.length === 0) return end(true, reply.content ?? "");
  }
}
