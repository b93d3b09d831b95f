import { PolicyDenied, type Denial } from "../policy/denied";
import { isVfsError } from "../vfs/errors";
import { relativeToRoot } from "../vfs/paths";

// A leaf: what every tool answers and how a failure becomes an answer. Agents, MCP and model
// code import it without importing any tool.

/**
 * Every tool answers with this envelope: `success`, a text `output` for the model, `error`
 * when it failed, `denied` when the policy refused it, plus tool-specific fields.
 */
export interface ToolResult {
  success: boolean;
  output?: string;
  error?: string;
  denied?: Denial;
  [field: string]: Json | Denial | undefined;
}

/** Values that cross every boundary unchanged: JSON over HTTP, structured clone over RPC. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Turns what a tool threw into its result: a policy refusal carries `denied`, a filesystem
 * error reads like the shell's ("src/x: No such file or directory"), anything else is
 * reported without internals.
 */
export function errorResult(e: unknown): ToolResult {
  if (e instanceof PolicyDenied) {
    return { success: false, error: `Denied by policy (${e.rule}): ${e.message}`, denied: e.denial };
  }
  if (isVfsError(e)) {
    const detail = e.message.slice(e.path.length + 2);
    return { success: false, error: `${relativeToRoot(e.path)}: ${detail}`, code: e.code };
  }
  if (e instanceof ToolError) return { success: false, error: e.message };
  console.error("tool failed unexpectedly", e);
  return { success: false, error: "Internal error while running the tool; retry, and report it if it persists." };
}

/** An ordinary, expected tool failure with a message for the agent. */
export class ToolError extends Error {
  override name = "ToolError";
}
