/**
 * Deferred tools are named `mcp__<server>__<tool>`: the server's name (configured by the
 * operator, never containing `__`) and the remote tool's own name, which may contain anything.
 */
const PREFIX = "mcp__";

export const deferredName = (server: string, tool: string): string => `${PREFIX}${server}__${tool}`;

/** The server and remote tool a deferred name points at, or null for any other name. */
export function parseDeferredName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(PREFIX)) return null;
  const rest = name.slice(PREFIX.length);
  const cut = rest.indexOf("__");
  if (cut <= 0 || cut + 2 >= rest.length) return null;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}
