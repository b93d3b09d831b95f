import type { Browser } from "@cloudflare/puppeteer";
import type { Denial } from "../../policy/denied";
import type { SnapshotRefs } from "./snapshot";

// What a tool context carries for the browser (src/tools/types.ts): a leaf, so the shared
// tool types do not import the browser's code.

/**
 * What the session keeps for its one browser: the Browser Rendering session id and the active
 * tab in the Durable Object's SQLite (they survive eviction), the live connection in memory.
 */
export interface BrowserHost {
  binding?: Fetcher;
  get(): { sessionId: string; activeTarget: string } | null;
  set(state: { sessionId: string; activeTarget: string } | null): void;
  /** The refs of the latest snapshot (backend DOM node ids), kept in SQLite so they survive a reconnect. */
  refs(): SnapshotRefs | null;
  setRefs(refs: SnapshotRefs | null): void;
  /** Records a request the page made that the URL policy refused, in the session log. */
  logDenial(denial: Denial, url: string): void;
  /** The connection of this Durable Object instance, reused while it lives. */
  live: { browser?: Browser; sessionId?: string };
  /** After each call: (re)arms the idle close while a browser runs, cancels it when none does. */
  idle?(running: boolean): Promise<void>;
}
