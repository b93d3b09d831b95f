import { z } from "zod";
import { MAX_RUNNING_SUBAGENTS, refusedSubAgentTool } from "../../agents/run";
import { planWorkflow } from "../../agents/workflow/plan";
import { checkRonLimits, parseRon, RonError } from "../../agents/workflow/ron";
import { runStep } from "../../agents/workflow/run";
import { ToolError } from "../result";
import { defineTool } from "../types";

/** Checked on the raw text, before it is parsed. */
const RON_LIMITS = { maxBytes: 64 * 1024, maxDepth: 24 };
const PLAN_LIMITS = { maxAgents: 20, maxWidth: MAX_RUNNING_SUBAGENTS, maxTurns: 50, defaultTurns: 15 };

export const WORKFLOW_EXAMPLE = `Workflow(
  name: "notes",
  steps: [
    Pipeline([
      Agent(name: "collect", prompt: "List the TODOs in src/", tools: ["grep", "read_file"]),
      Agent(name: "write", prompt: "Write TODO.md from this list: {input}", tools: ["write_file"], max_turns: 5),
    ]),
    Parallel([
      Agent(name: "check", prompt: "Check TODO.md against src/", tools: ["read_file", "grep"]),
      Agent(name: "count", prompt: "Count the lines of TODO.md", tools: ["bash"]),
    ]),
  ],
)`;

export const workflow = defineTool({
  name: "workflow",
  description:
    "Run a declarative multi-step workflow of sub-agents, written in RON: Workflow(name, steps) whose steps run in order, each given the previous step's output. " +
    'Steps: Agent(name, prompt, tools: ["..."], max_turns?) runs one sub-agent with exactly those tools (its output is its report); ' +
    "Pipeline([...]) runs steps in order, each on the output of the one before, stopping at a failure; Parallel([...]) runs steps side by side on the same input and joins their outputs. " +
    "A prompt may place the input with {input}; otherwise it is appended. At most 20 Agent steps, 5 running at once, 64 KiB. Example:\n" +
    WORKFLOW_EXAMPLE,
  params: z.object({ workflow: z.string().min(1).describe("A RON-format workflow definition.") }),
  // It changes nothing itself; the sub-agents' own tool calls take the session's write queue.
  readOnly: true,
  async run(ctx, args) {
    const host = ctx.agents;
    if (!host) throw new ToolError("Sub-agents are not supported in this context.");
    let plan;
    try {
      checkRonLimits(args.workflow, RON_LIMITS);
      plan = planWorkflow(parseRon(args.workflow), (tool) => refusedSubAgentTool(host, tool), PLAN_LIMITS);
    } catch (e) {
      if (e instanceof RonError) throw new ToolError(`The workflow was not run: ${e.message}`);
      throw e;
    }
    const model = host.model();
    if (!host.claim(plan.width)) {
      throw new ToolError(
        `This workflow runs up to ${plan.width} sub-agent(s) at once, and with those already running this session would exceed ${MAX_RUNNING_SUBAGENTS}. Wait for them to finish, or narrow its Parallel steps.`,
      );
    }
    try {
      const result = await runStep(plan.root, null, model, host);
      const steps = result["steps"]!;
      const status = result.success ? "done" : `failed at step '${result["failedAt"]}'`;
      return {
        success: result.success,
        output: `Workflow '${plan.name}' ${status}.\n\n${result.output}`,
        workflow: plan.name,
        steps,
        ...(result.success ? {} : { error: `Workflow '${plan.name}' ${status}: ${result.output}`, skipped: result["skipped"]! }),
      };
    } finally {
      host.release(plan.width);
    }
  },
});
