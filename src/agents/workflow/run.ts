import type { Json } from "../../tools/result";
import type { SubAgentHost } from "../host";
import { runSubAgent } from "../loop";
import { DEFAULT_TIMEOUT_SECONDS } from "../run";
import type { ChatModel } from "../model";
import type { Step } from "./plan";

/** One step's outcome, shaped like the document: Agent leaves, Pipeline and Parallel nodes. */
export interface StepResult {
  [field: string]: Json;
  kind: Step["kind"];
  name: string;
  success: boolean;
  output: string;
}

/** The prompt an Agent step runs with: the previous step's output in `{input}`, or appended. */
function withInput(prompt: string, input: string | null): string {
  if (input === null) return prompt;
  if (prompt.includes("{input}")) return prompt.replaceAll("{input}", input);
  return `${prompt}\n\n## Input from the previous step\n${input}`;
}

/**
 * Runs a step on `input` (the previous step's output; null for the first). A Pipeline runs its
 * steps in order, each on the output of the one before, and stops at the first failure; a
 * Parallel gives every step the same input, runs them side by side and joins their outputs.
 */
export async function runStep(step: Step, input: string | null, model: ChatModel, host: SubAgentHost): Promise<StepResult> {
  if (step.kind === "Agent") {
    const id = `task-${crypto.randomUUID()}`;
    const r = await runSubAgent(model, host, {
      id,
      prompt: withInput(step.prompt, input),
      tools: step.tools,
      maxTurns: step.maxTurns,
      timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
    });
    return { kind: "Agent", name: step.name, task: r.task, success: r.success, output: r.report, turns: r.turns, toolCalls: r.toolCalls };
  }
  if (step.kind === "Parallel") {
    const steps = await Promise.all(step.steps.map((s) => runStep(s, input, model, host)));
    const failed = steps.filter((s) => !s.success).map((s) => s.name);
    const output = steps.map((s) => `## ${s.name}${s.success ? "" : " (failed)"}\n${s.output}`).join("\n\n");
    return { kind: "Parallel", name: step.name, success: failed.length === 0, output, steps, ...(failed.length ? { failed } : {}) };
  }
  const steps: StepResult[] = [];
  let current = input;
  for (const s of step.steps) {
    const r = await runStep(s, current, model, host);
    steps.push(r);
    if (!r.success) {
      const skipped = step.steps.slice(steps.length).map((x) => x.name);
      return { kind: "Pipeline", name: step.name, success: false, output: r.output, steps, failedAt: r.name, skipped };
    }
    current = r.output;
  }
  return { kind: "Pipeline", name: step.name, success: true, output: current ?? "", steps };
}
