/**
 * The session's MCP endpoint, built on the official SDK's web-standard handler: it serves the
 * 2026-07-28 revision (one POST per request, no protocol session) and answers 2025 clients
 * (initialize, then stateless requests). Only `tools/list` and `tools/call` are offered, for
 * the session's own tools; a long call reports progress while it runs.
 */
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { Json, ToolResult } from "../tools/result";
import { LIMITS } from "../limits";

export const MCP_SERVER_VERSION = "0.1.0";

/** How often a running call reports progress to a client that asked for it. */
const PROGRESS_INTERVAL_MS = LIMITS.mcpProgressMs;

type McpCallOutcome = { ok: true; result: ToolResult } | { ok: false; error: "tool_not_found" | "invalid_arguments" | string; message: string };

/** What the endpoint needs from its session. */
export interface McpSession {
  /** The session's tools as MCP `tools/list` entries. */
  tools(): Promise<Json[]>;
  call(name: string, args: unknown): Promise<McpCallOutcome>;
}

export function createSessionMcpHandler(session: McpSession, version: string): McpHttpHandler {
  return createMcpHandler(() => {
    const server = new Server(
      { name: "toolshed", version },
      {
        capabilities: { tools: {} },
        instructions: "Toolshed session: the tools act on this session's sandboxed /workspace.",
      },
    );
    server.setRequestHandler("tools/list", async () => ({ tools: (await session.tools()) as never }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const token = request.params._meta?.progressToken ?? ctx.mcpReq._meta?.progressToken;
      let ticks = 0;
      const timer =
        token === undefined || token === null
          ? undefined
          : setInterval(() => {
              ticks++;
              void ctx.mcpReq
                .notify({ method: "notifications/progress", params: { progressToken: token, progress: ticks, message: `${name} running for ${ticks}s` } })
                .catch(() => undefined);
            }, PROGRESS_INTERVAL_MS);
      let outcome: McpCallOutcome;
      try {
        outcome = await session.call(name, args ?? {});
      } finally {
        if (timer !== undefined) clearInterval(timer);
      }
      // An unknown tool is a protocol error; bad arguments are a tool error the model can correct.
      if (!outcome.ok && outcome.error === "tool_not_found") throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message);
      if (!outcome.ok) return { content: [{ type: "text", text: outcome.message }], isError: true };
      const result = outcome.result;
      return server.projectCallToolResult(
        { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown>, isError: !result.success },
        undefined,
      );
    });
    return server;
  });
}
