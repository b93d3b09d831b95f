import { z } from "zod";
import { ToolError } from "../result";
import { defineTool } from "../types";
import { maxTurns, subAgentTools, timeoutSeconds } from "./params";

/** How long a label is when the spawner gives none (LibertAI's rule: the task's first 50 characters). */
const LABEL_CHARS = 50;

const spawnParams = z.object({
  task: z.string().min(1).describe("The task, complete in itself: the sub-agent sees nothing else of this conversation."),
  tools: subAgentTools,
  label: z.string().min(1).max(200).optional().describe("Short label for the task (defaults to the first 50 characters of task)."),
  persona: z.string().min(1).optional().describe("System prompt for the sub-agent, replacing the default (a reporting footer is appended)."),
  timeout: timeoutSeconds,
  max_turns: maxTurns,
});

export const spawn = defineTool({
  name: "spawn",
  description:
    "Starts a sub-agent in the background on a task, with exactly the tools listed, and returns its task id at once. The sub-agent works in this session's workspace; when it finishes, its report arrives as a pending message (pending_messages, and at the end of output) in the result of your next tool call. At most 5 sub-agents run at once per session.",
  params: spawnParams,
  readOnly: true,
  async run(ctx, args) {
    const host = ctx.agents;
    if (!host) throw new ToolError("Sub-agents are not supported in this context.");
    const task = await host.spawn({
      prompt: args.task,
      tools: args.tools,
      label: args.label ?? args.task.slice(0, LABEL_CHARS),
      persona: args.persona,
      maxTurns: args.max_turns,
      timeoutSeconds: args.timeout,
    });
    return {
      success: true,
      output: `Started background task ${task.task} (${task.label}). Its report will arrive as a pending message in the result of your next tool call after it finishes; keep working meanwhile.`,
      task: task.task,
      label: task.label,
      status: task.status,
    };
  },
});
