import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { Json } from "../result";
import { ToolError } from "../result";

/** Elements a snapshot lists at most; the rest are counted in a notice. */
export const SNAPSHOT_MAX_ELEMENTS = 400;

/** Roles that only wrap or repeat text: left out to keep snapshots compact. */
const DULL_ROLES = new Set([
  "generic",
  "none",
  "presentation",
  "InlineTextBox",
  "LineBreak",
  "StaticText",
  "RootWebArea",
  "paragraph",
  "group",
  "Section",
  "LayoutTable",
  "LayoutTableRow",
  "LayoutTableCell",
]);

/** The refs of the latest snapshot: which tab and document they belong to, backend node id per ref. */
export interface SnapshotRefs {
  target: string;
  loaderId: string;
  nodes: number[];
}

interface AXValue {
  value?: unknown;
}
interface AXNode {
  ignored?: boolean;
  role?: AXValue;
  name?: AXValue;
  description?: AXValue;
  value?: AXValue;
  backendDOMNodeId?: number;
}

const text = (v: AXValue | undefined): string => (v?.value === undefined || v.value === null ? "" : String(v.value));

/** The loader of the tab's main document: it changes on every navigation, which makes refs stale. */
async function documentLoader(cdp: CDPSession): Promise<string> {
  const { frameTree } = await cdp.send("Page.getFrameTree");
  return frameTree.frame.loaderId;
}

/** The accessibility tree's interesting nodes, numbered e1.. in document order. */
export async function takeSnapshot(page: Page, target: string): Promise<{ elements: Json[]; refs: SnapshotRefs; omitted: number }> {
  const cdp = await page.createCDPSession();
  try {
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as unknown as { nodes: AXNode[] };
    const elements: Json[] = [];
    const ids: number[] = [];
    let omitted = 0;
    for (const n of nodes) {
      const role = text(n.role);
      if (n.ignored || !n.backendDOMNodeId || DULL_ROLES.has(role)) continue;
      const name = text(n.name);
      if (!name && !["textbox", "button", "link", "checkbox", "radio", "combobox", "searchbox", "slider", "switch", "menuitem", "tab"].includes(role)) continue;
      if (elements.length >= SNAPSHOT_MAX_ELEMENTS) {
        omitted++;
        continue;
      }
      ids.push(n.backendDOMNodeId);
      elements.push({ ref_id: `e${ids.length}`, role, name, description: text(n.description), value: text(n.value) });
    }
    return { elements, refs: { target, loaderId: await documentLoader(cdp), nodes: ids }, omitted };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

const STALE = 'Take a new snapshot (action "snapshot") and use its refs.';

/** The backend node of a ref, refused when the ref is unknown or the tab has moved on since the snapshot. */
export async function nodeOfRef(cdp: CDPSession, refs: SnapshotRefs | null, target: string, ref: string): Promise<number> {
  const m = /^e(\d+)$/.exec(ref);
  if (!refs || refs.target !== target) throw new ToolError(`There is no snapshot of this tab, so ${ref.slice(0, 40)} means nothing yet. ${STALE}`);
  const node = m ? refs.nodes[Number(m[1]) - 1] : undefined;
  if (node === undefined) throw new ToolError(`${ref.slice(0, 40)} is not a ref of the latest snapshot (it has e1..e${refs.nodes.length}). ${STALE}`);
  if ((await documentLoader(cdp)) !== refs.loaderId) throw new ToolError(`The page has changed (navigated) since the snapshot, so ${ref} is stale. ${STALE}`);
  return node;
}

/** A PNG of one element of the latest snapshot, clipped to its border box (document coordinates). */
export async function elementScreenshot(page: Page, refs: SnapshotRefs | null, target: string, ref: string): Promise<Uint8Array> {
  const cdp = await page.createCDPSession();
  try {
    const node = await nodeOfRef(cdp, refs, target, ref);
    await cdp.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: node });
    const { model } = await cdp.send("DOM.getBoxModel", { backendNodeId: node });
    const { cssVisualViewport: v } = await cdp.send("Page.getLayoutMetrics");
    const xs = [model.border[0]!, model.border[2]!, model.border[4]!, model.border[6]!];
    const ys = [model.border[1]!, model.border[3]!, model.border[5]!, model.border[7]!];
    const x = Math.min(...xs) + v.pageX;
    const y = Math.min(...ys) + v.pageY;
    const width = Math.max(...xs) - Math.min(...xs);
    const height = Math.max(...ys) - Math.min(...ys);
    if (width < 1 || height < 1) throw new ToolError(`${ref} has no visible area to capture; take a screenshot of the page instead.`);
    const { data } = await cdp.send("Page.captureScreenshot", { format: "png", clip: { x, y, width, height, scale: 1 }, captureBeyondViewport: true });
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
