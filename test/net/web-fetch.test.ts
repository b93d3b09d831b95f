import { describe, expect, inject, it } from "vitest";
import { api, newSession, tool } from "../helpers";

const { site } = inject("netPorts");
const SITE = `http://127.0.0.1:${site}`;

async function counts(): Promise<{ site: Record<string, number>; canary: number; canaryPaths: string[] }> {
  return (await fetch(`${SITE}/__counts`)).json();
}

describe("web_fetch", () => {
  it("returns an article's readable text, not its markup, scripts or navigation", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `${SITE}/article.html` });
    expect(r.success).toBe(true);
    expect(r.status).toBe(200);
    expect(r.content_type).toBe("text/html");
    expect(r.url).toBe(`${SITE}/article.html`);
    expect(r.title).toBe("Tidal Clocks of Kelp Forests");
    expect(r.output).toContain("# Tidal Clocks of Kelp Forests");
    expect(r.output).toContain("## How the clock was measured");
    expect(r.output).toContain("PERIWINKLE");
    expect(r.output).toMatch(/- +Site two: Point Loma/);
    expect(r.output).toContain(`[full paper](${SITE}/paper.pdf)`);
    for (const junk of ["SCRIPT_SHOULD_NOT_APPEAR", "NAVIGATION_SHOULD_NOT_APPEAR", "FOOTER_SHOULD_NOT_APPEAR", "<p>", "color:red"]) {
      expect(r.output).not.toContain(junk);
    }
  });

  it("returns the raw body with readable: false", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `${SITE}/article.html`, readable: false });
    expect(r.output).toContain("<script>");
  });

  it("asks for Markdown first", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `${SITE}/markdown` });
    expect(r.content_type).toBe("text/markdown");
    expect(r.output).toContain("MARKDOWN_BODY");
  });

  it("pretty-prints JSON and refuses binary with its type and size", async () => {
    const id = await newSession();
    const j = await tool(id, "web_fetch", { url: `${SITE}/data.json` });
    expect(j.output).toBe('{\n  "name": "kelp",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "depth": {\n    "m": 30\n  }\n}');
    const b = await tool(id, "web_fetch", { url: `${SITE}/image.png` });
    expect(b.success).toBe(false);
    expect(b.error).toContain("binary (image/png, 15 bytes)");
  });

  it("follows redirects by hand and reports the final URL; stops after 5", async () => {
    const id = await newSession();
    const ok = await tool(id, "web_fetch", { url: `${SITE}/chain/4` });
    expect(ok.success).toBe(true);
    expect(ok.url).toBe(`${SITE}/hello.txt`);
    const tooMany = await tool(id, "web_fetch", { url: `${SITE}/chain/5` });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error).toContain("Stopped after 5 redirects");
  });

  it("refuses the second hop of a redirect to the metadata address, and logs it", async () => {
    const id = await newSession();
    const before = await counts();
    const r = await tool(id, "web_fetch", { url: `${SITE}/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}` });
    expect(r.success).toBe(false);
    expect(r.denied).toEqual({ rule: "url.metadata", reason: expect.stringContaining("169.254.169.254") });
    const after = await counts();
    expect(after.site["/redirect"]).toBe((before.site["/redirect"] ?? 0) + 1);
    const log = await api("GET", `/v1/sessions/${id}/log`);
    expect(log.body.calls[0]).toMatchObject({ tool: "web_fetch", outcome: "denied", denied: { rule: "url.metadata" } });
  });

  it("caps output at 50,000 characters with a notice", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `${SITE}/big?bytes=200000` });
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBeLessThan(50_200);
    expect(r.output).toContain("[Truncated: showing the first 50,000 characters of 200,000 characters.]");
  });

  it("refuses a body over the byte limit and times out clearly", async () => {
    const id = await newSession();
    const big = await tool(id, "web_fetch", { url: `${SITE}/big?bytes=${11 * 1024 * 1024}` });
    expect(big.error).toContain("larger than the 10 MiB limit");
    const slow = await tool(id, "web_fetch", { url: `${SITE}/slow?ms=5000`, timeout_ms: 300 });
    expect(slow.success).toBe(false);
    expect(slow.error).toContain("Timed out after 300 ms");
  });

  it("reports HTTP errors with their body, and validates timeout_ms", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `${SITE}/status?code=404` });
    expect(r).toMatchObject({ success: false, status: 404, output: "status body 404\n" });
    const bad = await api("POST", `/v1/sessions/${id}/tools/web_fetch`, { body: { url: SITE, timeout_ms: 90_001 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("timeout_ms");
  });

  it("resolves names through DoH and refuses one that points at loopback", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `http://loop.toolshed.test:${site}/` });
    expect(r.denied?.rule).toBe("url.dns_private");
    expect(r.denied?.reason).toContain("loop.toolshed.test resolves to 127.0.0.1");
    const nx = await tool(id, "web_fetch", { url: "http://nowhere.toolshed.test/" });
    expect(nx.error).toContain("Could not resolve host: nowhere.toolshed.test");
  });
});

describe("web_fetch of a large HTML page", () => {
  it("converts only what fits and says the page was longer", async () => {
    const id = await newSession();
    const r = await tool(id, "web_fetch", { url: `${SITE}/big?bytes=${1024 * 1024}&type=text/html` });
    expect(r.success).toBe(true);
    expect(r.truncated).toBe(true);
    expect(r.output).toContain("kelp forest paragraph");
    expect(r.output).not.toContain("<p>");
    expect(r.output).toMatch(/\[Truncated: showing the first [\d,]+ characters of a longer page\.\]$/);
  });
});

describe("a session's own url_rules", () => {
  it("narrow the operator's: a session can refuse even the allowed origin, and cannot widen", async () => {
    const deny = await api("POST", "/v1/sessions", { body: { url_rules: { deny: ["127.0.0.1"] } } });
    expect(deny.status).toBe(201);
    const r = await tool(deny.body.id, "web_fetch", { url: `${SITE}/hello.txt` });
    expect(r.denied?.rule).toBe("url.deny_list");
    const allow = await api("POST", "/v1/sessions", { body: { url_rules: { allow: ["docs.example.org"] } } });
    const a = await tool(allow.body.id, "web_fetch", { url: `${SITE}/hello.txt` });
    expect(a.denied).toMatchObject({ rule: "url.allow_list", reason: expect.stringContaining("session's allow list") });
    const widen = await api("POST", "/v1/sessions", { body: { url_rules: { allow: ["169.254.169.254"] } } });
    const w = await tool(widen.body.id, "bash", { command: "curl -s http://169.254.169.254/" });
    expect(w.denied?.rule).toBe("url.metadata");
    const bad = await api("POST", "/v1/sessions", { body: { url_rules: { deny: "x" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("url_rules.deny");
  });
});
