/**
 * The operator's remote MCP servers: `TOOLSHED_MCP_SERVERS`, a JSON object
 * `{name: {url, headers_secret?, bearer_secret?}}`. Credentials never sit in that variable (nor
 * come from a session or the model): it names Worker secrets, read here when a server is used.
 */
import { z } from "zod";
import { ToolError } from "../../tools/result";
import { formatValidationError } from "../../lib/validation";
import { LIMITS } from "../../limits";

/** Server names become part of tool names (`mcp__<server>__<tool>`), so `__` cannot appear in them. */
const SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
const SECRET_NAME = /^[A-Z][A-Z0-9_]*$/;

const serverSpec = z
  .object({
    url: z.url({ protocol: /^https?$/ }).describe("The server's Streamable HTTP endpoint"),
    headers_secret: z
      .string()
      .regex(SECRET_NAME, "must name a Worker secret (upper-case letters, digits, _)")
      .optional()
      .describe("A Worker secret holding a JSON object of headers sent with every request"),
    bearer_secret: z
      .string()
      .regex(SECRET_NAME, "must name a Worker secret (upper-case letters, digits, _)")
      .optional()
      .describe("A Worker secret holding a token sent as Authorization: Bearer"),
    deferred: z.literal(true, { message: "only deferred servers are supported: their tools are found with tool_search (leave deferred out)" }).optional(),
  })
  .strict();

const serversSpec = z.record(z.string(), serverSpec);

export type McpServerSpec = z.infer<typeof serverSpec>;

/** One attached server as the client uses it, its credentials resolved. */
export interface RemoteServer {
  name: string;
  url: string;
  /** Sent only to the server's own origin (never across a redirect). */
  headers: Record<string, string>;
}

export interface McpClientEnv {
  TOOLSHED_MCP_SERVERS?: string;
  TOOLSHED_MCP_TIMEOUT_MS?: string;
}

/** An operator setting that cannot be used: the message says what to fix, without secret values. */
class McpConfigError extends ToolError {
  override name = "McpConfigError";
}

/** The configured servers by name; `{}` when the variable is unset. */
export function mcpServersFromEnv(env: McpClientEnv): Record<string, McpServerSpec> {
  const raw = env.TOOLSHED_MCP_SERVERS?.trim();
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new McpConfigError("The operator's TOOLSHED_MCP_SERVERS is not valid JSON; it must be an object {name: {url, headers_secret?, bearer_secret?}}.");
  }
  const parsed = serversSpec.safeParse(json);
  if (!parsed.success) throw new McpConfigError(`The operator's TOOLSHED_MCP_SERVERS is invalid: ${formatValidationError(parsed.error)}.`);
  const badName = Object.keys(parsed.data).find((name) => !SERVER_NAME.test(name));
  if (badName !== undefined) {
    throw new McpConfigError(
      `The operator's TOOLSHED_MCP_SERVERS is invalid: the server name '${badName.slice(0, 64)}' must be letters, digits, - and single _ (it becomes part of the tool names mcp__<server>__<tool>).`,
    );
  }
  return parsed.data;
}

/**
 * Checks a session's choice of servers at creation (narrowing only: names the operator
 * configured). Absent means none: a session reaches remote tools only when it asks for them.
 */
export function chooseMcpServers(env: McpClientEnv, requested: readonly string[] | undefined): { servers: string[] } | { error: string } {
  if (!requested?.length) return { servers: [] };
  let configured: string[];
  try {
    configured = Object.keys(mcpServersFromEnv(env));
  } catch (e) {
    return { error: `mcp_servers: ${(e as Error).message}` };
  }
  for (const name of requested) {
    if (configured.includes(name)) continue;
    const choices = configured.length ? `choose among ${configured.join(", ")}` : "the operator has configured none (TOOLSHED_MCP_SERVERS)";
    return { error: `mcp_servers: '${name}' is not an MCP server of this deployment; ${choices}.` };
  }
  return { servers: [...new Set(requested)] };
}

/** The server as the client uses it, with the headers its secrets hold. */
export function resolveServer(env: McpClientEnv, name: string): RemoteServer {
  const spec = mcpServersFromEnv(env)[name];
  if (!spec) throw new McpConfigError(`The MCP server '${name}' is no longer configured by the operator (TOOLSHED_MCP_SERVERS).`);
  const secrets = env as unknown as Record<string, unknown>;
  const headers: Record<string, string> = {};
  if (spec.headers_secret) {
    const value = secrets[spec.headers_secret];
    let parsed: unknown;
    try {
      parsed = typeof value === "string" ? JSON.parse(value) : undefined;
    } catch {
      parsed = undefined;
    }
    const ok = z.record(z.string(), z.string()).safeParse(parsed);
    if (!ok.success) {
      throw new McpConfigError(
        `The secret ${spec.headers_secret} named for MCP server '${name}' is unset or not a JSON object of header strings; ask the operator to set it.`,
      );
    }
    Object.assign(headers, ok.data);
  }
  if (spec.bearer_secret) {
    const token = secrets[spec.bearer_secret];
    if (typeof token !== "string" || !token)
      throw new McpConfigError(`The secret ${spec.bearer_secret} named for MCP server '${name}' is unset; ask the operator to set it.`);
    headers["authorization"] = `Bearer ${token}`;
  }
  return { name, url: spec.url, headers };
}

const DEFAULT_TIMEOUT_MS = LIMITS.mcpTimeoutMs;

/** How long one exchange with a remote server may take (connect, list or call). */
export function mcpTimeoutMs(env: McpClientEnv): number {
  const n = Number(env.TOOLSHED_MCP_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 300_000) : DEFAULT_TIMEOUT_MS;
}
