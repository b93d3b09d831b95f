// The two official MCP clients, connected over Streamable HTTP to a session's endpoint: the
// current SDK (@modelcontextprotocol/client, revision 2026-07-28) and the 2025-revision SDK
// (@modelcontextprotocol/sdk). Used by the workerd tests (test/mcp/) and by scripts/e2e-mcp.mjs.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const ERAS = ["2026-07-28", "2025"];

export async function connectMcp(era, url, key, fetch) {
  const opts = { requestInit: { headers: { authorization: `Bearer ${key}` } }, ...(fetch ? { fetch } : {}) };
  const info = { name: "toolshed-test", version: "1.0.0" };
  const progress = (onProgress) => (onProgress ? { onprogress: onProgress } : undefined);
  if (era === "2026-07-28") {
    const client = new ModernClient(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new ModernTransport(new URL(url), opts));
    return {
      era,
      listTools: async () => (await client.listTools()).tools,
      callTool: (name, args, onProgress) => client.callTool({ name, arguments: args }, progress(onProgress)),
      close: () => client.close(),
    };
  }
  const client = new LegacyClient(info);
  await client.connect(new LegacyTransport(new URL(url), opts));
  return {
    era,
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args, onProgress) => client.callTool({ name, arguments: args }, undefined, progress(onProgress)),
    close: () => client.close(),
  };
}
