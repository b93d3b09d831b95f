import type { HTTPRequest, Page } from "@cloudflare/puppeteer";
import type { NetContext } from "../../net/context";
import { PolicyDenied, type Denial } from "../../policy/denied";
import { judgeUrl } from "../../policy/urls";
import { guardWebSockets } from "./websocket-guard";

/** Schemes a page uses without reaching the network; everything else goes to the URL judge. */
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

/** Asks the one URL judge about one URL; a refusal comes back as its denial. */
export async function judgeBrowserUrl(net: NetContext, url: string): Promise<Denial | null> {
  try {
    await judgeUrl(url, net.policy, net.resolve);
    return null;
  } catch (e) {
    if (e instanceof PolicyDenied) return e.denial;
    return { rule: "url.dns", reason: `The host of ${url.slice(0, 200)} could not be looked up, so the request was not sent.` };
  }
}

/** Pages already guarded by this connection: interception lives as long as the CDP client does. */
const guarded = new WeakMap<Page, Promise<void>>();

/**
 * Every request the page makes (documents, subresources, redirects, fetch/XHR) is paused and
 * judged; refused ones are aborted and reported, the rest continue. WebSockets, which the Fetch
 * domain never sees, are judged by a page-side stand-in (websocket-guard.ts).
 */
export function guardPage(page: Page, net: NetContext, onDenied: (d: Denial, url: string) => void): Promise<void> {
  let done = guarded.get(page);
  if (!done) {
    done = intercept(page, net, onDenied);
    guarded.set(page, done);
  }
  return done;
}

async function intercept(page: Page, net: NetContext, onDenied: (d: Denial, url: string) => void): Promise<void> {
  await guardWebSockets(page, net, onDenied);
  await page.setRequestInterception(true);
  page.on("request", (req: HTTPRequest) => {
    if (req.isInterceptResolutionHandled()) return;
    const url = req.url();
    if (LOCAL_SCHEMES.has(url.slice(0, url.indexOf(":") + 1))) {
      void req.continue().catch(() => undefined);
      return;
    }
    void judgeBrowserUrl(net, url)
      .then((denial) => {
        if (!denial) return req.continue();
        onDenied(denial, url);
        return req.abort("blockedbyclient");
      })
      .catch(() => undefined); // the page may close while a request waits
  });
}
