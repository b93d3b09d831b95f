// An example search Worker for Toolshed's `service` search provider: a site search over a
// small catalogue of pages bundled with the Worker. It implements the whole contract
// (README "Search through a service binding"): POST /search {query, count, freshness?,
// country?} -> 200 {results: [{title, url, description, published_time?}]}, failures as
// non-2xx {error}. Replace the catalogue with your own index (KV, D1, Vectorize, an API).

const WINDOW_DAYS = { day: 1, week: 7, month: 31, year: 366 };

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== "/search") return failure(404, "Unknown path; the search contract has only POST /search.");
    if (request.method !== "POST") return failure(405, "Use POST /search with a JSON body.");
    let body;
    try {
      body = await request.json();
    } catch {
      return failure(400, "The body is not JSON; send {query, count, freshness?, country?}.");
    }
    const query = typeof body?.query === "string" ? body.query.trim() : "";
    if (!query) return failure(400, "query is missing; send a non-empty string.");
    const count = Number.isInteger(body.count) && body.count > 0 ? Math.min(body.count, 20) : 5;
    const window = WINDOW_DAYS[body.freshness];
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    const now = Date.now();
    const hits = [];
    for (const page of PAGES) {
      if (window && (!page.published_time || now - Date.parse(page.published_time) > window * 86_400_000)) continue;
      const title = page.title.toLowerCase();
      const text = page.description.toLowerCase();
      let score = 0;
      for (const t of terms) score += (title.includes(t) ? 3 : 0) + (text.includes(t) ? 1 : 0);
      if (score > 0) hits.push({ score, page });
    }
    hits.sort((a, b) => b.score - a.score);
    return Response.json({ results: hits.slice(0, count).map((h) => h.page) });
  },
};

function failure(status, error) {
  return Response.json({ error }, { status });
}

// The example's whole index: pages of a made-up documentation site.
const PAGES = [
  {
    title: "Toolshed sessions",
    url: "https://docs.toolshed.example/sessions",
    description: "Each agent session is a Durable Object that owns a workspace, a working directory and a tool-call log.",
    published_time: "2026-01-10T00:00:00Z",
  },
  {
    title: "The bash tool",
    url: "https://docs.toolshed.example/tools/bash",
    description: "bash runs a bash-compatible interpreter whose external commands are WASI programs.",
    published_time: "2026-02-02T00:00:00Z",
  },
  {
    title: "Policy: paths and sensitive files",
    url: "https://docs.toolshed.example/policy",
    description: "One policy module decides for every door: paths, sensitive and identity files, commands, URLs.",
  },
  {
    title: "Searching the web",
    url: "https://docs.toolshed.example/tools/web-search",
    description: "web_search asks Brave, SearXNG, DuckDuckGo or a bound search Worker and merges their results.",
    published_time: "2026-03-15T00:00:00Z",
  },
];
