// The browser tool against real Chromium (Debian's, behind the local Browser Rendering binding)
// on pages from the allowed test site (test/net/browser-pages.mjs). One browser for the whole
// file: launches are slow on this machine.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { browser } from "../../src/tools/browser/browser";
import { errorResult } from "../../src/tools/result";
import type { ToolContext } from "../../src/tools/types";
import { sessionStub } from "../../src/service";
import { ALICE, api, newSession, tool } from "../helpers";

const { site } = inject("netPorts");
const SITE = `http://127.0.0.1:${site}`;
const SLOW = 180_000;

async function counts(): Promise<{ site: Record<string, number>; canary: number; canaryPaths: string[] }> {
  return (await fetch(`${SITE}/__counts`)).json();
}

async function fetchBytes(path: string): Promise<Uint8Array> {
  const res = await exports.default.fetch(`http://toolshed.test${path}`, { headers: { authorization: `Bearer ${ALICE}` } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** PNG width and height from its IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe("IHDR");
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

describe("browser without Browser Rendering", () => {
  it("answers not supported when the operator has not bound BROWSER", async () => {
    const ctx = { sessionId: "s", cwd: "/workspace", env: {}, setStatus() {}, browser: undefined } as unknown as ToolContext;
    const r = errorResult(
      await Promise.resolve()
        .then(() => browser.run(ctx, { action: "launch", full_page: false }))
        .then(
          () => null,
          (e: unknown) => e,
        ),
    );
    expect(r.success).toBe(false);
    expect(r.error).toContain("not supported: the operator has not bound Browser Rendering");
  });
});

describe("browser", () => {
  let id = "";
  beforeAll(async () => {
    id = await newSession();
    const r = await tool(id, "browser", { action: "launch" });
    expect(r.success, r.error).toBe(true);
  }, SLOW);
  afterAll(async () => {
    if (id) await tool(id, "browser", { action: "close" });
  }, SLOW);

  it("refuses every action but launch before a browser runs, and validates actions", async () => {
    const other = await newSession();
    const r = await tool(other, "browser", { action: "content" });
    expect(r.success).toBe(false);
    expect(r.error).toContain('action "launch" first');
    const bad = await api("POST", `/v1/sessions/${other}/tools/browser`, { body: { action: "fly" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("action");
  });

  it(
    "navigates to a local page and reads its HTML, the browser surviving between calls",
    async () => {
      const nav = await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/home.html` });
      expect(nav.success, nav.error).toBe(true);
      expect(nav.title).toBe("Kelp Home");
      expect(nav.url).toBe(`${SITE}/browser/home.html`);
      const content = await tool(id, "browser", { action: "content" });
      expect(content.success).toBe(true);
      expect(content.content).toContain("BROWSER_HOME_MARKER");
      expect(content.title).toBe("Kelp Home");
      const again = await tool(id, "browser", { action: "launch" });
      expect(again.message).toContain("already running");
      expect(again.url).toBe(`${SITE}/browser/home.html`);
    },
    SLOW,
  );

  it(
    "blocks the metadata and a loopback request a page makes, logs both, and loads the rest",
    async () => {
      const before = await counts();
      const nav = await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/leaky.html` });
      expect(nav.success, nav.error).toBe(true);
      expect(nav.title).toBe("Leaky Page (allowed image loaded)");
      const content = await tool(id, "browser", { action: "content" });
      expect(content.content).toContain("LEAKY_PAGE_LOADED");
      const after = await counts();
      expect(after.canary).toBe(before.canary);
      expect(after.site["/browser/pixel.svg"]).toBeGreaterThan(before.site["/browser/pixel.svg"] ?? 0);
      const log = await api("GET", `/v1/sessions/${id}/log`);
      const denials = (log.body.calls as Array<{ tool: string; outcome: string; denied?: { rule: string }; detail?: string }>).filter(
        (c) => c.tool === "browser" && c.outcome === "denied",
      );
      const byUrl = (part: string) => denials.find((d) => d.detail?.includes(part));
      expect(byUrl("169.254.169.254")?.denied?.rule).toBe("url.metadata");
      expect(byUrl("/browser-leak.png")?.denied?.rule).toBe("url.private_address");
    },
    SLOW,
  );

  it(
    "judges a page's WebSockets: the allowed one talks, metadata and loopback ones fail and are logged",
    async () => {
      const before = await counts();
      const nav = await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/ws.html` });
      expect(nav.success, nav.error).toBe(true);
      let title = "";
      for (let i = 0; i < 50 && !/allowed=\S+ metadata=\S+ canary=\S+/.test(title); i++) {
        await new Promise((r) => setTimeout(r, 100));
        title = (await tool(id, "browser", { action: "tabs" })).tabs.find((t: { active: boolean }) => t.active).title;
      }
      expect(title).toBe("allowed=message:WS_HELLO metadata=closed:1006 canary=closed:1006");
      const after = await counts();
      expect(after.canary).toBe(before.canary);
      expect(after.site["/browser/ws"]).toBe((before.site["/browser/ws"] ?? 0) + 1);
      const log = await api("GET", `/v1/sessions/${id}/log`);
      const denials = (log.body.calls as Array<{ tool: string; outcome: string; denied?: { rule: string }; detail?: string }>).filter(
        (c) => c.tool === "browser" && c.outcome === "denied",
      );
      expect(denials.find((d) => d.detail?.includes("ws://169.254.169.254/socket"))?.denied?.rule).toBe("url.metadata");
      expect(denials.find((d) => d.detail?.includes("/ws-leak"))?.denied?.rule).toBe("url.private_address");
    },
    SLOW,
  );

  it(
    "refuses navigating to a private or metadata address before loading it",
    async () => {
      for (const [url, rule] of [
        ["http://169.254.169.254/latest/meta-data/", "url.metadata"],
        ["http://10.0.0.1/", "url.private_address"],
        ["file:///etc/passwd", "url.scheme"],
      ]) {
        const r = await tool(id, "browser", { action: "navigate", url });
        expect(r.success).toBe(false);
        expect(r.denied?.rule).toBe(rule);
      }
    },
    SLOW,
  );

  it(
    "opens, lists, focuses and closes tabs",
    async () => {
      const opened = await tool(id, "browser", { action: "open", url: `${SITE}/browser/second.html` });
      expect(opened.success, opened.error).toBe(true);
      expect(opened.title).toBe("Second Page");
      const tabs = await tool(id, "browser", { action: "tabs" });
      expect(tabs.tabs.length).toBeGreaterThanOrEqual(2);
      const active = tabs.tabs.filter((t: { active: boolean }) => t.active);
      expect(active).toHaveLength(1);
      expect(active[0].target_id).toBe(opened.target_id);
      const first = tabs.tabs.find((t: { target_id: string }) => t.target_id !== opened.target_id);
      const focus = await tool(id, "browser", { action: "focus", target_id: first.target_id });
      expect(focus.success).toBe(true);
      expect((await tool(id, "browser", { action: "content" })).content).not.toContain("SECOND_PAGE_MARKER");
      const closed = await tool(id, "browser", { action: "close_tab", target_id: opened.target_id });
      expect(closed.success).toBe(true);
      const left = await tool(id, "browser", { action: "tabs" });
      expect(left.tabs.map((t: { target_id: string }) => t.target_id)).not.toContain(opened.target_id);
      const unknown = await tool(id, "browser", { action: "focus", target_id: "nope" });
      expect(unknown.error).toContain('"tabs"');
    },
    SLOW,
  );

  it(
    "cuts content above 100 KB with a notice",
    async () => {
      await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/big.html` });
      const r = await tool(id, "browser", { action: "content" });
      expect(r.truncated).toBe(true);
      expect(r.content).toContain("[Truncated: showing the first 102,400 bytes");
      expect(new TextEncoder().encode(r.content).length).toBeLessThan(102_400 + 300);
    },
    SLOW,
  );

  it(
    "saves a viewport screenshot as a PNG in the workspace",
    async () => {
      await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/home.html` });
      const r = await tool(id, "browser", { action: "screenshot" });
      expect(r.success, r.error).toBe(true);
      expect(r.screenshot_path).toMatch(/^\/workspace\/screenshots\/browser-.*\.png$/);
      const rel = r.screenshot_path.slice("/workspace/".length);
      const raw = await fetchBytes(`/v1/sessions/${id}/files/${rel}`);
      // Puppeteer's default viewport, which the tool keeps.
      expect(pngSize(raw)).toEqual({ width: 800, height: 600 });
    },
    SLOW,
  );

  it(
    "fills a form by snapshot refs, submits it, and refuses the old refs on the next page",
    async () => {
      await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/form.html` });
      const snap = await tool(id, "browser", { action: "snapshot" });
      expect(snap.success, snap.error).toBe(true);
      type El = { ref_id: string; role: string; name: string };
      const box = (snap.elements as El[]).find((e) => e.role === "textbox" && e.name === "Your name");
      const send = (snap.elements as El[]).find((e) => e.role === "button" && e.name === "Send greeting");
      expect(box?.ref_id).toMatch(/^e\d+$/);
      expect(snap.output).toContain(`[${send!.ref_id}] button "Send greeting"`);
      const typed = await tool(id, "browser", { action: "act", act_kind: "type", element_ref: box!.ref_id, text: "Ada Lovelace" });
      expect(typed.success, typed.error).toBe(true);
      const clicked = await tool(id, "browser", { action: "act", act_kind: "click", element_ref: send!.ref_id });
      expect(clicked.success, clicked.error).toBe(true);
      const next = await tool(id, "browser", { action: "content" });
      expect(next.url).toContain("/echo?name=Ada+Lovelace");
      expect(next.content).toContain("name=Ada+Lovelace");
      const stale = await tool(id, "browser", { action: "act", act_kind: "click", element_ref: send!.ref_id });
      expect(stale.success).toBe(false);
      expect(stale.error).toContain("new snapshot");
      const unknown = await tool(id, "browser", { action: "act", act_kind: "click", element_ref: "e9999" });
      expect(unknown.error).toContain("new snapshot");
    },
    SLOW,
  );

  it(
    "reconnects to the same browser with the session id kept in the Durable Object",
    async () => {
      await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/home.html` });
      const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`alice/${id}`));
      // Drop the live connection as an evicted instance would lose it; SQLite keeps the id.
      await runInDurableObject(stub, async (instance) => {
        const live = (instance as unknown as { browserLive: { browser?: { disconnect(): Promise<void> }; sessionId?: string } }).browserLive;
        await live.browser?.disconnect();
        live.browser = undefined;
        live.sessionId = undefined;
      });
      const r = await tool(id, "browser", { action: "content" });
      expect(r.success, r.error).toBe(true);
      expect(r.content).toContain("BROWSER_HOME_MARKER");
      const leaky = await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/leaky.html` });
      expect(leaky.title).toBe("Leaky Page (allowed image loaded)");
    },
    SLOW,
  );

  it(
    "gives each session its own browser: neither sees the other's tabs",
    async () => {
      const other = await newSession();
      try {
        expect((await tool(other, "browser", { action: "launch" })).success).toBe(true);
        await tool(other, "browser", { action: "navigate", url: `${SITE}/browser/second.html` });
        const mine = (await tool(id, "browser", { action: "tabs" })).tabs as Array<{ target_id: string; url: string }>;
        const theirs = (await tool(other, "browser", { action: "tabs" })).tabs as Array<{ target_id: string; url: string }>;
        expect(theirs.map((t) => t.url)).toEqual([`${SITE}/browser/second.html`]);
        expect(mine.map((t) => t.url)).not.toContain(`${SITE}/browser/second.html`);
        const ids = new Set(mine.map((t) => t.target_id));
        expect(theirs.filter((t) => ids.has(t.target_id))).toEqual([]);
        const cross = await tool(other, "browser", { action: "focus", target_id: mine[0]!.target_id });
        expect(cross.success).toBe(false);
      } finally {
        await tool(other, "browser", { action: "close" });
      }
    },
    SLOW,
  );

  it("refuses evaluate unless the operator enabled it, naming the setting", async () => {
    const r = await tool(id, "browser", { action: "evaluate", script: "document.title" });
    expect(r.success).toBe(false);
    expect(r.error).toContain("TOOLSHED_BROWSER_EVALUATE=1");
  });

  it(
    "saves a screenshot of one element by its ref, the size of the element",
    async () => {
      await tool(id, "browser", { action: "navigate", url: `${SITE}/browser/home.html` });
      const snap = await tool(id, "browser", { action: "snapshot" });
      const badge = (snap.elements as Array<{ ref_id: string; role: string; name: string }>).find((e) => e.name === "Kelp badge");
      expect(badge, snap.output).toBeDefined();
      const r = await tool(id, "browser", { action: "screenshot", element_ref: badge!.ref_id });
      expect(r.success, r.error).toBe(true);
      const raw = await fetchBytes(`/v1/sessions/${id}/files/${r.screenshot_path.slice("/workspace/".length)}`);
      expect(pngSize(raw)).toEqual({ width: 120, height: 40 });
    },
    SLOW,
  );

  it(
    "evaluates a script when the operator enabled it",
    async () => {
      const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`alice/${id}`));
      // The operator's setting, given to this one Durable Object instance for the test.
      await runInDurableObject(stub, async (instance) => {
        const o = instance as unknown as { env: Env };
        o.env = { ...o.env, TOOLSHED_BROWSER_EVALUATE: "1" };
      });
      const r = await tool(id, "browser", { action: "evaluate", script: "({ title: document.title, n: 6 * 7 })" });
      expect(r.success, r.error).toBe(true);
      expect(r.eval_result).toEqual({ title: "Kelp Home", n: 42 });
      const thrown = await tool(id, "browser", { action: "evaluate", script: "null.x" });
      expect(thrown.error).toContain("The script threw");
      await runInDurableObject(stub, async (instance) => {
        const o = instance as unknown as { env: Env };
        o.env = { ...o.env, TOOLSHED_BROWSER_EVALUATE: undefined };
      });
    },
    SLOW,
  );
});

