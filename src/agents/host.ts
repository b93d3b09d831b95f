import type { Denial } from "../policy/denied";
import type { ToolResult } from "../tools/types";
import type { FunctionTool } from "./model";

/**
 * What a sub-agent needs of the session that runs it: the session's tools as function specs,
 * and the session's own dispatch (same validation, policy, queue and log as an HTTP call).
 */
export interface SubAgentHost {
  /** Function specs of the session's tools, by name. */
  tools(): Map<string, FunctionTool>;
  /** Runs one of the session's tools for a task; the log records the task id. */
  call(name: string, args: unknown, task: string): Promise<ToolResult>;
  /** Logs a refused call (a tool the sub-agent was not given) under the task id. */
  logRefusal(name: string, task: string, denial: Denial): void;
  /** Takes `n` of the session's sub-agent slots; false when that would exceed the limit. */
  claim(n: number): boolean;
  release(n: number): void;
}
