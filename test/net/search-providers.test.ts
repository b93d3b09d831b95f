import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { searchSetup, type SearchEnv } from "../../src/net/search/config";
import { searchAll } from "../../src/net/search/run";
import type { SearchQuery } from "../../src/net/search/types";

// Each provider against its stand-in on 127.0.0.1 (test/net/search-server.global.mjs),
// one engine at a time, through the real fetch path inside workerd.
const server = inject("searchServer");
const FAST = { TOOLSHED_SEARCH_TIMEOUT_MS: "700" };
const brave = (scenario: string): SearchEnv => ({
  ...FAST,
  TOOLSHED_SEARCH_PROVIDERS: "brave",
  BRAVE_SEARCH_API_KEY: "k-123",
  TOOLSHED_BRAVE_URL: `${server}/brave/${scenario}`,
});
const searxng = (scenario: string): SearchEnv => ({ ...FAST, TOOLSHED_SEARCH_PROVIDERS: "searxng", TOOLSHED_SEARXNG_URL: `${server}/searxng/${scenario}/` });
const ddg = (scenario: string): SearchEnv => ({ ...FAST, TOOLSHED_DUCKDUCKGO_URL: `${server}/ddg/${scenario}` });

let n = 0;
const query = (extra: Partial<SearchQuery> = {}): SearchQuery => ({ query: `rust async ${++n}`, count: 10, ...extra });

interface Seen {
  engine: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
}
async function requestFor(q: string): Promise<Seen | undefined> {
  const all = (await (await fetch(`${server}/requests`)).json()) as Seen[];
  return all.find((s) => s.query["q"] === q);
}

const failures: [label: string, env: SearchEnv, kind: string, message: RegExp, retry?: number][] = [
  ["brave 401", brave("unauthorized"), "unauthorized", /HTTP 401.*Authentication failed.*BRAVE_SEARCH_API_KEY/],
  ["brave invalid token (422)", brave("badtoken"), "unauthorized", /SUBSCRIPTION_TOKEN_INVALID.*BRAVE_SEARCH_API_KEY/],
  ["brave 429", brave("ratelimited"), "rate_limited", /rate-limiting.*Retry after 30 seconds/, 30],
  ["brave 429 naming its wait in X-RateLimit-Reset only", brave("overquota"), "rate_limited", /Request rate limit exceeded for plan\. Retry after 86400 seconds/, 86400],
  ["brave hanging server", brave("hang"), "timeout", /did not answer within 0.7 seconds/],
  ["brave body that stalls", brave("hangbody"), "timeout", /did not answer within/],
  ["brave cut-off JSON", brave("malformed"), "malformed", /not JSON/],
  ["brave JSON of another shape", brave("wrongshape"), "malformed", /not a web search answer/],
  ["brave endless body", brave("huge"), "malformed", /more than 4194304 bytes/],
  ["searxng without the json format (403)", searxng("unauthorized"), "unauthorized", /HTTP 403.*json format/],
  ["searxng 429 with an HTTP date", searxng("ratelimited"), "rate_limited", /Retry after \d+ seconds/],
  ["searxng HTML instead of JSON", searxng("malformed"), "malformed", /not JSON/],
  ["searxng JSON without results", searxng("wrongshape"), "malformed", /without a results list/],
  ["searxng hanging server", searxng("hang"), "timeout", /did not answer/],
  ["duckduckgo 429", ddg("ratelimited"), "rate_limited", /Retry after 120 seconds/, 120],
  ["duckduckgo bot check", ddg("challenge"), "rate_limited", /CAPTCHA/],
  ["duckduckgo page that is not a results page", ddg("malformed"), "malformed", /not its HTML results page/],
  ["duckduckgo 403", ddg("unauthorized"), "unauthorized", /another provider/],
  ["duckduckgo hanging server", ddg("hang"), "timeout", /did not answer/],
  ["nothing listening", { ...FAST, TOOLSHED_SEARXNG_URL: "http://127.0.0.1:9/" }, "unreachable", /searxng could not be reached/],
  ["brave listed without a key", { TOOLSHED_SEARCH_PROVIDERS: "brave" }, "config", /BRAVE_SEARCH_API_KEY secret is not set/],
  ["an unknown engine", { TOOLSHED_SEARCH_PROVIDERS: "bing" }, "config", /'bing'.*not a search provider.*brave, searxng, duckduckgo, service/],
  ["a base URL that is not http", { TOOLSHED_SEARXNG_URL: "ftp://x" }, "config", /TOOLSHED_SEARXNG_URL is not an http\(s\) URL/],
];

describe("search providers: failures become clear, named errors", () => {
  it.each(failures)("%s", async (_label, e, kind, message, retry) => {
    const o = await searchAll(searchSetup(e), query());
    expect(o.engines).toEqual([]);
    expect(o.results).toEqual([]);
    expect(o.failed).toHaveLength(1);
    expect(o.failed[0]!.kind).toBe(kind);
    expect(o.failed[0]!.error).toMatch(message);
    if (retry !== undefined) expect(o.failed[0]!.retry_after_seconds).toBe(retry);
    expect(o.failed[0]!.error).not.toContain("k-123");
  });
});

