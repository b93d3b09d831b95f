import { ToolError } from "../tools/result";
import type { SubAgentHost } from "./host";
import { LIMITS } from "../limits";

/** Sub-agents one session may run at once: synchronous (delegate) and background (spawn) together. */
export const MAX_RUNNING_SUBAGENTS = LIMITS.runningSubAgents;
export const DEFAULT_MAX_TURNS = LIMITS.subAgentTurns;
export const MAX_TURNS = LIMITS.subAgentMaxTurns;
export const DEFAULT_TIMEOUT_SECONDS = LIMITS.subAgentTimeoutSeconds;
export const MAX_TIMEOUT_SECONDS = LIMITS.subAgentMaxTimeoutSeconds;

/** Canonical tools a sub-agent is never given: they would run sub-agents inside the caller's slot and wait for them. */
const NEVER_GIVEN = new Set(["delegate", "workflow"]);

export const tooManyRunning = (): ToolError =>
  new ToolError(
    `This session already runs the most sub-agents allowed: at most ${MAX_RUNNING_SUBAGENTS} may run at once (delegate and spawn together). Wait for one to finish (GET /v1/sessions/:id/tasks), or send fewer tasks.`,
  );

/**
 * Why `name` cannot be given to a sub-agent of this session (least privilege: only names the
 * session serves, never a tool that runs sub-agents synchronously); null when it can.
 */
export function refusedSubAgentTool(host: Pick<SubAgentHost, "tools" | "canonical">, name: string): string | null {
  const served = host.tools();
  const never = (n: string) => NEVER_GIVEN.has(host.canonical(n) ?? n);
  if (served.has(name) && never(name)) return `a sub-agent cannot be given '${name}' (sub-agents do not start sub-agents and wait for them).`;
  if (served.has(name)) return null;
  return `'${name}' is not a tool of this session; choose among ${[...served.keys()].filter((n) => !never(n)).join(", ")}.`;
}

/** Checks a sub-agent's tool list (`where` prefixes the message: `tasks.0.tools`); the names without repeats. */
export function checkSubAgentTools(host: SubAgentHost, tools: readonly string[], where: string): string[] {
  for (const name of tools) {
    const refused = refusedSubAgentTool(host, name);
    if (refused) throw new ToolError(`${where}: ${refused}`);
  }
  return [...new Set(tools)];
}

/** The session's tools a sub-agent gets when its spawner lists none (profiles without a tools parameter). */
export function defaultSubAgentTools(served: readonly string[], exclude: readonly string[]): string[] {
  return served.filter((n) => !exclude.includes(n));
}
