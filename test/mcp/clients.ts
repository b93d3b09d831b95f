// The two official MCP clients, connected over Streamable HTTP to a session's endpoint:
// the current SDK (@modelcontextprotocol/client, revision 2026-07-28) and the 2025-revision SDK.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface McpTestClient {
  era: "2026-07-28" | "2025";
  listTools(): Promise<Array<{ name: string; inputSchema: unknown; description?: string }>>;
  callTool(name: string, args: Record<string, unknown>, onProgress?: (p: { progress: number; message?: string }) => void): Promise<any>;
  close(): Promise<void>;
}

export async function connect(era: McpTestClient["era"], url: string, key: string, fetch?: FetchLike): Promise<McpTestClient> {
  const requestInit = { headers: { authorization: `Bearer ${key}` } };
  const info = { name: "toolshed-test", version: "1.0.0" };
  if (era === "2026-07-28") {
    const client = new ModernClient(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new ModernTransport(new URL(url), { requestInit, ...(fetch ? { fetch } : {}) }));
    return {
      era,
      listTools: async () => (await client.listTools()).tools,
      callTool: (name, args, onProgress) => client.callTool({ name, arguments: args }, onProgress ? { onprogress: onProgress } : undefined),
      close: () => client.close(),
    };
  }
  const client = new LegacyClient(info);
  await client.connect(new LegacyTransport(new URL(url), { requestInit, ...(fetch ? { fetch } : {}) }));
  return {
    era,
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args, onProgress) => client.callTool({ name, arguments: args }, undefined, onProgress ? { onprogress: onProgress } : undefined),
    close: () => client.close(),
  };
}