describe("brave", () => {
  it("sends the key, count, country and freshness, and reads Brave's web results", async () => {
    const q = query({ count: 3, country: "uk", freshness: "week" });
    const o = await searchAll(searchSetup(brave("ok")), q);
    expect(o.failed).toEqual([]);
    expect(o.engines).toEqual(["brave"]);
    expect(o.results).toHaveLength(3);
    expect(o.results[0]).toEqual({
      title: `The Rust Programming Language — ${q.query}`,
      url: "https://rust-lang.org",
      description: "A language empowering everyone to build reliable and efficient software. & more",
      published_time: "2026-08-14T09:30:00",
    });
    expect(o.results[1]!.published_time).toBeUndefined();
    const seen = await requestFor(q.query);
    expect(seen?.engine).toBe("brave");
    expect(seen?.query).toMatchObject({ count: "3", country: "gb", freshness: "pw" });
    expect(seen?.headers["x-subscription-token"]).toBe("k-123");
  });

  it("an answer without web results is an empty result list, not a failure", async () => {
    const o = await searchAll(searchSetup(brave("empty")), query());
    expect(o).toMatchObject({ engines: ["brave"], failed: [], results: [] });
  });
});

describe("searxng", () => {
  it("reads SearXNG's JSON, passes time_range and reports its unresponsive engines", async () => {
    const q = query({ count: 2, freshness: "month" });
    const o = await searchAll(searchSetup(searxng("partial")), q);
    expect(o.engines).toEqual(["searxng"]);
    expect(o.results).toEqual([
      { title: "Asynchronous Programming in Rust", url: "https://rust-lang.github.io/async-book/", description: "Getting started with async/await in Rust." },
      {
        title: "Rust by Example",
        url: "https://doc.rust-lang.org/rust-by-example/",
        description: "A collection of runnable examples.",
        published_time: "2026-07-01T00:00:00",
      },
    ]);
    expect(o.unresponsive).toEqual(["searxng/google: timeout", "searxng/brave: Suspended: too many requests"]);
    expect((await requestFor(q.query))?.query).toMatchObject({ format: "json", time_range: "month" });
  });
});

describe("duckduckgo", () => {
  it("is the default with nothing configured", () => {
    expect(searchSetup({}).providers.map((p) => p.name)).toEqual(["duckduckgo"]);
    expect(searchSetup({ BRAVE_SEARCH_API_KEY: "k", TOOLSHED_SEARXNG_URL: "http://s.example" }).providers.map((p) => p.name)).toEqual(["brave", "searxng"]);
  });

  it("parses the HTML results page: redirect links decoded, ads skipped, markup and entities gone", async () => {
    const q = query({ country: "de", freshness: "month" });
    const o = await searchAll(searchSetup(ddg("ok")), q);
    expect(o.failed).toEqual([]);
    expect(o.results).toEqual([
      {
        title: "Tokio - An asynchronous Rust runtime & friends",
        url: "https://tokio.rs/",
        description: "Tokio is an event-driven, non-blocking I/O platform.",
        published_time: "2026-05-02T00:00:00.0000000",
      },
      { title: "async-std & friends", url: "https://async.rs/", description: "Async version of the Rust standard library." },
      {
        title: "The Rust Programming Language & friends",
        url: "https://rust-lang.org",
        description: "A language empowering everyone to build reliable and efficient software.",
      },
    ]);
    expect((await requestFor(q.query))?.query).toMatchObject({ kl: "de-de", df: "m" });
  });

  it("'No results.' is an empty list", async () => {
    const o = await searchAll(searchSetup(ddg("empty")), query());
    expect(o).toMatchObject({ engines: ["duckduckgo"], failed: [], results: [] });
  });
});

describe("service binding", () => {
  it("asks the bound Worker (examples/search-worker) through the documented contract", async () => {
    const o = await searchAll(searchSetup({ TOOLSHED_SEARCH_SERVICE: env.TOOLSHED_SEARCH_SERVICE }), { query: "bash tool", count: 1 });
    expect(o.engines).toEqual(["service"]);
    expect(o.results).toEqual([
      {
        title: "The bash tool",
        url: "https://docs.toolshed.example/tools/bash",
        description: expect.stringContaining("WASI programs"),
        published_time: "2026-02-02T00:00:00Z",
      },
    ]);
  });

  it("the example Worker answers contract errors as {error}", async () => {
    const r = await env.TOOLSHED_SEARCH_SERVICE!.fetch("https://search.internal/search", { method: "POST", body: "{" });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: expect.stringMatching(/not JSON/) });
  });
});

describe("several engines", () => {
  it("merge by rank, fold duplicate URLs and name the engine that failed", async () => {
    const e: SearchEnv = {
      ...FAST,
      TOOLSHED_SEARCH_PROVIDERS: "brave, searxng, duckduckgo",
      BRAVE_SEARCH_API_KEY: "k",
      TOOLSHED_BRAVE_URL: `${server}/brave/ok`,
      TOOLSHED_SEARXNG_URL: `${server}/searxng/ok`,
      TOOLSHED_DUCKDUCKGO_URL: `${server}/ddg/hang`,
    };
    const o = await searchAll(searchSetup(e), query({ count: 20 }));
    expect(o.engines).toEqual(["brave", "searxng"]);
    expect(o.failed).toEqual([{ engine: "duckduckgo", kind: "timeout", error: "duckduckgo did not answer within 0.7 seconds." }]);
    // Ranks interleave (brave 1, searxng 1, brave 2, ...); searxng's http://www.rust-lang.org/
    // and brave's second and fifth hits are copies of pages already listed.
    expect(o.results.map((r) => r.url)).toEqual([
      "https://rust-lang.org",
      "https://rust-lang.github.io/async-book/",
      "https://doc.rust-lang.org/rust-by-example/",
      "https://tokio.rs/",
      "https://async.rs/",
    ]);
    expect(o.results[2]!.published_time).toBe("2026-07-01T00:00:00");
  });
});
