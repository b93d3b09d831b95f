import type { TaskRecord, TaskView } from "./tasks";
import { viewOf } from "./tasks";
import type { ToolResult } from "../tools/result";

/**
 * Background results reach the spawner inside the result of its next tool call, where a model
 * reads: `pending_messages` (one entry per finished task, each delivered once) and, because
 * many clients show a model only `output`, a block at the end of `output`.
 */
export function withPendingMessages(result: ToolResult, finished: readonly TaskRecord[]): ToolResult {
  if (finished.length === 0) return result;
  const views: TaskView[] = finished.map(viewOf);
  const block = [
    `[Pending messages: ${views.length} background task(s) finished]`,
    ...views.map((v) => `## ${v.task} (${v.label}): ${v.status}\n${v.report ?? ""}`),
  ].join("\n");
  const output = typeof result.output === "string" && result.output !== "" ? `${result.output}\n\n${block}` : block;
  return { ...result, output, pending_messages: views };
}
