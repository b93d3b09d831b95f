// Test servers for the network door, started in Node by vitest's globalSetup:
// - the "site" on 127.0.0.1 (its origin is in TOOLSHED_ALLOWED_ORIGINS): pages, redirects,
//   JSON, binary, slow and large bodies, each request counted by path;
// - the "canary" on every local address ([::], dual stack), allowed by nothing: any request
//   reaching it is a policy failure, so the tests assert that its count stays zero;
// - a DNS-over-HTTPS resolver speaking the application/dns-json API over a small zone.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { PIXEL_SVG, browserPage } from "./browser-pages.mjs";
const ARTICLE_HTML = `<!doctype html><html><head><title>Tidal Clocks of Kelp Forests</title>
<style>.x{color:red}</style><script>window.secretTracker = "SCRIPT_SHOULD_NOT_APPEAR";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">NAVIGATION_SHOULD_NOT_APPEAR</a></nav>
<header><div class="banner">Subscribe now BOILERPLATE_BANNER</div></header>
<main><article><h1>Tidal Clocks of Kelp Forests</h1>
<p>Giant kelp grows up to half a metre a day, and its growth follows a <strong>tidal clock</strong> that
researchers measured over three seasons along the Californian coast. The forests shelter hundreds of species,
from sea otters to rockfish, and the canopy shades the water column below.</p>
<h2>How the clock was measured</h2>
<p>Divers tagged fronds every morning and recorded their length against the tide tables. The data showed that
growth peaks shortly after low tide, when sunlight reaches deeper into the forest. This pattern held in every
site they visited, which suggests a general mechanism rather than a local quirk.</p>
<ul><li>Site one: Monterey Bay</li><li>Site two: Point Loma</li><li>Site three: Santa Barbara</li></ul>
<p>Read the <a href="/paper.pdf">full paper</a> for the statistics. The word PERIWINKLE marks the body text.</p>
</article></main>
<footer>Copyright FOOTER_SHOULD_NOT_APPEAR</footer></body></html>`;
/** A zone for the DoH server: name → A and AAAA answers; names missing are NXDOMAIN. */
const ZONE = {
  "public.toolshed.test": { A: ["93.184.215.14"], AAAA: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"] },
  "loop.toolshed.test": { A: ["127.0.0.1"] },
  "loop6.toolshed.test": { AAAA: ["::1"] },
  "mapped.toolshed.test": { AAAA: ["::ffff:127.0.0.1"] },
  "nat64.toolshed.test": { AAAA: ["64:ff9b::a00:1"] },
  "private.toolshed.test": { A: ["10.1.2.3"] },
  "mixed.toolshed.test": { A: ["93.184.215.14", "192.168.1.1"] },
  "mixed6.toolshed.test": { A: ["93.184.215.14"], AAAA: ["fd12:3456::1"] },
  "meta.toolshed.test": { A: ["169.254.169.254"] },
  "alibaba.toolshed.test": { A: ["100.100.100.200"] },
  "cgnat.toolshed.test": { A: ["100.64.0.1"] },
  "linklocal6.toolshed.test": { AAAA: ["fe80::1"] },
  "zero.toolshed.test": { A: ["0.0.0.0"] },
  "teredo.toolshed.test": { AAAA: ["2001:0:4136:e378:8000:63bf:3fff:fdd2"] },
  "sixtofour.toolshed.test": { AAAA: ["2002:7f00:1::1"] },
};
/** Requests seen: the site's by path, the canary's (must stay zero), the resolver's. */
const counts = { site: {}, canary: 0, canaryPaths: [], doh: 0 };
/** Sockets that answered `/reused` once. */
const served = new WeakSet();
/** The allowed site: an article, redirects and chains, JSON, binary, slow, large, status and echo. */
function site(req, res, ports) {
  const url = new URL(req.url ?? "/", `http://127.0.0.1:${ports.site}`);
  const path = url.pathname;
  if (path === "/__counts") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(counts));
    return;
  }
  counts.site[path] = (counts.site[path] ?? 0) + 1;
  const q = url.searchParams;
  if (path === "/browser/pixel.svg") {
    res.writeHead(200, { "content-type": "image/svg+xml" }).end(PIXEL_SVG);
  } else if (path.startsWith("/browser/") && browserPage(path.slice(9), ports)) {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(browserPage(path.slice(9), ports));
  } else if (path === "/article.html") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE_HTML);
  } else if (path === "/redirect") {
    res.writeHead(Number(q.get("status") ?? 302), { location: q.get("to") ?? "/" }).end();
  } else if (path.startsWith("/chain/")) {
    const n = Number(path.slice(7));
    res.writeHead(302, { location: n > 0 ? `/chain/${n - 1}` : "/hello.txt" }).end();
  } else if (path === "/loop") {
    res.writeHead(302, { location: "/loop" }).end();
  } else if (path === "/data.json") {
    res.writeHead(200, { "content-type": "application/json" }).end('{"name":"kelp","tags":["a","b"],"depth":{"m":30}}');
  } else if (path === "/image.png") {
    res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 1, 2, 3]));
  } else if (path === "/markdown") {
    const wants = String(req.headers.accept ?? "").startsWith("text/markdown");
    res.writeHead(200, { "content-type": wants ? "text/markdown" : "text/html" }).end(wants ? "# Served as Markdown\n\nMARKDOWN_BODY\n" : "<p>html</p>");
  } else if (path === "/big") {
    const bytes = Number(q.get("bytes") ?? 1024);
    const kind = q.get("type") ?? "text/plain";
    const unit = kind === "text/html" ? "<p>kelp forest paragraph with some words in it for the reader to read.</p>\n" : "0123456789abcdef".repeat(4) + "\n";
    res.writeHead(200, { "content-type": kind });
    const body =
      kind === "text/html"
        ? `<html><head><title>Big</title></head><body><article>${unit.repeat(Math.ceil(bytes / unit.length))}</article></body></html>`
        : unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
    res.end(body);
  } else if (path === "/slow") {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("start\n");
    const t = setTimeout(() => res.end("end\n"), Number(q.get("ms") ?? 5e3));
    res.on("close", () => clearTimeout(t));
  } else if (path === "/status") {
    const code = Number(q.get("code") ?? 500);
    res.writeHead(code, { "content-type": "text/plain" }).end(`status body ${code}
`);
  } else if (path === "/closes") {
    // As a plain HTTP/1.0 server does (Python's http.server): no length, the body ends when the
    // server closes the connection right after writing it.
    req.socket.end("HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nok\n");
  } else if (path === "/reused") {
    // A kept-alive connection that the server closes just as the next request arrives on it:
    // the second request on a socket finds it dead before any response starts.
    if (served.has(req.socket)) req.socket.destroy();
    else {
      served.add(req.socket);
      res.writeHead(200, { "content-type": "text/plain", "content-length": 3, connection: "keep-alive" }).end("ok\n");
    }
  } else if (path === "/echo") {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      res
        .writeHead(200, { "content-type": "application/json", "x-echo": "yes" })
        .end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
  } else {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(`hello from ${path}${url.search}
`);
  }
}
/**
 * The site's WebSocket endpoint (`/browser/ws`, RFC 6455 handshake written out): it sends one
 * text frame, `WS_HELLO`, and keeps the connection open.
 */
