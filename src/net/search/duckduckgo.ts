import { decodeHTML } from "entities";
import { failOnStatus, request, searchUrl, type HttpLimits } from "./http";
import { plainText } from "./text";
import { SearchFailure, type Freshness, type ProviderAnswer, type SearchProvider, type SearchQuery, type SearchResult } from "./types";

export const DUCKDUCKGO_DEFAULT_URL = "https://html.duckduckgo.com";

const FRESHNESS: Record<Freshness, string> = { day: "d", week: "w", month: "m", year: "y" };

/** DuckDuckGo's `kl` regions are country-language pairs; these are the common ones. */
const REGIONS: Record<string, string> = {
  us: "us-en",
  uk: "uk-en",
  gb: "uk-en",
  ca: "ca-en",
  au: "au-en",
  nz: "nz-en",
  ie: "ie-en",
  in: "in-en",
  de: "de-de",
  at: "at-de",
  ch: "ch-de",
  fr: "fr-fr",
  be: "be-fr",
  es: "es-es",
  mx: "mx-es",
  ar: "ar-es",
  it: "it-it",
  nl: "nl-nl",
  pt: "pt-pt",
  br: "br-pt",
  se: "se-sv",
  no: "no-no",
  dk: "dk-da",
  fi: "fi-fi",
  pl: "pl-pl",
  ru: "ru-ru",
  jp: "jp-jp",
  kr: "kr-kr",
  cn: "cn-zh",
  tw: "tw-tzh",
  tr: "tr-tr",
  id: "id-en",
};

/** DuckDuckGo's keyless HTML results page, parsed with workerd's streaming HTMLRewriter. */
export function duckDuckGoProvider(opts: { baseUrl: string; limits: HttpLimits }): SearchProvider {
  const name = "duckduckgo";
  return {
    name,
    async search(q: SearchQuery): Promise<ProviderAnswer> {
      const url = searchUrl(opts.baseUrl, "/html/", {
        q: q.query,
        kl: q.country && REGIONS[q.country],
        df: q.freshness && FRESHNESS[q.freshness],
      });
      const res = await request(
        name,
        (signal) => fetch(url, { headers: { accept: "text/html", "user-agent": "Mozilla/5.0 (compatible; Toolshed)" }, signal }),
        opts.limits,
      );
      failOnStatus(name, res, { authHint: "DuckDuckGo refused this Worker's requests; configure another provider (TOOLSHED_SEARCH_PROVIDERS)." });
      const page = await parseResultsPage(res.text);
      // DuckDuckGo answers a suspected bot with a 202 and a CAPTCHA page instead of results.
      if (page.challenge || res.status === 202) {
        throw new SearchFailure(
          name,
          "rate_limited",
          "duckduckgo answered with a bot check (CAPTCHA) instead of results. Wait before searching again, or have the operator configure another provider.",
        );
      }
      if (!page.recognised) throw new SearchFailure(name, "malformed", "duckduckgo sent a page that is not its HTML results page (no result list found).");
      return { results: page.results.slice(0, q.count) };
    },
  };
}

interface Draft {
  ad: boolean;
  href: string;
  title: string;
  snippet: string;
  date: string;
}

interface ParsedPage {
  results: SearchResult[];
  /** The page had DuckDuckGo's result list (possibly with "No results."). */
  recognised: boolean;
  challenge: boolean;
}

async function parseResultsPage(html: string): Promise<ParsedPage> {
  const drafts: Draft[] = [];
  const current = (): Draft | undefined => drafts[drafts.length - 1];
  let recognised = false;
  let challenge = false;
  const rewriter = new HTMLRewriter()
    .on("#links, .no-results", { element: () => void (recognised = true) })
    .on(".anomaly-modal__title, #challenge-form", { element: () => void (challenge = true) })
    .on("div.result", {
      element(el) {
        const classes = (el.getAttribute("class") ?? "").split(/\s+/);
        drafts.push({ ad: classes.includes("result--ad"), href: "", title: "", snippet: "", date: "" });
      },
    })
    .on("a.result__a", {
      element(el) {
        recognised = true;
        const d = current();
        if (d) d.href = el.getAttribute("href") ?? "";
      },
      text(t) {
        const d = current();
        if (d) d.title += t.text;
      },
    })
    .on(".result__snippet", {
      text(t) {
        const d = current();
        if (d) d.snippet += t.text;
      },
    })
    .on(".result__extras__url > span", {
      text(t) {
        const d = current();
        if (d) d.date += t.text;
      },
    });
  await rewriter.transform(new Response(html)).arrayBuffer();
  const results: SearchResult[] = [];
  for (const d of drafts) {
    const url = targetUrl(d.href);
    if (d.ad || !url) continue;
    const date = /\d{4}-\d{2}-\d{2}(T[\d:.]+)?/.exec(d.date)?.[0];
    results.push({ title: plainText(d.title), url, description: plainText(d.snippet), ...(date ? { published_time: date } : {}) });
  }
  return { results, recognised, challenge };
}

/** Result links go through DuckDuckGo's redirector (`//duckduckgo.com/l/?uddg=<target>`); ads through `/y.js`. */
function targetUrl(rawHref: string): string | null {
  if (!rawHref) return null;
  let url: URL;
  try {
    url = new URL(decodeHTML(rawHref), "https://duckduckgo.com/");
  } catch {
    return null;
  }
  if (url.hostname.endsWith("duckduckgo.com")) {
    if (url.pathname === "/l/") return url.searchParams.get("uddg");
    return null; // ads (/y.js) and DuckDuckGo's own pages
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}
