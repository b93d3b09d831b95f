import type { Page } from "@cloudflare/puppeteer";
import { PolicyDenied } from "../../policy/denied";
import { isVfsError } from "../../vfs/errors";
import { ToolError } from "../result";
import { defineTool, type Json, type ToolContext, type ToolResult } from "../types";
import { guardPage, judgeBrowserUrl } from "./guard";
import { act } from "./act";
import { browserParams, type BrowserArgs } from "./params";
import { SNAPSHOT_MAX_ELEMENTS, elementScreenshot, takeSnapshot } from "./snapshot";
import { closeBrowser, connected, hostOf, launch, renderingFailure, targetIdOf } from "./session";
import { LIMITS } from "../../limits";

/** Page HTML returned by `content` at most, in UTF-8 bytes. */
const CONTENT_MAX_BYTES = LIMITS.browserContentBytes;
const NAVIGATION_TIMEOUT_MS = LIMITS.browserNavigationMs;

function required<T>(value: T | undefined, name: string, action: string): T {
  if (value === undefined || value === "") throw new ToolError(`The "${action}" action needs the ${name} parameter.`);
  return value;
}

/** Refuses a URL before the browser is asked to load it; the page's own requests are judged in guard.ts. */
async function allowedUrl(ctx: ToolContext, url: string): Promise<string> {
  const denial = await judgeBrowserUrl(ctx.net!, url);
  if (denial) throw new PolicyDenied(denial);
  return url;
}

async function pageInfo(page: Page): Promise<{ title: string; url: string }> {
  return { title: await page.title().catch(() => ""), url: page.url() };
}

