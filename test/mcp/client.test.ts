// The MCP client: remote MCP servers attached to a session, their tools deferred (tool_search),
// called through the session's one dispatch. The servers are real (the official SDKs, in Node,
// test/mcp/remote-servers.global.mjs); vitest.config.ts configures them as TOOLSHED_MCP_SERVERS:
// calc (2025 SDK, bearer secret), notes (current SDK, header secret), metadata (169.254.169.254),
// hop (a redirect to it), webpage (an HTML page), nokey (calc without its secret).
import { exports } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { ToolshedRPC } from "../../src/rpc";
import { api, tool } from "../helpers";
import { connectMcp, ERAS } from "../../scripts/lib/mcp-clients.mjs";

const remote = inject("mcpRemote");

async function session(body: Record<string, unknown>): Promise<string> {
  const r = await api("POST", "/v1/sessions", { body });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

const log = async (id: string) =>
  (await api("GET", `/v1/sessions/${id}/log`)).body.calls as { tool: string; outcome: string; denied?: { rule: string }; detail?: string }[];
const seenByServers = async () => (await (await fetch(`${remote.origin}/requests`)).json()) as { port: number; path: string; method: string; authorized: boolean }[];

describe("tool_search", () => {
  it("finds remote tools by a case-insensitive substring of name or description, with their full schemas", async () => {
    const id = await session({ mcp_servers: ["calc", "notes"] });
    const byName = await tool(id, "tool_search", { query: "ADD" });
    expect(byName.success).toBe(true);
    expect(byName.tools).toEqual([
      {
        name: "mcp__calc__add",
        description: "Add two numbers and return their sum.",
        parameters: expect.objectContaining({
          type: "object",
          properties: { a: { type: "number", description: "first addend" }, b: { type: "number", description: "second addend" } },
          required: ["a", "b"],
        }),
      },
    ]);
    expect(byName.output).toContain('1 deferred tool matches "ADD"');
    expect(byName.output).toContain('"first addend"');
    // "stored note" is only in the description; the notes server speaks the 2026-07-28 revision.
    const byDescription = await tool(id, "tool_search", { query: "stored NOTE" });
    expect(byDescription.tools.map((t: { name: string }) => t.name)).toEqual(["mcp__notes__lookup_note"]);
    expect(byDescription.tools[0].parameters.properties.key).toEqual({ type: "string", description: "the note's key" });
    const all = await tool(id, "tool_search", { query: "" });
    expect(all.tools.map((t: { name: string }) => t.name).sort()).toEqual(["mcp__calc__add", "mcp__calc__fail", "mcp__calc__slow", "mcp__notes__lookup_note"]);
    const none = await tool(id, "tool_search", { query: "no-such-thing" });
    expect(none).toMatchObject({ success: true, tools: [] });
    expect(none.output).toContain('No deferred tool matches "no-such-thing". This session\'s deferred tools: mcp__calc__add');
  });

  it("says clearly that a session with no remote server has no deferred tools", async () => {
    const id = await session({});
    const r = await tool(id, "tool_search", { query: "add" });
    expect(r).toMatchObject({ success: true, tools: [] });
    expect(r.output).toMatch(/^This session has no deferred tools: no remote MCP server is attached to it\./);
    const described = (await api("GET", `/v1/sessions/${id}/tools`)).body.tools.find((t: { name: string }) => t.name === "tool_search");
    expect(described.description).toContain("No MCP server is attached to this session.");
  });

  it("is ToolSearch in wayland-core, over the same servers", async () => {
    const id = await session({ profile: "wayland-core", mcp_servers: ["calc"] });
    const r = await tool(id, "ToolSearch", { query: "sum" });
    expect(r.tools.map((t: { name: string }) => t.name)).toEqual(["mcp__calc__add"]);
    const described = (await api("GET", `/v1/sessions/${id}/tools`)).body.tools.find((t: { name: string }) => t.name === "ToolSearch");
    expect(described.description).toMatch(/^Load full schemas for deferred tools so the model can call them\..*Attached MCP servers: calc\.$/);
    const called = await tool(id, "mcp__calc__add", { a: 1, b: 1 });
    expect(called.output).toBe("1 + 1 = 2");
  });
});

describe("calling deferred tools", () => {
  it("returns the remote result, logs the call, and sends the operator's secret only to the server", async () => {
    const id = await session({ mcp_servers: ["calc"] });
    const before = (await seenByServers()).length;
    const r = await tool(id, "mcp__calc__add", { a: 2, b: 40 });
    expect(r).toEqual({ success: true, output: "2 + 40 = 42", server: "calc", structured_content: { sum: 42 } });
    expect(JSON.stringify(r)).not.toContain(remote.calcToken);
    // Other files may reach the servers meanwhile: this call's are the ones to /calc.
    const calls = (await seenByServers()).slice(before).filter((c) => c.path === "/calc");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.authorized)).toBe(true);
    expect((await log(id))[0]).toMatchObject({ tool: "mcp__calc__add", outcome: "ok" });
    const info = (await api("GET", `/v1/sessions/${id}`)).body;
    expect(info.mcpServers).toEqual(["calc"]);
    expect(info.tools).not.toContain("mcp__calc__add");
  });

  it("calls a server of the current revision with a header secret", async () => {
    const id = await session({ mcp_servers: ["notes"] });
    const r = await tool(id, "mcp__notes__lookup_note", { key: "greeting" });
    expect(r).toMatchObject({ success: true, output: "hello from the notes server" });
  });

  it("turns every kind of remote failure into a clear tool error, logged", async () => {
    const id = await session({ mcp_servers: ["calc", "webpage", "nokey"] });
    const cases: [string, unknown, RegExp][] = [
      ["mcp__calc__fail", {}, /^The remote tool fail failed: the remote tool broke on purpose$/],
      ["mcp__calc__slow", {}, /^MCP server 'calc' did not answer within 4000 ms\.$/],
      ["mcp__calc__add", { a: "two" }, /^The remote tool add failed: MCP error -32602: .*expected number, received string at a\n/],
      ["mcp__calc__nope", {}, /^The remote tool nope failed: MCP error -32602: Tool nope not found$/],
      ["mcp__webpage__anything", {}, /^MCP server 'webpage' did not answer as an MCP server \(.*text\/html/],
      ["mcp__nokey__add", { a: 1, b: 2 }, /^MCP server 'nokey' refused Toolshed's credentials; the operator must check the secret configured for it\.$/],
    ];
    for (const [name, args, error] of cases) {
      const r = await tool(id, name, args);
      expect(r.success, name).toBe(false);
      expect(r.error, name).toMatch(error);
      expect(r.denied, name).toBeUndefined();
      expect((await log(id))[0], name).toMatchObject({ tool: name, outcome: "error" });
    }
    // Arguments must be a JSON object; the remote schema is the server's to check.
    const bad = await api("POST", `/v1/sessions/${id}/tools/mcp__calc__add`, { body: [1, 2] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Invalid arguments for mcp__calc__add: \(arguments\): /);
  });

  it("refuses a server the URL policy refuses, also behind a redirect, and logs the refusal", async () => {
    const id = await session({ mcp_servers: ["metadata", "hop"] });
    for (const name of ["mcp__metadata__x", "mcp__hop__x"]) {
      const r = await tool(id, name, {});
      expect(r.success).toBe(false);
      expect(r.denied.rule).toBe("url.metadata");
      expect(r.error).toMatch(/^Denied by policy \(url\.metadata\): MCP server '(metadata|hop)': 169\.254\.169\.254 is a cloud metadata address/);
      expect((await log(id))[0]).toMatchObject({ tool: name, outcome: "denied", denied: { rule: "url.metadata" } });
    }
    const search = await tool(id, "tool_search", { query: "x" });
    expect(search.success).toBe(false);
    expect(search.error).toMatch(/^No deferred tool could be listed\. MCP server 'metadata' is unavailable: Denied by policy \(url\.metadata\)/);
    const entries = await log(id);
    expect(entries.filter((e) => e.tool === "mcp__metadata" || e.tool === "mcp__hop").map((e) => e.outcome)).toEqual(["denied", "denied"]);
  });

  it("follows a redirect to another origin without the server's credentials", async () => {
    const id = await session({ mcp_servers: ["moved"] });
    const before = (await seenByServers()).length;
    const r = await tool(id, "mcp__moved__add", { a: 1, b: 2 });
    expect(r.error).toBe("MCP server 'moved' refused Toolshed's credentials; the operator must check the secret configured for it.");
    const calls = (await seenByServers()).slice(before);
    const otherPort = Number(new URL(remote.otherOrigin).port);
    expect(calls.filter((c) => c.path === "/moved").length).toBeGreaterThan(0);
    const arrived = calls.filter((c) => c.port === otherPort);
    expect(arrived.length).toBeGreaterThan(0);
    expect(arrived.every((c) => c.path === "/calc" && !c.authorized)).toBe(true);
  });

  it("reports an unavailable server beside the tools of the others", async () => {
    const id = await session({ mcp_servers: ["calc", "metadata"] });
    const r = await tool(id, "tool_search", { query: "add" });
    expect(r.success).toBe(true);
    expect(r.tools.map((t: { name: string }) => t.name)).toEqual(["mcp__calc__add"]);
    expect(r.unavailable).toEqual([
      { server: "metadata", error: expect.stringMatching(/^Denied by policy \(url\.metadata\)/), denied: expect.objectContaining({ rule: "url.metadata" }) },
    ]);
    expect(r.output).toContain("MCP server 'metadata' is unavailable: Denied by policy");
  });
});

describe("attaching servers", () => {
  it("only among the operator's servers, named at creation", async () => {
    const r = await api("POST", "/v1/sessions", { body: { mcp_servers: ["calc", "elsewhere"] } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("mcp_servers: 'elsewhere' is not an MCP server of this deployment; choose among calc, notes, metadata, hop, webpage, nokey, moved.");
  });

  it("a session without a server cannot call its tools, over HTTP, RPC or MCP", async () => {
    const id = await session({ mcp_servers: ["notes"] });
    const http = await api("POST", `/v1/sessions/${id}/tools/mcp__calc__add`, { body: { a: 1, b: 2 } });
    expect(http.status).toBe(404);
    expect(http.body.message).toContain("has no tool 'mcp__calc__add'");
    expect(http.body.message).toContain("No MCP server 'calc' is attached to it (attached: notes); servers are chosen when the session is created.");
    const plain = await session({});
    expect((await api("POST", `/v1/sessions/${plain}/tools/mcp__calc__add`, { body: { a: 1, b: 2 } })).body.message).toContain("(none is attached)");
    const rpc = exports.ToolshedRPC as unknown as Pick<ToolshedRPC, "callTool">;
    const refused = await rpc.callTool("alice", id, "mcp__calc__add", { a: 1, b: 2 }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/No MCP server 'calc' is attached/);
    for (const era of ERAS) {
      const client = await connectMcp(era, `http://toolshed.test/v1/sessions/${id}/mcp`, "test-key-alice", (url: string | URL, init?: RequestInit) =>
        exports.default.fetch(new Request(url, init)),
      );
      await expect(client.callTool("mcp__calc__add", { a: 1, b: 2 })).rejects.toThrow(/No MCP server 'calc' is attached/);
      await client.close();
    }
  });

  it.each(ERAS)("deferred tools are callable through the session's MCP endpoint (%s client) but not in its tools/list", async (era) => {
    const id = await session({ mcp_servers: ["calc"] });
    const client = await connectMcp(era, `http://toolshed.test/v1/sessions/${id}/mcp`, "test-key-alice", (url: string | URL, init?: RequestInit) =>
      exports.default.fetch(new Request(url, init)),
    );
    const listed = (await client.listTools()).map((t: { name: string }) => t.name);
    expect(listed).toContain("tool_search");
    expect(listed.some((n: string) => n.startsWith("mcp__"))).toBe(false);
    const r = await client.callTool("mcp__calc__add", { a: 20, b: 22 });
    expect(r.isError).toBe(false);
    expect(r.structuredContent).toMatchObject({ success: true, output: "20 + 22 = 42" });
    await client.close();
  });

  it("over RPC too", async () => {
    const rpc = exports.ToolshedRPC as unknown as Pick<ToolshedRPC, "createSession" | "callTool">;
    const s = await rpc.createSession("alice", { mcpServers: ["calc"] });
    expect(s.mcpServers).toEqual(["calc"]);
    expect((await rpc.callTool("alice", s.id, "mcp__calc__add", { a: 3, b: 4 })).output).toBe("3 + 4 = 7");
  });
});
