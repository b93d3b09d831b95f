import puppeteer, { type Browser, type Page } from "@cloudflare/puppeteer";
import { ToolError } from "../result";
import type { ToolContext } from "../types";
import { guardPage } from "./guard";
import type { Denial } from "../../policy/denied";
import type { BrowserHost } from "./host";
import { LIMITS } from "../../limits";

export type { BrowserHost } from "./host";

/** Browser Rendering closes a browser nobody has used for this long (its maximum, 10 minutes). */
const BROWSER_IDLE_MS = LIMITS.browserIdleMs;

/** The alarm job (src/session/alarms.ts) that closes a session's idle browser. */
export const BROWSER_IDLE_JOB = "browser-idle";

/**
 * Seconds without a browser call after which the session closes its browser itself
 * (`TOOLSHED_BROWSER_IDLE_SECONDS`, default 300, at most Browser Rendering's 600): a browser
 * left open bills its time and holds one of the account's few concurrent browsers.
 */
export function browserIdleMs(env: { TOOLSHED_BROWSER_IDLE_SECONDS?: string }): number {
  const n = Number(env.TOOLSHED_BROWSER_IDLE_SECONDS ?? 300);
  return Number.isFinite(n) && n > 0 ? Math.min(n, BROWSER_IDLE_MS / 1000) * 1000 : 300_000;
}

const NOT_BOUND = 'not supported: the operator has not bound Browser Rendering (wrangler.toml `[browser] binding = "BROWSER"`), so this deployment has no browser tool.';

export function hostOf(ctx: ToolContext): BrowserHost & { binding: Fetcher } {
  const host = ctx.browser;
  if (!host?.binding) throw new ToolError(NOT_BOUND);
  return host as BrowserHost & { binding: Fetcher };
}

export const targetIdOf = (page: Page): string => (page.target() as unknown as { _targetId: string })._targetId;

/** Browser Rendering's own failures (limits, a dead browser) in words the agent can act on. */
export function renderingFailure(e: unknown, doing: string): ToolError {
  const msg = e instanceof Error ? e.message : String(e);
  if (/429|too many|rate limit/i.test(msg)) {
    return new ToolError(
      `Browser Rendering refused to ${doing}: the account's browser limit or rate limit is reached. Wait a minute and retry, or close browsers you no longer need.`,
    );
  }
  return new ToolError(`Browser Rendering could not ${doing} (${msg.slice(0, 200)}). Retry with action "launch".`);
}

/** Guards every tab of a connection, and every tab opened later (popups, window.open). */
async function guardAll(host: BrowserHost, ctx: ToolContext, browser: Browser): Promise<void> {
  const net = ctx.net!;
  const onDenied = (d: Denial, url: string) => host.logDenial(d, url);
  for (const page of await browser.pages()) await guardPage(page, net, onDenied);
  browser.on("targetcreated", (t) => {
    void t
      .page()
      .then((p) => p && guardPage(p, net, onDenied))
      .catch(() => undefined);
  });
}

/** Starts the session's browser, or answers that it already runs. */
export async function launch(ctx: ToolContext): Promise<{ browser: Browser; page: Page; reused: boolean }> {
  const host = hostOf(ctx);
  if (host.get()) {
    const open = await connected(ctx).catch(() => null);
    if (open) return { ...open, reused: true };
  }
  let browser: Browser;
  try {
    browser = await puppeteer.launch(host.binding, { keep_alive: BROWSER_IDLE_MS });
  } catch (e) {
    throw renderingFailure(e, "start a browser");
  }
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  host.live.browser = browser;
  host.live.sessionId = browser.sessionId();
  host.set({ sessionId: browser.sessionId(), activeTarget: targetIdOf(page) });
  await guardAll(host, ctx, browser);
  return { browser, page, reused: false };
}

/** The session's running browser and its active tab; reconnects when this instance has no connection. */
export async function connected(ctx: ToolContext): Promise<{ browser: Browser; page: Page }> {
  const host = hostOf(ctx);
  const state = host.get();
  if (!state) throw new ToolError('No browser is running in this session; call the browser tool with action "launch" first.');
  let browser = host.live.sessionId === state.sessionId && host.live.browser?.connected ? host.live.browser : undefined;
  if (!browser) {
    try {
      browser = await puppeteer.connect(host.binding, state.sessionId);
    } catch {
      forget(host);
      throw new ToolError('The browser of this session has ended (idle for 10 minutes, or it crashed); call action "launch" to start a new one.');
    }
    host.live.browser = browser;
    host.live.sessionId = state.sessionId;
    await guardAll(host, ctx, browser);
  }
  const pages = await browser.pages();
  const page = pages.find((p) => targetIdOf(p) === state.activeTarget) ?? pages[0];
  if (!page) throw new ToolError('The browser has no open tab; use action "open" with a url.');
  if (targetIdOf(page) !== state.activeTarget) host.set({ ...state, activeTarget: targetIdOf(page) });
  return { browser, page };
}

function forget(host: BrowserHost): void {
  host.set(null);
  host.setRefs(null);
  host.live.browser = undefined;
  host.live.sessionId = undefined;
}

/** Shuts the session's browser down and forgets it. */
export async function closeBrowser(host: BrowserHost): Promise<boolean> {
  const state = host.get();
  let browser = host.live.browser;
  forget(host);
  if (!state || !host.binding) return false;
  try {
    browser ??= await puppeteer.connect(host.binding, state.sessionId);
    await browser.close();
  } catch {
    /* already gone */
  }
  return true;
}
