import type { Page } from "@cloudflare/puppeteer";
import type { NetContext } from "../../net/context";
import type { Denial } from "../../policy/denied";
import { judgeBrowserUrl } from "./guard";

/** The page-side function a guarded WebSocket asks before it connects. */
const JUDGE = "__toolshedJudgeWebSocket";

/**
 * Installed in every document before its own scripts (Page.addScriptToEvaluateOnNewDocument):
 * `WebSocket` becomes a stand-in with the same API that connects only after the host's URL
 * judge allowed the URL. The Fetch domain that guards every other request never sees WebSocket
 * handshakes, so without this a page could open `ws://169.254.169.254/`. Plain JavaScript in a
 * string, so the bundler cannot rewrite what runs in the page.
 */
const PAGE_SCRIPT = `(() => {
  const Native = window.WebSocket;
  if (!Native || Native.__toolshedGuarded) return;
  const judge = window.${JUDGE};
  const TYPES = ["open", "message", "error", "close"];
  class WebSocket extends EventTarget {
    #native = null;
    #binaryType = "blob";
    constructor(url, protocols) {
      super();
      const target = new URL(url, location.href);
      if (target.protocol === "http:") target.protocol = "ws:";
      if (target.protocol === "https:") target.protocol = "wss:";
      if (target.protocol !== "ws:" && target.protocol !== "wss:") {
        throw new DOMException("Failed to construct 'WebSocket': The URL's scheme must be either 'http', 'https', 'ws', or 'wss'. '" + target.protocol + "' is not allowed.", "SyntaxError");
      }
      if (target.hash) throw new DOMException("Failed to construct 'WebSocket': The URL contains a fragment identifier ('" + target.hash + "'). Fragment identifiers are not allowed in WebSocket URLs.", "SyntaxError");
      Object.defineProperty(this, "url", { value: target.href, enumerable: true });
      this.readyState = 0;
      this.protocol = "";
      this.extensions = "";
      this.bufferedAmount = 0;
      for (const type of TYPES) {
        this["on" + type] = null;
        this.addEventListener(type, (e) => { const h = this["on" + type]; if (typeof h === "function") h.call(this, e); });
      }
      Promise.resolve(judge ? judge(this.url) : false).then((allowed) => {
        if (this.readyState === 3) return;
        if (!allowed) return this.#fail();
        const ws = new Native(this.url, protocols);
        ws.binaryType = this.#binaryType;
        this.#native = ws;
        ws.onopen = () => { this.readyState = 1; this.protocol = ws.protocol; this.extensions = ws.extensions; this.dispatchEvent(new Event("open")); };
        ws.onmessage = (e) => this.dispatchEvent(new MessageEvent("message", { data: e.data, origin: e.origin }));
        ws.onerror = () => this.dispatchEvent(new Event("error"));
        ws.onclose = (e) => { this.readyState = 3; this.dispatchEvent(new CloseEvent("close", { code: e.code, reason: e.reason, wasClean: e.wasClean })); };
      }, () => this.#fail());
    }
    #fail() {
      this.readyState = 3;
      this.dispatchEvent(new Event("error"));
      this.dispatchEvent(new CloseEvent("close", { code: 1006, reason: "", wasClean: false }));
    }
    get binaryType() { return this.#binaryType; }
    set binaryType(v) { this.#binaryType = v; if (this.#native) this.#native.binaryType = v; }
    send(data) {
      if (this.readyState === 0) throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", "InvalidStateError");
      if (this.#native) { this.#native.send(data); this.bufferedAmount = this.#native.bufferedAmount; }
    }
    close(code, reason) {
      if (this.#native) return this.#native.close(code, reason);
      if (this.readyState === 3) return;
      this.readyState = 3;
      setTimeout(() => this.dispatchEvent(new CloseEvent("close", { code: 1006, reason: "", wasClean: false })), 0);
    }
  }
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach((name, value) => {
    Object.defineProperty(WebSocket, name, { value });
    Object.defineProperty(WebSocket.prototype, name, { value });
  });
  Object.defineProperty(WebSocket, "__toolshedGuarded", { value: true });
  window.WebSocket = WebSocket;
})();`;

/**
 * Puts the page's WebSockets under the URL policy: `ws:`/`wss:` are judged as `http:`/`https:`
 * (the same host, port and rules), a refused one fails as an unreachable server does (error,
 * then close 1006) and is reported.
 */
export async function guardWebSockets(page: Page, net: NetContext, onDenied: (d: Denial, url: string) => void): Promise<void> {
  await page
    .exposeFunction(JUDGE, async (url: string) => {
      const denial = await judgeBrowserUrl(net, String(url).replace(/^ws(s?):/i, "http$1:"));
      if (denial) onDenied(denial, String(url));
      return denial === null;
    })
    // Already exposed by an earlier connection to this tab: without a judge that answers, the
    // stand-in never connects (it fails closed), so the tab is still guarded.
    .catch(() => undefined);
  await page.evaluateOnNewDocument(PAGE_SCRIPT);
}
