import type { Denial } from "../policy/denied";
import type { ToolResult } from "../tools/result";
import type { TaskView } from "./tasks";
import type { ChatModel, FunctionTool } from "./model";

/** A background run as the spawner asks for it (the `spawn` tool and the profiles routed to it). */
export interface SpawnRequest {
  prompt: string;
  tools: string[];
  label: string;
  persona?: string;
  maxTurns: number;
  timeoutSeconds: number;
}

/**
 * What a sub-agent needs of the session that runs it: the session's tools as function specs,
 * and the session's own dispatch (same validation, policy, queue and log as an HTTP call).
 */
export interface SubAgentHost {
  /** Function specs of the session's tools, by name. */
  tools(): Map<string, FunctionTool>;
  /** The canonical tool a session tool name runs (`spawn_worker` → `spawn`), or undefined. */
  canonical(name: string): string | undefined;
  /** The operator's model; throws a clear ToolError when none is configured. */
  model(): ChatModel;
  /** Runs one of the session's tools for a task; the log records the task id. */
  call(name: string, args: unknown, task: string): Promise<ToolResult>;
  /** Logs a refused call (a tool the sub-agent was not given) under the task id. */
  logRefusal(name: string, task: string, denial: Denial): void;
  /** Takes `n` of the session's sub-agent slots; false when that would exceed the limit. */
  claim(n: number): boolean;
  release(n: number): void;
  /** Starts a background run (its slot is taken here); answers at once. */
  spawn(request: SpawnRequest): Promise<TaskView>;
}
