// Stand-ins for the search engines (no real Brave, SearXNG or DuckDuckGo is reachable
// offline): one Node HTTP server on 127.0.0.1 answering in each engine's real response
// format. The path picks the engine and the behaviour:
//   /brave/<scenario>/res/v1/web/search   Brave's web search JSON
//   /searxng/<scenario>/search            SearXNG's format=json answer
//   /ddg/<scenario>/html/                 DuckDuckGo's HTML results page
// scenarios: ok, empty, unauthorized, badtoken, ratelimited, overquota, hang, hangbody, malformed,
// wrongshape, huge, challenge. GET /requests lists what reached the server.
// Runs in Node (plain JavaScript: the project's TypeScript is typed for workerd only).
import { createServer } from "node:http";

/** @type {{engine: string, scenario: string, query: Record<string, string>, headers: Record<string, unknown>}[]} */
const seen = [];

/** @param {import("vitest/node").TestProject} project */
export default async function setup(project) {
  /** @type {Set<import("node:http").ServerResponse>} */
  const hanging = new Set();
  const server = createServer((req, res) => handle(req, res, hanging));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  project.provide("searchServer", `http://127.0.0.1:${port}`);
  return async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve()));
  };
}

function handle(req, res, hanging) {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/requests") return send(res, 200, "application/json", JSON.stringify(seen));
  const m = /^\/(brave|searxng|ddg)\/([a-z]+)(\/.*)$/.exec(url.pathname);
  const expected = { brave: "/res/v1/web/search", searxng: "/search", ddg: "/html/" };
  if (!m || m[3] !== expected[m[1]]) return send(res, 404, "text/plain", "not found");
  const [, engine, scenario] = m;
  const query = Object.fromEntries(url.searchParams);
  seen.push({ engine, scenario, query, headers: { "x-subscription-token": req.headers["x-subscription-token"], accept: req.headers.accept } });
  if (seen.length > 500) seen.shift();
  const q = query.q ?? "";
  const count = Number(query.count ?? 10);
  switch (scenario) {
    case "hang":
      hanging.add(res);
      return;
    case "hangbody":
      hanging.add(res);
      res.writeHead(200, { "content-type": engine === "ddg" ? "text/html" : "application/json" });
      res.write(engine === "ddg" ? "<!DOCTYPE html><html><body>" : '{"type": "search", "web": {"results": [');
      return;
    case "huge":
      return send(res, 200, "application/json", " ".repeat(5 * 1024 * 1024) + "{}");
  }
  if (engine === "brave") return brave(res, scenario, q, count);
  if (engine === "searxng") return searxng(res, scenario, q);
  return duckduckgo(res, scenario, q);
}

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { "content-type": type, ...headers });
  res.end(body);
}

/** Brave's error envelope (type ErrorResponse). */
function braveError(status, code, detail) {
  return JSON.stringify({
    type: "ErrorResponse",
    error: { id: "2a7f3b1e-0c1d-4a55-9d8e-2f7b6c1e0a11", status, code, detail, meta: { component: "authentication" } },
    time: 1763990000,
  });
}