const upgraded = new Set();
function siteUpgrade(req, socket) {
  upgraded.add(socket);
  socket.on("close", () => upgraded.delete(socket));
  socket.on("end", () => socket.destroy());
  const key = req.headers["sec-websocket-key"];
  if (!String(req.url).startsWith("/browser/ws") || !key) return void socket.destroy();
  counts.site[req.url] = (counts.site[req.url] ?? 0) + 1;
  const accept = createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const text = Buffer.from("WS_HELLO");
  socket.write(Buffer.concat([Buffer.from([0x81, text.length]), text]));
  socket.on("error", () => undefined);
}
/** A WebSocket handshake at the canary is a URL that got past the policy too. */
function canaryUpgrade(req, socket) {
  counts.canary++;
  counts.canaryPaths.push(`${req.headers.host}${req.url}`);
  socket.destroy();
}
/** Allowed by nothing: any request here is a URL that got past the policy. */
function canary(req, res) {
  counts.canary++;
  counts.canaryPaths.push(`${req.headers.host}${req.url}`);
  res.writeHead(200, { "content-type": "text/plain" }).end("CANARY REACHED\n");
}
/** application/dns-json, as Cloudflare's and Google's resolvers answer `?name=&type=`. */
function doh(req, res) {
  counts.doh++;
  const url = new URL(req.url ?? "/", "http://doh");
  if (url.pathname !== "/dns-query") return void res.writeHead(404).end();
  if (!String(req.headers.accept ?? "").includes("application/dns-json")) return void res.writeHead(415).end();
  const name = (url.searchParams.get("name") ?? "").toLowerCase().replace(/\.$/, "");
  const type = url.searchParams.get("type") ?? "A";
  const entry = ZONE[name];
  const code = type === "AAAA" ? 28 : 1;
  const answers = (entry?.[type] ?? []).map((data) => ({ name: `${name}.`, type: code, TTL: 60, data }));
  res
    .writeHead(200, { "content-type": "application/dns-json" })
    .end(JSON.stringify({ Status: entry ? 0 : 3, TC: false, RD: true, RA: true, AD: false, CD: false, Question: [{ name: `${name}.`, type: code }], Answer: answers }));
}
async function listen(server, port, host) {
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}
/** A port free right now, for the config to name before the servers start. */
async function freePort() {
  const s = createServer();
  await listen(s, 0, "127.0.0.1");
  const port = s.address().port;
  await new Promise((r) => s.close(r));
  return port;
}
/** Starts the three servers; resolves to a function that stops them. */
async function startNetServers(ports) {
  const servers = [createServer((req, res) => site(req, res, ports)), createServer(canary), createServer(doh)];
  servers[0].on("upgrade", siteUpgrade);
  servers[1].on("upgrade", canaryUpgrade);
  await listen(servers[0], ports.site, "127.0.0.1");
  await listen(servers[1], ports.canary, "::");
  await listen(servers[2], ports.doh, "127.0.0.1");
  return async () => {
    // Upgraded sockets are no longer the HTTP server's to close, and would keep it open.
    for (const socket of upgraded) socket.destroy();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  };
}
export { ARTICLE_HTML, ZONE, freePort, listen, startNetServers };
