import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ALICE, api, BOB, newSession, tool } from "../helpers";

async function login(key: string, base = "http://toolshed.test"): Promise<Response> {
  return exports.default.fetch(`${base}/inspect/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
}

/** The cookie pair (`name=value`) a login sets. */
async function cookieOf(key: string): Promise<string> {
  const r = await login(key);
  expect(r.status).toBe(200);
  return r.headers.get("set-cookie")!.split(";")[0]!;
}

const withCookie = (cookie: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  exports.default.fetch(`http://toolshed.test${path}`, { ...init, headers: { cookie, ...init.headers } });

describe("inspector login cookie", () => {
  it("is set for a valid key: HttpOnly, SameSite=Strict, short-lived, never the key itself", async () => {
    const r = await login(ALICE);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ tenant: "alice" });
    const header = r.headers.get("set-cookie")!;
    expect(header).toMatch(/^toolshed_inspect=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600$/);
    expect(header).not.toContain(ALICE);
    const secure = (await login(ALICE, "https://toolshed.test")).headers.get("set-cookie")!;
    expect(secure).toMatch(/; Secure$/);
  });

  it.each([
    ["an unknown key", { key: "nope" }, 401, /not valid/],
    ["no key", {}, 400, /key/],
    ["a key of the wrong type", { key: 5 }, 400, /key/],
  ])("refuses %s with a message", async (_name, body, status, message) => {
    const r = await exports.default.fetch("http://toolshed.test/inspect/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(status);
    expect(((await r.json()) as { message: string }).message).toMatch(message);
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a login posted from another site", async () => {
    const r = await exports.default.fetch("http://toolshed.test/inspect/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ key: ALICE }),
    });
    expect(r.status).toBe(403);
  });

  it("reads the tenant's own data only, and only by GET from this origin", async () => {
    const mine = await newSession(ALICE);
    const theirs = await newSession(BOB);
    const cookie = await cookieOf(ALICE);
    expect((await withCookie(cookie, `/v1/sessions/${mine}`)).status).toBe(200);
    expect((await withCookie(cookie, `/v1/sessions/${theirs}`)).status).toBe(404);
    const listed = (await (await withCookie(cookie, "/v1/sessions")).json()) as { sessions: { id: string }[] };
    expect(listed.sessions.map((s) => s.id)).toContain(mine);
    expect(listed.sessions.map((s) => s.id)).not.toContain(theirs);
    // Changes need the API key: a cookie never writes (a page elsewhere cannot act with it).
    const post = await withCookie(cookie, `/v1/sessions/${mine}/tools/write_file`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"path":"x","content":"y"}',
    });
    expect(post.status).toBe(401);
    expect((await withCookie(cookie, `/v1/sessions/${mine}`, { method: "DELETE" })).status).toBe(401);
    expect((await withCookie(cookie, `/v1/sessions/${mine}`, { headers: { origin: "https://evil.example" } })).status).toBe(401);
    expect((await withCookie(cookie, `/v1/sessions/${mine}`, { headers: { "sec-fetch-site": "cross-site" } })).status).toBe(401);
    expect((await withCookie(cookie, `/v1/sessions/${mine}`, { headers: { origin: "http://toolshed.test", "sec-fetch-site": "same-origin" } })).status).toBe(200);
  });

  it("lets the page restore a checkpoint and fork (its timeline's buttons), from this origin only", async () => {
    const mine = await newSession(ALICE);
    const theirs = await newSession(BOB);
    await tool(mine, "write_file", { path: "f", content: "one\n" });
    const cp = (await api("POST", `/v1/sessions/${mine}/checkpoints`, { body: {} })).body.id as number;
    await tool(mine, "write_file", { path: "f", content: "two\n" });
    const cookie = await cookieOf(ALICE);
    const post = (path: string, headers: Record<string, string>) =>
      withCookie(cookie, path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
    const here = { origin: "http://toolshed.test", "sec-fetch-site": "same-origin" };
    expect((await post(`/v1/sessions/${mine}/checkpoints/${cp}/restore`, { origin: "https://evil.example" })).status).toBe(401);
    expect((await post(`/v1/sessions/${mine}/checkpoints/${cp}/restore`, {})).status).toBe(401);
    expect((await post(`/v1/sessions/${mine}/checkpoints`, here)).status).toBe(401);
    expect((await post(`/v1/sessions/${theirs}/fork`, here)).status).toBe(404);
    expect((await post(`/v1/sessions/${mine}/checkpoints/${cp}/restore`, here)).status).toBe(200);
    expect((await api("GET", `/v1/sessions/${mine}/files/f`)).body).toBe("one\n");
    expect((await post(`/v1/sessions/${mine}/fork`, here)).status).toBe(201);
  });

  it("is refused when altered, expired or after logout", async () => {
    const id = await newSession(ALICE);
    const cookie = await cookieOf(ALICE);
    const [name, value] = cookie.split("=") as [string, string];
    const [expires, sig, tenant] = value.split(".") as [string, string, string];
    const bobTenant = btoa("bob").replace(/=+$/, "");
    const past = String(Math.floor(Date.now() / 1000) - 10);
    for (const forged of [
      `${expires}.${sig}.${bobTenant}`, // another tenant, same signature
      `${Number(expires) + 99999}.${sig}.${tenant}`, // later expiry
      `${past}.${sig}.${tenant}`,
      `${expires}.${"0".repeat(64)}.${tenant}`,
      `${expires}.${sig}`,
      "",
    ]) {
      expect((await withCookie(`${name}=${forged}`, `/v1/sessions/${id}`)).status, forged).toBe(401);
    }
    const out = await exports.default.fetch("http://toolshed.test/inspect/logout", { method: "POST" });
    expect(out.headers.get("set-cookie")).toMatch(/^toolshed_inspect=; .*Max-Age=0/);
  });
});

