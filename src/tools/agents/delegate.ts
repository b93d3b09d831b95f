import { z } from "zod";
import { runSubAgent, type SubAgentOutcome, type SubAgentTask } from "../../agents/loop";
import { checkSubAgentTools, MAX_RUNNING_SUBAGENTS, tooManyRunning } from "../../agents/run";
import { ToolError } from "../result";
import { defineTool } from "../types";
import { maxTurns, subAgentTools, timeoutSeconds } from "./params";

const task = z.object({
  prompt: z.string().min(1).describe("The task, complete in itself: the sub-agent sees nothing else of this conversation."),
  tools: subAgentTools,
  max_turns: maxTurns,
  timeout: timeoutSeconds,
});

export const delegate = defineTool({
  name: "delegate",
  description:
    "Runs up to 5 sub-agents side by side in this session's workspace, each on its own task with exactly the tools listed for it, and waits for them. Returns one result per task, in order: success, the sub-agent's report, turns and tool calls used.",
  params: z.object({ tasks: z.array(task).min(1).max(MAX_RUNNING_SUBAGENTS).describe("The tasks (1 to 5), run side by side.") }),
  // It changes nothing itself; the sub-agents' own tool calls take the session's write queue.
  readOnly: true,
  async run(ctx, { tasks }) {
    const host = ctx.agents;
    if (!host) throw new ToolError("Sub-agents are not supported in this context.");
    const runs: SubAgentTask[] = tasks.map((t, i) => ({
      id: `task-${crypto.randomUUID()}`,
      prompt: t.prompt,
      tools: checkSubAgentTools(host, t.tools, `tasks.${i}.tools`),
      maxTurns: t.max_turns,
      timeoutSeconds: t.timeout,
    }));
    const model = host.model();
    if (!host.claim(runs.length)) throw tooManyRunning();
    try {
      const section = (r: SubAgentOutcome, i: number) => `## Task ${i + 1} (${r.task}): ${r.success ? "done" : r.timedOut ? "timed out" : "failed"}\n${r.report}`;
      const encoder = new TextEncoder();
      // A streamed call (wayland's Spawn relays its sub-agents' output) sees each report as it comes.
      const relay = (r: SubAgentOutcome, i: number) => (ctx.output?.("stdout", encoder.encode(`${section(r, i)}\n\n`)), r);
      const results = await Promise.all(runs.map((r, i) => runSubAgent(model, host, r).then((out) => relay(out, i))));
      const ok = results.filter((r) => r.success).length;
      const output = results.map(section).join("\n\n");
      return { success: ok > 0, output, results, ...(ok === 0 ? { error: `All ${results.length} sub-agent task(s) failed: ${results[0]!.report}` } : {}) };
    } finally {
      host.release(runs.length);
    }
  },
});
