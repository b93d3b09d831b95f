/**
 * Tools a sub-agent can never be given, under every profile's name for them: each starts
 * sub-agents of its own.
 */
export const NEVER_DELEGATED: ReadonlySet<string> = new Set(["delegate", "spawn", "workflow", "Delegate", "Spawn", "Workflow", "spawn_worker"]);

/** Why `name` cannot be given to a sub-agent of a session serving `served`; null when it can. */
export function refuseSubAgentTool(name: string, served: ReadonlyMap<string, unknown>): string | null {
  if (NEVER_DELEGATED.has(name)) return `a sub-agent cannot be given '${name}' (sub-agents do not start sub-agents).`;
  if (served.has(name)) return null;
  const choices = [...served.keys()].filter((n) => !NEVER_DELEGATED.has(n)).join(", ");
  return `'${name}' is not a tool of this session; choose among ${choices}.`;
}
