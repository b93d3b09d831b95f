import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";
import { allowedUrls, refusedUrls } from "./url-table";

const { site, canary } = inject("netPorts");
const SITE = `http://127.0.0.1:${site}`;
const counts = async (): Promise<{ site: Record<string, number>; canary: number; canaryPaths: string[] }> => (await fetch(`${SITE}/__counts`)).json();
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const pathOf = (url: string) => new URL(url).pathname;

// The whole table through both doors. The canary server listens on every local address and
// is allowed by nothing: if any refused URL left the Worker, it would be counted there.
describe("no refused URL leaves the Worker, through web_fetch and through curl", () => {
  const refused = refusedUrls(canary, site);

  it(`table size: ${refused.length} refused, ${allowedUrls(site).length} allowed`, () => {
    expect(refused.length).toBeGreaterThanOrEqual(300);
    expect(allowedUrls(site).length).toBeGreaterThanOrEqual(50);
  });

  it("web_fetch refuses each with denied", async () => {
    const id = await newSession();
    const before = await counts();
    const wrong: string[] = [];
    for (const { url, viaRedirect } of refused) {
      const r = await tool(id, "web_fetch", { url });
      if (r.success || !r.denied?.rule?.startsWith("url.")) wrong.push(`${url} → ${JSON.stringify(r).slice(0, 200)}`);
      else if (viaRedirect && r.denied.rule === "url.syntax") wrong.push(`${url} → first hop refused`);
    }
    expect(wrong).toEqual([]);
    const after = await counts();
    expect(after.canaryPaths).toEqual([]);
    expect(after.canary).toBe(0);
    // Every redirect's first hop was allowed and reached the site; no later hop did.
    const firstHops = refused.filter((r) => r.viaRedirect).length + 1; // +1: the two-hop chain
    expect((after.site["/redirect"] ?? 0) - (before.site["/redirect"] ?? 0)).toBe(firstHops);
  });

  it("curl in the bash tool refuses each: exit 126 with the reason and denied (or 3 for a malformed URL)", async () => {
    const id = await newSession();
    const wrong: string[] = [];
    for (const { url } of refused) {
      const r = await tool(id, "bash", { command: `curl -sSL ${shellQuote(url)}` });
      const ok =
        (r.exit_code === 126 && r.denied?.rule?.startsWith("url.") && r.stderr.includes(`denied (${r.denied.rule})`)) ||
        (r.exit_code === 3 && r.stderr.startsWith("curl: (3) URL rejected"));
      if (!ok || r.stdout !== "") wrong.push(`${url} → exit ${r.exit_code} ${r.stderr.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    const after = await counts();
    expect(after.canaryPaths).toEqual([]);
  });

  it("the allowed URLs reach the site, through both doors", async () => {
    const id = await newSession();
    const wrong: string[] = [];
    for (const url of allowedUrls(site)) {
      const before = await counts();
      const w = await tool(id, "web_fetch", { url });
      const c = await tool(id, "bash", { command: `curl -sSL -o /dev/null -w '%{http_code}' ${shellQuote(url)}` });
      const after = await counts();
      const reached = Object.values(after.site).reduce((a, b) => a + b, 0) - Object.values(before.site).reduce((a, b) => a + b, 0);
      if (!w.success || w.denied) wrong.push(`web_fetch ${url} → ${JSON.stringify(w).slice(0, 200)}`);
      if (c.exit_code !== 0 || c.stdout !== "200") wrong.push(`curl ${url} → exit ${c.exit_code} ${c.stdout} ${c.stderr.slice(0, 160)}`);
      if (reached < 2) wrong.push(`${url} reached the site ${reached} times (${pathOf(url)})`);
    }
    expect(wrong).toEqual([]);
    expect((await counts()).canary).toBe(0);
  });
});
