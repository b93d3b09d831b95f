// The operator's TOOLSHED_MCP_SERVERS, a session's choice among them, and deferred tool names.
import { describe, expect, it } from "vitest";
import { chooseMcpServers, mcpServersFromEnv, resolveServer } from "../../src/mcp/client/config";
import { deferredName, parseDeferredName } from "../../src/mcp/client/names";

const env = (servers: unknown, secrets: Record<string, string> = {}) => ({
  TOOLSHED_MCP_SERVERS: typeof servers === "string" ? servers : JSON.stringify(servers),
  ...secrets,
});

describe("TOOLSHED_MCP_SERVERS", () => {
  it.each([
    ["not JSON", "{calc:", /is not valid JSON; it must be an object \{name: \{url, headers_secret\?, bearer_secret\?\}\}/],
    [
      "a name with __",
      { my__calc: { url: "https://mcp.example.com/" } },
      /the server name 'my__calc' must be letters, digits, - and single _ \(it becomes part of the tool names mcp__<server>__<tool>\)/,
    ],
    ["a non-http URL", { calc: { url: "ftp://mcp.example.com/" } }, /calc\.url: /],
    ["a lower-case secret name", { calc: { url: "https://mcp.example.com/", bearer_secret: "token" } }, /calc\.bearer_secret: must name a Worker secret/],
    ["deferred false", { calc: { url: "https://mcp.example.com/", deferred: false } }, /calc\.deferred: only deferred servers are supported/],
    ["an unknown key", { calc: { url: "https://mcp.example.com/", token: "abc" } }, /calc: Unrecognized key: "token"/],
  ])("refuses %s with a message saying what to fix", (_, servers, message) => {
    expect(() => mcpServersFromEnv(env(servers))).toThrow(message);
  });

  it("is empty when unset", () => {
    expect(mcpServersFromEnv({})).toEqual({});
    expect(chooseMcpServers({}, undefined)).toEqual({ servers: [] });
    expect(chooseMcpServers({}, ["calc"])).toEqual({
      error: "mcp_servers: 'calc' is not an MCP server of this deployment; the operator has configured none (TOOLSHED_MCP_SERVERS).",
    });
  });

  it("says at session creation when the operator's setting is broken", () => {
    expect(chooseMcpServers(env("[1]"), ["calc"])).toEqual({ error: expect.stringMatching(/^mcp_servers: The operator's TOOLSHED_MCP_SERVERS is invalid: /) });
  });
});

describe("credentials come from the secrets the configuration names", () => {
  const servers = {
    a: { url: "https://a.example.com/mcp", bearer_secret: "A_TOKEN" },
    b: { url: "https://b.example.com/mcp", headers_secret: "B_HEADERS" },
    c: { url: "https://c.example.com/mcp" },
  };
  it("resolves bearer tokens and header objects", () => {
    const e = env(servers, { A_TOKEN: "t0k", B_HEADERS: '{"x-api-key":"k3y"}' });
    expect(resolveServer(e, "a")).toEqual({ name: "a", url: "https://a.example.com/mcp", headers: { authorization: "Bearer t0k" } });
    expect(resolveServer(e, "b").headers).toEqual({ "x-api-key": "k3y" });
    expect(resolveServer(e, "c").headers).toEqual({});
  });
  it.each([
    ["a", {}, /The secret A_TOKEN named for MCP server 'a' is unset; ask the operator to set it\./],
    ["b", { B_HEADERS: "k3y" }, /The secret B_HEADERS named for MCP server 'b' is unset or not a JSON object of header strings/],
    ["b", { B_HEADERS: '{"x":1}' }, /not a JSON object of header strings/],
    ["gone", {}, /The MCP server 'gone' is no longer configured by the operator/],
  ])("server %s with %j: a clear error that never shows the secret", (name, secrets, message) => {
    let thrown: Error | undefined;
    try {
      resolveServer(env(servers, secrets), name);
    } catch (e) {
      thrown = e as Error;
    }
    expect(thrown?.message).toMatch(message);
    expect(thrown?.message).not.toContain("k3y");
  });
});

describe("deferred tool names", () => {
  it.each([
    ["mcp__calc__add", { server: "calc", tool: "add" }],
    ["mcp__my_calc__add", { server: "my_calc", tool: "add" }],
    ["mcp__calc__two__parts", { server: "calc", tool: "two__parts" }],
    ["mcp__calc__", null],
    ["mcp____add", null],
    ["mcp__calc", null],
    ["read_file", null],
  ])("%s", (name, parsed) => {
    expect(parseDeferredName(name)).toEqual(parsed);
    if (parsed) expect(deferredName(parsed.server, parsed.tool)).toBe(name);
  });
});