function brave(res, scenario, q, count) {
  switch (scenario) {
    case "unauthorized":
      return send(res, 401, "application/json", braveError(401, "UNAUTHORIZED", "Authentication failed."));
    case "badtoken":
      return send(res, 422, "application/json", braveError(422, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid."));
    case "ratelimited":
      return send(res, 429, "application/json", braveError(429, "RATE_LIMITED", "Request rate limit exceeded for plan."), {
        "retry-after": "30",
        "x-ratelimit-limit": "1, 2000",
        "x-ratelimit-remaining": "0, 1500",
        "x-ratelimit-reset": "1, 1419704",
      });
    case "overquota":
      // No Retry-After: the monthly window is exhausted, X-RateLimit-Reset says when it resets.
      return send(res, 429, "application/json", braveError(429, "RATE_LIMITED", "Request rate limit exceeded for plan."), {
        "x-ratelimit-limit": "1, 2000",
        "x-ratelimit-remaining": "1, 0",
        "x-ratelimit-reset": "0, 86400",
      });
    case "malformed":
      return send(res, 200, "application/json", '{"type": "search", "web": {"results": [{"title": "cut off');
    case "wrongshape":
      return send(res, 200, "application/json", JSON.stringify({ type: "search", web: { results: "none" } }));
  }
  const pages = scenario === "empty" ? [] : SITES.slice(0, count);
  const body = {
    type: "search",
    query: {
      original: q,
      show_strict_warning: false,
      is_navigational: false,
      local_decision: "drop",
      is_news_breaking: false,
      spellcheck_off: true,
      country: "us",
      bad_results: false,
      should_fallback: false,
      postal_code: "",
      city: "",
      header_country: "",
      more_results_available: true,
      state: "",
    },
    mixed: { type: "mixed", main: pages.map((_, index) => ({ type: "web", index, all: false })), top: [], side: [] },
    ...(pages.length
      ? {
          web: {
            type: "search",
            family_friendly: true,
            results: pages.map((s, i) => ({
              title: `${s.title} — ${q}`,
              url: s.url,
              is_source_local: false,
              is_source_both: false,
              description: `${s.snippet.replace(s.bold, `<strong>${s.bold}</strong>`)} &amp; more`,
              ...(i === 0 ? { page_age: "2026-08-14T09:30:00", age: "August 14, 2026" } : {}),
              profile: { name: new URL(s.url).hostname, url: s.url, long_name: new URL(s.url).hostname, img: "https://imgs.search.brave.com/x.png" },
              language: "en",
              family_friendly: true,
              type: "search_result",
              subtype: "generic",
              is_live: false,
              meta_url: {
                scheme: "https",
                netloc: new URL(s.url).hostname,
                hostname: new URL(s.url).hostname,
                favicon: "https://imgs.search.brave.com/f.png",
                path: "› docs",
              },
            })),
          },
        }
      : {}),
  };
  send(res, 200, "application/json", JSON.stringify(body));
}

function searxng(res, scenario, q) {
  switch (scenario) {
    case "unauthorized":
      // What an instance without `json` in search.formats answers.
      return send(res, 403, "text/html", "<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>");
    case "ratelimited":
      return send(res, 429, "text/html", "<html><body>Too Many Requests</body></html>", { "retry-after": "Wed, 21 Oct 2099 07:28:00 GMT" });
    case "malformed":
      return send(res, 200, "text/html", "<!DOCTYPE html><html><body><p>SearXNG is a metasearch engine</p></body></html>");
    case "wrongshape":
      return send(res, 200, "application/json", JSON.stringify({ query: q, number_of_results: 0 }));
  }
  // SearXNG lists the same page under the scheme/host variant it saw; merging must fold these.
  const pages = scenario === "empty" ? [] : [SITES[1], SITES[4], { ...SITES[0], url: SITES[0].url.replace("https://", "http://www.") + "/" }];
  const body = {
    query: q,
    number_of_results: 0,
    results: pages.map((s, i) => ({
      url: s.url,
      title: s.title,
      content: s.snippet,
      thumbnail: null,
      engine: "bing",
      template: "default.html",
      parsed_url: ["https", new URL(s.url).hostname, new URL(s.url).pathname, "", "", ""],
      img_src: "",
      priority: "",
      engines: ["bing", "duckduckgo"],
      positions: [i + 1, i + 2],
      score: 4 - i,
      category: "general",
      publishedDate: i === 1 ? "2026-07-01T00:00:00" : null,
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [`${q} tutorial`],
    unresponsive_engines:
      scenario === "partial"
        ? [
            ["google", "timeout"],
            ["brave", "Suspended: too many requests"],
          ]
        : [],
  };
  send(res, 200, "application/json", JSON.stringify(body));
}

function duckduckgo(res, scenario, q) {
  switch (scenario) {
    case "unauthorized":
      return send(res, 403, "text/html", "<html><body>Forbidden</body></html>");
    case "ratelimited":
      return send(res, 429, "text/html", "<html><body>Too Many Requests</body></html>", { "retry-after": "120" });
    case "challenge":
      return send(
        res,
        202,
        "text/html",
        page(
          q,
          `<div class="anomaly-modal__modal" data-testid="anomaly-modal"><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div><form id="challenge-form" action="//duckduckgo.com/anomaly.js" method="POST"></form></div>`,
        ),
      );
    case "malformed":
      return send(res, 200, "text/html", "<!DOCTYPE html><html><head><title>Welcome</title></head><body><p>Nothing to see</p></body></html>");
    case "empty":
      return send(
        res,
        200,
        "text/html",
        page(q, `<div id="links" class="results"><div class="result results_links results_links_deep web-result "><div class="no-results">No results.</div></div></div>`),
      );
  }
  const ad = `<div class="result results_links results_links_deep result--ad "><div class="links_main links_deep result__body"><h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.example&amp;ad_provider=bingv7aa&amp;u3=x">Buy <b>${esc(q)}</b> now</a></h2><a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=shop.example">Sponsored &amp; cheap</a></div></div>`;
  const items = [SITES[2], SITES[3], SITES[0]].map((s, i) => {
    const href = `//duckduckgo.com/l/?uddg=${encodeURIComponent(s.url)}&amp;rut=5f1c${i}a9e`;
    const date = i === 0 ? `<span>&nbsp; &nbsp; 2026-05-02T00:00:00.0000000</span>` : "";
    return `
<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title">
      <a rel="nofollow" class="result__a" href="${href}">${esc(s.title)} &amp; friends</a>
    </h2>
    <div class="result__extras">
      <div class="result__extras__url">
        <span class="result__icon"><a rel="nofollow" href="${href}"><img class="result__icon__img" width="16" height="16" alt="" src="//external-content.duckduckgo.com/ip3/${new URL(s.url).hostname}.ico" name="i15" /></a></span>
        <a class="result__url" href="${href}">${new URL(s.url).hostname}</a>
        ${date}
      </div>
    </div>
    <a class="result__snippet" href="${href}">${esc(s.snippet).replace(s.bold, `<b>${s.bold}</b>`)}</a>
    <div class="clear"></div>
  </div>
</div>`;
  });
  send(res, 200, "text/html", page(q, `<div id="links" class="results">${ad}${items.join("")}</div>`));
}

function page(q, body) {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="content-type" content="text/html; charset=UTF-8" /><title>${esc(q)} at DuckDuckGo</title><link rel="stylesheet" href="/dist/h.css" type="text/css"/></head>
<body class="body--html"><div class="header__form"><form name="x" class="header__form" action="/html/" method="post" id="search_form"><input type="text" name="q" class="search__input" value="${esc(q)}" autocomplete="off" /></form></div>
<div><div class="serp__results"><div id="links_wrapper">${body}</div></div></div></body></html>`;
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const SITES = [
  {
    title: "The Rust Programming Language",
    url: "https://rust-lang.org",
    snippet: "A language empowering everyone to build reliable and efficient software.",
    bold: "reliable",
  },
  { title: "Asynchronous Programming in Rust", url: "https://rust-lang.github.io/async-book/", snippet: "Getting started with async/await in Rust.", bold: "async" },
  { title: "Tokio - An asynchronous Rust runtime", url: "https://tokio.rs/", snippet: "Tokio is an event-driven, non-blocking I/O platform.", bold: "non-blocking" },
  { title: "async-std", url: "https://async.rs/", snippet: "Async version of the Rust standard library.", bold: "standard" },
  { title: "Rust by Example", url: "https://doc.rust-lang.org/rust-by-example/", snippet: "A collection of runnable examples.", bold: "runnable" },
];
