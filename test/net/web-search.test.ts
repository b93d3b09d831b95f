import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { webSearch } from "../../src/tools/net/web-search";
import type { ToolContext } from "../../src/tools/types";
import { api, newSession, tool } from "../helpers";

// The tool end to end through the HTTP API. vitest.config.ts configures the Worker with all
// four engines: brave and searxng answer, duckduckgo is rate-limited, service is the example
// Worker bound as TOOLSHED_SEARCH_SERVICE.
describe("web_search tool", () => {
  it("merges the engines that answered and names the one that failed", async () => {
    const id = await newSession();
    const r = await tool(id, "web_search", { query: "async search", count: 10 });
    expect(r.success).toBe(true);
    expect(r.engines).toEqual(["brave", "searxng", "service"]);
    expect(r.failed_engines).toEqual([
      { engine: "duckduckgo", kind: "rate_limited", error: expect.stringMatching(/HTTP 429.*Retry after 120 seconds/), retry_after_seconds: 120 },
    ]);
    const urls: string[] = r.results.map((x: { url: string }) => x.url);
    expect(urls).toContain("https://docs.toolshed.example/tools/web-search");
    expect(urls.filter((u) => /^https?:\/\/(www\.)?rust-lang\.org\/?$/.test(u))).toEqual(["https://rust-lang.org"]);
    expect(new Set(urls).size).toBe(urls.length);
    expect(r.output).toMatch(/^\d+ results for "async search" \(via brave, searxng, service\):/);
    expect(r.output).toContain("1. The Rust Programming Language — async search\n   https://rust-lang.org\n");
    expect(r.output).toMatch(/Failed engines:\n- duckduckgo: duckduckgo is rate-limiting/);
    expect(r.output).toContain("Engines behind searxng that did not answer: searxng/google: timeout");
    expect(r.output).not.toContain("test-brave-key");

    const log = await api("GET", `/v1/sessions/${id}/log`);
    expect(log.body.calls[0]).toMatchObject({ tool: "web_search", outcome: "ok" });
  });

  it("honours count across the merged engines", async () => {
    const id = await newSession();
    const r = await tool(id, "web_search", { query: "rust", count: 2 });
    expect(r.results).toHaveLength(2);
  });

  const invalid: [args: unknown, field: RegExp][] = [
    [{}, /query/],
    [{ query: "   " }, /query: the query is empty/],
    [{ query: "x", count: 0 }, /count/],
    [{ query: "x", count: 21 }, /count/],
    [{ query: "x", freshness: "hour" }, /freshness/],
    [{ query: "x", country: "usa" }, /country: a two-letter country code/],
  ];
  it.each(invalid)("refuses %j with a message naming the field", async (args, field) => {
    const id = await newSession();
    const r = await api("POST", `/v1/sessions/${id}/tools/web_search`, { body: args });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(field);
  });

  it("says so when no engine can answer, with the shortest known wait", async () => {
    const server = inject("searchServer");
    const ctx = { sessionId: "s", cwd: "/workspace", env: {}, setStatus: () => {} } as unknown as ToolContext;
    ctx.workerEnv = {
      ...env,
      TOOLSHED_SEARCH_PROVIDERS: "brave,duckduckgo",
      TOOLSHED_BRAVE_URL: `${server}/brave/ratelimited`,
      TOOLSHED_DUCKDUCKGO_URL: `${server}/ddg/malformed`,
    };
    const r = await webSearch.run(ctx, { query: "anything", count: 5 });
    expect(r.success).toBe(false);
    expect(r.error).toMatch(
      /^No search engine could answer\. brave is rate-limiting .*Retry after 30 seconds\. duckduckgo sent a page that is not its HTML results page/,
    );
    expect(r.retry_after_seconds).toBe(30);
    expect(r.failed_engines).toHaveLength(2);
  });

  it("is listed with its JSON Schema", async () => {
    const r = await api("GET", "/v1/tools");
    const t = r.body.tools.find((x: { name: string }) => x.name === "web_search");
    expect(t.parameters.required).toEqual(["query"]);
    expect(t.parameters.properties.count).toMatchObject({ minimum: 1, maximum: 20, default: 5 });
    expect(t.parameters.properties.freshness.enum).toEqual(["day", "week", "month", "year"]);
  });
});