describe("the inspector page", () => {
  it.each([
    ["/inspect/", "text/html", /<title>Toolshed inspector<\/title>/],
    ["/inspect/app.js", "text/javascript", /textContent/],
    ["/inspect/vendor/xterm.js", "text/javascript", /Terminal/],
  ])("serves %s without a key, with its security headers", async (path, type, body) => {
    const r = await exports.default.fetch(`http://toolshed.test${path}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain(type);
    expect(r.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(await r.text()).toMatch(body);
  });

  it("never uses innerHTML or document.write", async () => {
    const js = await (await exports.default.fetch("http://toolshed.test/inspect/app.js")).text();
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });
});

describe("listing endpoints for the inspector", () => {
  it("lists the tenant's sessions newest first, without deleted ones", async () => {
    const a = await newSession(ALICE);
    const b = await newSession(ALICE);
    await tool(b, "set_status", { status: "working" });
    const r = await api("GET", "/v1/sessions");
    const ids = r.body.sessions.map((s: any) => s.id);
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    expect(r.body.sessions.find((s: any) => s.id === b)).toMatchObject({ status: "working", usage: { toolCalls: 1 } });
    await api("DELETE", `/v1/sessions/${a}`);
    expect((await api("GET", "/v1/sessions")).body.sessions.map((s: any) => s.id)).not.toContain(a);
    expect((await api("GET", "/v1/sessions", { key: BOB })).body.sessions.map((s: any) => s.id)).not.toContain(b);
  });

  it("lists a session as soon as its creation has answered (the index is written before the answer)", async () => {
    for (let i = 0; i < 5; i++) {
      const id = await newSession(ALICE);
      expect((await api("GET", "/v1/sessions")).body.sessions.map((s: any) => s.id)).toContain(id);
    }
  });

  it("lists one directory of the workspace, directories first, names taken literally", async () => {
    const id = await newSession();
    const hostile = "<img src=x onerror=alert(1)>.txt";
    await tool(id, "write_file", { path: hostile, content: "x" });
    await tool(id, "write_file", { path: "src/app.ts", content: "export {};\n" });
    await tool(id, "write_file", { path: ".env", content: "SECRET=1" });
    const r = await api("GET", "/v1/sessions/" + id + "/tree");
    expect(r.status).toBe(200);
    expect(r.body.path).toBe("/workspace");
    expect(r.body.entries.map((e: any) => [e.name, e.kind])).toEqual([
      ["src", "dir"],
      [".env", "file"],
      [hostile, "file"],
    ]);
    const sub = await api("GET", `/v1/sessions/${id}/tree?path=${encodeURIComponent("/workspace/src")}`);
    expect(sub.body.entries).toMatchObject([{ name: "app.ts", path: "/workspace/src/app.ts", kind: "file", size: 11 }]);
    // Outside the workspace: refused by the path policy, logged like any refusal.
    const out = await api("GET", `/v1/sessions/${id}/tree?path=/etc`);
    expect(out.status).toBe(403);
    expect(out.body.denied.rule).toMatch(/^path-/);
    expect((await api("GET", `/v1/sessions/${id}/tree?path=nope`)).status).toBe(404);
  });
});
