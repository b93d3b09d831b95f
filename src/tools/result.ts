import { PolicyDenied } from "../policy/denied";
import { isVfsError } from "../vfs/errors";
import { relativeToRoot } from "../vfs/paths";
import type { ToolResult } from "./types";

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
