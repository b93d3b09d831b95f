import type { CDPSession, KeyInput, Page } from "@cloudflare/puppeteer";
import { ToolError } from "../result";
import type { BrowserArgs } from "./params";
import { nodeOfRef, type SnapshotRefs } from "./snapshot";
import { LIMITS } from "../../limits";

/** How long a click or key press is given to start a navigation before the action returns. */
const NAVIGATION_GRACE_MS = LIMITS.browserNavigationGraceMs;
const NAVIGATION_TIMEOUT_MS = LIMITS.browserNavigationMs;

/** The centre of a node in viewport coordinates, after scrolling it into view. */
async function centre(cdp: CDPSession, backendNodeId: number): Promise<{ x: number; y: number }> {
  await cdp.send("DOM.scrollIntoViewIfNeeded", { backendNodeId });
  const { model } = await cdp.send("DOM.getBoxModel", { backendNodeId });
  const q = model.content;
  return { x: (q[0]! + q[2]! + q[4]! + q[6]!) / 4, y: (q[1]! + q[3]! + q[5]! + q[7]!) / 4 };
}

/** Waits for a navigation the interaction started, if one starts soon. */
async function settle(page: Page, interact: () => Promise<void>): Promise<void> {
  const nav = page.waitForNavigation({ waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS }).then(
    () => true,
    () => false,
  );
  await interact();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<null>((r) => (timer = setTimeout(() => r(null), NAVIGATION_GRACE_MS)));
  await Promise.race([nav, grace]);
  clearTimeout(timer);
}

/** Performs one act on the node a ref names; refs are checked against the tab's current document. */
export async function act(page: Page, refs: SnapshotRefs | null, target: string, args: BrowserArgs): Promise<string> {
  const ref = args.element_ref;
  if (!ref) throw new ToolError('The "act" action needs element_ref (a ref such as "e3" from the latest snapshot).');
  if (!args.act_kind) throw new ToolError('The "act" action needs act_kind: click, type, press_key, hover, scroll_into_view or focus.');
  const cdp = await page.createCDPSession();
  try {
    const node = await nodeOfRef(cdp, refs, target, ref);
    const kind = args.act_kind;
    try {
      if (kind === "scroll_into_view") {
        await cdp.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: node });
      } else if (kind === "focus") {
        await cdp.send("DOM.focus", { backendNodeId: node });
      } else if (kind === "hover") {
        const { x, y } = await centre(cdp, node);
        await page.mouse.move(x, y);
      } else if (kind === "click") {
        const { x, y } = await centre(cdp, node);
        await settle(page, () => page.mouse.click(x, y));
      } else if (kind === "type") {
        if (args.text === undefined) throw new ToolError('act_kind "type" needs the text parameter.');
        await cdp.send("DOM.focus", { backendNodeId: node });
        await page.keyboard.type(args.text);
      } else {
        if (!args.key) throw new ToolError('act_kind "press_key" needs the key parameter (e.g. "Enter", "Tab", "Escape").');
        await cdp.send("DOM.focus", { backendNodeId: node });
        await settle(page, () => page.keyboard.press(args.key as KeyInput));
      }
    } catch (e) {
      if (e instanceof ToolError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      if (/Unknown key/i.test(msg))
        throw new ToolError(`Unknown key ${String(args.key).slice(0, 40)}; use key names such as "Enter", "Tab", "Escape", "ArrowDown", "a".`);
      throw new ToolError(`Could not ${kind} ${ref}: ${msg.slice(0, 200)} (the element may be hidden or gone; take a new snapshot).`);
    }
    return `${kind} on ${ref} done.`;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
