/**
 * A session's deferred tools: the tools of the remote MCP servers attached to it at creation.
 * They are not in the session's tool list; `tool_search` finds them (with their full schemas)
 * and the session dispatches `mcp__<server>__<tool>` calls here.
 */
import type { NetContext } from "../../net/context";
import type { Denial } from "../../policy/denied";
import { errorResult } from "../../tools/result";
import type { Json, ToolResult } from "../../tools/result";
import { mcpTimeoutMs, resolveServer, type McpClientEnv } from "./config";
import { deferredName } from "./names";
import { callRemoteTool, listRemoteTools } from "./remote";

export interface DeferredTool {
  name: string;
  server: string;
  description: string;
  /** The remote tool's input JSON Schema, as its server gives it. */
  parameters: Json;
}

/** An attached server that could not be listed, and why. */
interface UnavailableServer {
  server: string;
  error: string;
  denied?: Denial;
}

export interface DeferredTools {
  /** The servers attached to the session (no network needed to know them). */
  servers: readonly string[];
  /** Every attached server's tools, asked side by side; a failing server is reported, not fatal. */
  list(): Promise<{ tools: DeferredTool[]; unavailable: UnavailableServer[] }>;
  /** Calls one remote tool; throws a tool error or a policy refusal. */
  call(server: string, tool: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export function deferredTools(env: McpClientEnv, net: NetContext, servers: readonly string[], logDenial: (server: string, denied: Denial) => void): DeferredTools {
  const limits = { timeoutMs: mcpTimeoutMs(env) };
  return {
    servers,
    async list() {
      const answers = await Promise.all(
        servers.map(async (server) => {
          try {
            const tools = await listRemoteTools(net, resolveServer(env, server), limits);
            return tools.map((t): DeferredTool => ({ name: deferredName(server, t.name), server, description: t.description, parameters: t.inputSchema }));
          } catch (e) {
            const r = errorResult(e);
            if (r.denied) logDenial(server, r.denied);
            return { server, error: r.error ?? "unavailable", ...(r.denied ? { denied: r.denied } : {}) } satisfies UnavailableServer;
          }
        }),
      );
      const tools = answers.flatMap((a) => (Array.isArray(a) ? a : []));
      const unavailable = answers.filter((a): a is UnavailableServer => !Array.isArray(a));
      return { tools, unavailable };
    },
    call: (server, tool, args) => callRemoteTool(net, resolveServer(env, server), tool, args, limits),
  };
}