async function goto(page: Page, url: string): Promise<{ status: number | null }> {
  try {
    const res = await page.goto(url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
    return { status: res?.status() ?? null };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (/ERR_BLOCKED_BY_CLIENT/.test(msg))
      throw new ToolError(`Loading ${url.slice(0, 300)} was refused by the URL policy (it redirected to a refused address); see the session log.`);
    if (/timeout/i.test(msg))
      throw new ToolError(`${url.slice(0, 300)} did not finish loading within ${NAVIGATION_TIMEOUT_MS / 1000} s; try content or screenshot to see what loaded.`);
    throw new ToolError(`Loading ${url.slice(0, 300)} failed: ${msg.slice(0, 200)}`);
  }
}

function cutHtml(html: string): { content: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(html);
  if (bytes.length <= CONTENT_MAX_BYTES) return { content: html, truncated: false };
  const head = new TextDecoder().decode(bytes.subarray(0, CONTENT_MAX_BYTES)).replace(/\uFFFD+$/, "");
  const note = `\n\n[Truncated: showing the first ${CONTENT_MAX_BYTES.toLocaleString("en-US")} bytes of ${bytes.length.toLocaleString("en-US")}. Use snapshot or screenshot for the rest of the page.]`;
  return { content: head + note, truncated: true };
}

const ok = (message: string, fields: Record<string, Json> = {}): ToolResult => ({ success: true, message, output: message, ...fields });

async function tabsOf(ctx: ToolContext): Promise<Json[]> {
  const { browser } = await connected(ctx);
  const active = ctx.browser!.get()?.activeTarget;
  const tabs: Json[] = [];
  for (const p of await browser.pages()) {
    const id = targetIdOf(p);
    tabs.push({ target_id: id, title: await p.title().catch(() => ""), url: p.url(), active: id === active });
  }
  return tabs;
}

async function runAction(ctx: ToolContext, args: BrowserArgs): Promise<ToolResult> {
  const host = hostOf(ctx);
  const a = args.action;
  switch (a) {
    case "launch": {
      const { page, reused } = await launch(ctx);
      return ok(reused ? "The browser is already running; its tabs are kept." : "Browser launched.", { ...(await pageInfo(page)) });
    }
    case "close": {
      const closed = await closeBrowser(host);
      return ok(closed ? "Browser closed." : "No browser was running.");
    }
    case "navigate": {
      const url = await allowedUrl(ctx, required(args.url, "url", a));
      const { page } = await connected(ctx);
      host.setRefs(null);
      const { status } = await goto(page, url);
      const info = await pageInfo(page);
      return ok(`Navigated to ${info.url}${status ? ` (HTTP ${status})` : ""}.`, { ...info, ...(status ? { status } : {}) });
    }
    case "open": {
      const url = await allowedUrl(ctx, required(args.url, "url", a));
      const { browser } = await connected(ctx);
      const page = await browser.newPage().catch((e: unknown) => {
        throw renderingFailure(e, "open a tab");
      });
      host.set({ sessionId: host.get()!.sessionId, activeTarget: targetIdOf(page) });
      await guardPage(page, ctx.net!, (d, u) => host.logDenial(d, u));
      await goto(page, url);
      const info = await pageInfo(page);
      return ok(`Opened ${info.url} in a new tab (target_id ${targetIdOf(page)}); it is now the active tab.`, { ...info, target_id: targetIdOf(page) });
    }
    case "tabs": {
      const tabs = await tabsOf(ctx);
      return ok(`${tabs.length} tab${tabs.length === 1 ? "" : "s"} open.`, { tabs });
    }
    case "focus":
    case "close_tab": {
      const id = required(args.target_id, "target_id", a);
      const { browser } = await connected(ctx);
      const pages = await browser.pages();
      const page = pages.find((p) => targetIdOf(p) === id);
      if (!page) throw new ToolError(`No tab has target_id ${id.slice(0, 100)}; call action "tabs" to list them.`);
      if (a === "focus") {
        host.set({ sessionId: host.get()!.sessionId, activeTarget: id });
        await page.bringToFront().catch(() => undefined);
        return ok(`Switched to tab ${id}.`, { ...(await pageInfo(page)) });
      }
      await page.close();
      const rest = pages.filter((p) => p !== page);
      const state = host.get()!;
      if (state.activeTarget === id && rest[0]) host.set({ ...state, activeTarget: targetIdOf(rest[0]) });
      return ok(`Closed tab ${id}; ${rest.length} tab${rest.length === 1 ? "" : "s"} left.`);
    }
    case "snapshot": {
      const { page } = await connected(ctx);
      const { elements, refs, omitted } = await takeSnapshot(page, targetIdOf(page));
      host.setRefs(refs);
      const lines = elements.map((e) => {
        const o = e as Record<string, string>;
        return `[${o["ref_id"]}] ${o["role"]}${o["name"] ? ` "${o["name"]}"` : ""}${o["value"] ? ` value="${o["value"]}"` : ""}`;
      });
      const notice = omitted ? `\n[${omitted} more elements not shown: the snapshot lists at most ${SNAPSHOT_MAX_ELEMENTS}.]` : "";
      const info = await pageInfo(page);
      return { ...ok(`Snapshot of ${info.url}: ${elements.length} elements.`, { ...info, elements }), output: lines.join("\n") + notice };
    }
    case "act": {
      const { page } = await connected(ctx);
      const message = await act(page, host.refs(), targetIdOf(page), args);
      return ok(message, { ...(await pageInfo(page)) });
    }
    case "evaluate": {
      if (ctx.workerEnv?.TOOLSHED_BROWSER_EVALUATE !== "1") {
        throw new ToolError(
          "evaluate is disabled: the operator has not set TOOLSHED_BROWSER_EVALUATE=1. Use snapshot, content or screenshot to read the page, and act to interact with it.",
        );
      }
      const script = required(args.script, "script", a);
      const { page } = await connected(ctx);
      let value: unknown;
      try {
        value = await page.evaluate(script);
      } catch (e) {
        throw new ToolError(`The script threw: ${(e instanceof Error ? e.message : String(e)).slice(0, 500)}`);
      }
      const eval_result = (value === undefined ? null : JSON.parse(JSON.stringify(value) ?? "null")) as Json;
      return { ...ok("Script evaluated.", { ...(await pageInfo(page)), eval_result }), output: JSON.stringify(eval_result) };
    }
    case "content": {
      const { page } = await connected(ctx);
      const { content, truncated } = cutHtml(await page.content());
      return {
        ...ok(`HTML of ${page.url()}${truncated ? " (truncated)" : ""}.`, { ...(await pageInfo(page)), content, ...(truncated ? { truncated: true } : {}) }),
        output: content,
      };
    }
    case "screenshot": {
      const { page } = await connected(ctx);
      const png = args.element_ref
        ? await elementScreenshot(page, host.refs(), targetIdOf(page), args.element_ref)
        : await page.screenshot({ type: "png", fullPage: args.full_page });
      const path = `${ctx.cwd}/screenshots/browser-${new Date().toISOString().replace(/[:.]/g, "-")}.png`;
      ctx.fs.writeFile(path, new Uint8Array(png), { createParents: true });
      return ok(`Screenshot of ${page.url()} saved to ${path}.`, { ...(await pageInfo(page)), screenshot_path: path });
    }
  }
  throw new ToolError(`Unknown browser action ${String(a)}.`);
}

/** Chromium's own failures (a closed target, a lost connection) read as tool errors, never as internal ones. */
async function run(ctx: ToolContext, args: BrowserArgs): Promise<ToolResult> {
  try {
    return await runAction(ctx, args);
  } catch (e) {
    if (e instanceof ToolError || e instanceof PolicyDenied || isVfsError(e)) throw e;
    throw renderingFailure(e, `finish the "${args.action}" action`);
  } finally {
    const host = ctx.browser;
    await host?.idle?.(host.get() !== null);
  }
}

export const browser = defineTool({
  name: "browser",
  description:
    "Browser automation via headless Chrome. Supports navigation, element interaction, screenshots, and page observation using an accessibility-tree based reference system.",
  params: browserParams,
  readOnly: false,
  run,
});
