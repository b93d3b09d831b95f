// The session's MCP endpoint inside workerd, reached by both official MCP clients through the
// Worker's own fetch handler (the e2e script does the same against wrangler dev over TCP).
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ALICE, BOB, api, tool } from "../helpers";
import { connectMcp, ERAS, type McpTestClient } from "../../scripts/lib/mcp-clients.mjs";

const workerFetch = (url: string | URL, init?: RequestInit) => exports.default.fetch(new Request(url, init));
const endpoint = (id: string) => `http://toolshed.test/v1/sessions/${id}/mcp`;

async function session(body: Record<string, unknown> = {}): Promise<string> {
  const r = await api("POST", "/v1/sessions", { body });
  expect(r.status).toBe(201);
  return r.body.id;
}

describe.each(ERAS)("MCP client of revision %s", (era) => {
  const open = (id: string, key = ALICE): Promise<McpTestClient> => connectMcp(era, endpoint(id), key, workerFetch);

  it("lists the session's profile's tools and calls them with the HTTP API's results", async () => {
    const id = await session({ profile: "libertai" });
    const client = await open(id);
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "bash",
      "read_file",
      "write_file",
      "edit_file",
      "list_dir",
      "web_fetch",
      "web_search",
      "send_file",
      "generate_image",
      "spawn",
    ]);
    const w = await client.callTool("write_file", { path: "a.txt", content: "hello\n" });
    expect(w.isError).toBe(false);
    expect(w.structuredContent).toEqual(await tool(id, "write_file", { path: "a.txt", content: "hello\n" }));
    const viaMcp = await client.callTool("bash", { command: "cat a.txt; echo err >&2" });
    const viaHttp = await tool(id, "bash", { command: "cat a.txt; echo err >&2" });
    expect({ ...viaMcp.structuredContent, duration_ms: 0, summary: "" }).toEqual({ ...viaHttp, duration_ms: 0, summary: "" });
    expect(JSON.parse(viaMcp.content[0].text).stdout).toBe("hello\n");
    await client.close();
  });

  it("reports a failing tool as a tool error and bad arguments as a tool error with the field named", async () => {
    const id = await session();
    const client = await open(id);
    const missing = await client.callTool("read_file", { path: "nope.txt" });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error).toMatch(/nope.txt: No such file or directory/);
    const bad = await client.callTool("read_file", { path: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/path/);
    await client.close();
  });

  it("sends progress while a long call runs", async () => {
    const id = await session();
    const client = await open(id);
    const seen: number[] = [];
    const r = await client.callTool("bash", { command: "sleep 2.5; echo done" }, (p) => seen.push(p.progress));
    expect(r.structuredContent.stdout).toBe("done\n");
    expect(seen.length).toBeGreaterThanOrEqual(2);
    await client.close();
  });

  it("a session created with tools [read_file] lists only it and cannot call bash", async () => {
    const id = await session({ tools: ["read_file"] });
    const client = await open(id);
    expect((await client.listTools()).map((t) => t.name)).toEqual(["read_file"]);
    await expect(client.callTool("bash", { command: "echo hi" })).rejects.toThrow(/no tool 'bash'/);
    await client.close();
  });

  it("another tenant's key reaches no session, and no key is refused", async () => {
    const id = await session();
    await expect(open(id, BOB)).rejects.toThrow();
    await expect(open(id, "")).rejects.toThrow();
  });
});