describe("browser idle close", () => {
  const idleJobs = (id: string) =>
    runInDurableObject(sessionStub(env, "alice", id), (_o, state) =>
      state.storage.sql
        .exec<{ due: number }>("SELECT due FROM alarm_jobs WHERE kind = 'browser-idle'")
        .toArray()
        .map((r) => r.due),
    );

  it(
    "closes a browser nobody used for TOOLSHED_BROWSER_IDLE_SECONDS (default 300 s), and close cancels it",
    async () => {
      const id = await newSession();
      const before = Date.now();
      expect((await tool(id, "browser", { action: "launch" })).success).toBe(true);
      const [due] = await idleJobs(id);
      expect(due).toBeGreaterThanOrEqual(before + 300_000);
      expect(due).toBeLessThan(Date.now() + 301_000);

      // Each call moves the close later; the alarm before it is due leaves the browser alone.
      await runDurableObjectAlarm(sessionStub(env, "alice", id));
      expect((await tool(id, "browser", { action: "tabs" })).success).toBe(true);

      // Due now: the alarm closes it, and the next call says there is no browser.
      await runInDurableObject(sessionStub(env, "alice", id), (_o, state) => {
        state.storage.sql.exec("UPDATE alarm_jobs SET due = 0 WHERE kind = 'browser-idle'");
      });
      await runDurableObjectAlarm(sessionStub(env, "alice", id));
      const after = await tool(id, "browser", { action: "tabs" });
      expect(after.success).toBe(false);
      expect(after.error).toContain('action "launch" first');
      expect(await idleJobs(id)).toEqual([]);

      // An explicit close cancels the idle close.
      expect((await tool(id, "browser", { action: "launch" })).success).toBe(true);
      expect(await idleJobs(id)).toHaveLength(1);
      expect((await tool(id, "browser", { action: "close" })).success).toBe(true);
      expect(await idleJobs(id)).toEqual([]);
    },
    SLOW,
  );
});
