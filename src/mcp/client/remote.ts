/**
 * One exchange with a remote MCP server through the official client (`@modelcontextprotocol/client`)
 * over Streamable HTTP: it negotiates the revision (2026-07-28, or a 2025 server's `initialize`),
 * lists or calls, and closes. Every failure becomes a tool error in words a model can act on.
 */
import type { Client } from "@modelcontextprotocol/client";
import type { NetContext } from "../../net/context";
import { PolicyDenied } from "../../policy/denied";
import { MAX_OUTPUT_CHARS, truncateMiddle } from "../../policy/output";
import { ToolError } from "../../tools/result";
import type { Json, ToolResult } from "../../tools/result";
import type { RemoteServer } from "./config";
import { policyFetch, type FetchTrouble } from "./fetch";
import { LIMITS } from "../../limits";

const MCP_CLIENT_VERSION = "0.1.0";
/** The largest answer read from a remote server (one list or one call). */
const MAX_REMOTE_ANSWER_BYTES = LIMITS.mcpAnswerBytes;

export interface RemoteLimits {
  timeoutMs: number;
}

/** A remote tool as its server lists it. */
export interface RemoteTool {
  name: string;
  description: string;
  inputSchema: Json;
}

type Sdk = typeof import("@modelcontextprotocol/client");

async function exchange<T>(net: NetContext, server: RemoteServer, limits: RemoteLimits, fn: (client: Client) => Promise<T>): Promise<T> {
  // Imported on first use, so that the Worker's start does not pay for a client most requests never need.
  const sdk = await import("@modelcontextprotocol/client");
  const { Client, StreamableHTTPClientTransport } = sdk;
  const trouble: FetchTrouble = {};
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    fetch: policyFetch(net, server, { timeoutMs: limits.timeoutMs, maxBytes: MAX_REMOTE_ANSWER_BYTES }, trouble),
    // Redirects are followed by Toolshed's fetch path, each hop judged by the URL policy.
    redirectPolicy: "follow",
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client({ name: "toolshed", version: MCP_CLIENT_VERSION }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(transport, { timeout: limits.timeoutMs });
    return await fn(client);
  } catch (e) {
    throw failure(sdk, server, e, trouble, limits);
  } finally {
    // A 2025 server with protocol sessions is told this one is over.
    if (transport.sessionId) await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}

/** The remote failure as a tool error (a policy refusal stays a refusal). */
function failure(sdk: Sdk, server: RemoteServer, e: unknown, trouble: FetchTrouble, limits: RemoteLimits): Error {
  const { ProtocolError, SdkError, SdkErrorCode, UnauthorizedError } = sdk;
  const who = `MCP server '${server.name}'`;
  if (trouble.denied) return new PolicyDenied({ rule: trouble.denied.rule, reason: `${who}: ${trouble.denied.reason}` });
  if (trouble.tooLarge) return new ToolError(`${who} sent an answer over ${trouble.tooLarge} bytes; it was cut off.`);
  if (trouble.network) {
    const timedOut = trouble.network.code === "timeout";
    return new ToolError(timedOut ? `${who} did not answer within ${limits.timeoutMs} ms.` : `${who} could not be reached: ${trouble.network.message}`);
  }
  if (e instanceof UnauthorizedError || (e instanceof SdkError && (e.code === SdkErrorCode.ClientHttpAuthentication || e.code === SdkErrorCode.ClientHttpForbidden))) {
    return new ToolError(`${who} refused Toolshed's credentials; the operator must check the secret configured for it.`);
  }
  if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return new ToolError(`${who} did not answer within ${limits.timeoutMs} ms.`);
  if (e instanceof ProtocolError) return new ToolError(`${who} answered with an error: ${e.message.slice(0, 500)}`);
  const detail = e instanceof Error ? e.message.slice(0, 300) : String(e).slice(0, 300);
  return new ToolError(`${who} did not answer as an MCP server (${detail}).`);
}

export function listRemoteTools(net: NetContext, server: RemoteServer, limits: RemoteLimits): Promise<RemoteTool[]> {
  return exchange(net, server, limits, async (client) => {
    const listed = await client.listTools(undefined, { timeout: limits.timeoutMs });
    return listed.tools.map((t) => ({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema as Json }));
  });
}

type Content = Awaited<ReturnType<Client["callTool"]>>["content"][number];

/** A content block as text for the model; binary blocks are named, not inlined. */
function contentText(block: Content): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes, not shown]`;
    case "resource_link":
      return `[resource ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}, binary, not shown]`;
    default:
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

/** Calls one remote tool; its own failure (`isError`) is a failed result, not an exception. */
export function callRemoteTool(net: NetContext, server: RemoteServer, tool: string, args: Record<string, unknown>, limits: RemoteLimits): Promise<ToolResult> {
  return exchange(net, server, limits, async (client) => {
    const r = await client.callTool({ name: tool, arguments: args }, { timeout: limits.timeoutMs });
    const text = truncateMiddle(r.content.map(contentText).join("\n"));
    const structured = r.structuredContent && JSON.stringify(r.structuredContent).length <= MAX_OUTPUT_CHARS ? (r.structuredContent as Json) : undefined;
    const result: ToolResult = { success: !r.isError, output: text, server: server.name };
    if (structured !== undefined) result["structured_content"] = structured;
    if (r.isError) result.error = `The remote tool ${tool} failed: ${text || "(no message)"}`;
    return result;
  });
}
