import { z } from "zod";
import { runSubAgent, type SubAgentTask } from "../../agents/loop";
import { chatModel, modelConfigFromEnv } from "../../agents/model";
import { refuseSubAgentTool } from "../../agents/subset";
import { ToolError } from "../errors";
import { defineTool } from "../types";

/** Sub-agents one session may run at once (a delegate call's tasks count one each). */
export const MAX_RUNNING_SUBAGENTS = 5;

const task = z.object({
  prompt: z.string().min(1).describe("The task, complete in itself: the sub-agent sees nothing else of this conversation."),
  tools: z.array(z.string().min(1)).min(1).describe("Names of this session's tools the sub-agent may use (exactly these)."),
  max_turns: z.number().int().min(1).max(50).default(15).describe("Most model turns the sub-agent gets (default 15, at most 50)."),
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
    const served = host.tools();
    tasks.forEach((t, i) => {
      for (const name of t.tools) {
        const refused = refuseSubAgentTool(name, served);
        if (refused) throw new ToolError(`tasks.${i}.tools: ${refused}`);
      }
    });
    const model = chatModel(modelConfigFromEnv(ctx.workerEnv));
    if (!host.claim(tasks.length)) {
      throw new ToolError(`This session already runs sub-agents; at most ${MAX_RUNNING_SUBAGENTS} may run at once. Wait for them to finish, or send fewer tasks.`);
    }
    try {
      const runs: SubAgentTask[] = tasks.map((t) => ({ id: `task-${crypto.randomUUID()}`, prompt: t.prompt, tools: [...new Set(t.tools)], maxTurns: t.max_turns }));
      const results = await Promise.all(runs.map((r) => runSubAgent(model, host, r)));
      const ok = results.filter((r) => r.success).length;
      const output = results.map((r, i) => `## Task ${i + 1} (${r.task}): ${r.success ? "done" : "failed"}\n${r.report}`).join("\n\n");
      return { success: ok > 0, output, results, ...(ok === 0 ? { error: `All ${results.length} sub-agent task(s) failed: ${results[0]!.report}` } : {}) };
    } finally {
      host.release(tasks.length);
    }
  },
});
