import { z } from "zod";
import { failOnStatus, parseJson, request, searchUrl, tryJson, type HttpLimits } from "./http";
import { plainText } from "./text";
import { SearchFailure, type Freshness, type ProviderAnswer, type SearchProvider, type SearchQuery } from "./types";

export const BRAVE_DEFAULT_URL = "https://api.search.brave.com";
const API_PATH = "/res/v1/web/search";
const AUTH_HINT = "The operator must set a valid BRAVE_SEARCH_API_KEY secret (https://brave.com/search/api/).";

const FRESHNESS: Record<Freshness, string> = { day: "pd", week: "pw", month: "pm", year: "py" };

/** The parts of Brave's web search answer we read; everything else may vary freely. */
const braveAnswer = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string(),
          url: z.string(),
          description: z.string().optional(),
          page_age: z.string().optional(),
          age: z.string().optional(),
        }),
      ),
    })
    .optional(),
});

const braveError = z.object({ error: z.object({ code: z.string().optional(), detail: z.string().optional() }) });

/** Brave Search API (https://api-dashboard.search.brave.com/app/documentation/web-search). */
export function braveProvider(opts: { apiKey: string; baseUrl: string; limits: HttpLimits }): SearchProvider {
  const name = "brave";
  return {
    name,
    async search(q: SearchQuery): Promise<ProviderAnswer> {
      const url = searchUrl(opts.baseUrl, API_PATH, {
        q: q.query,
        count: String(Math.min(q.count, 20)),
        // Brave's country list uses ISO 3166 ("gb"), agents often say "uk".
        country: q.country === "uk" ? "gb" : q.country,
        freshness: q.freshness && FRESHNESS[q.freshness],
      });
      const res = await request(name, (signal) => fetch(url, { headers: { accept: "application/json", "x-subscription-token": opts.apiKey }, signal }), opts.limits);
      if (res.status < 200 || res.status >= 300) {
        const err = braveError.safeParse(tryJson(res.text));
        const code = err.success ? err.data.error.code : undefined;
        const detail = err.success ? err.data.error.detail : undefined;
        // An invalid key is a 422 SUBSCRIPTION_TOKEN_INVALID at Brave, not a 401.
        if (code?.includes("TOKEN")) throw new SearchFailure(name, "unauthorized", `brave refused the API key (${code}). ${AUTH_HINT}`);
        failOnStatus(name, res, { authHint: AUTH_HINT, detail, retryAfterSeconds: exhaustedWindowReset(res.headers) });
      }
      const parsed = braveAnswer.safeParse(parseJson(name, res.text));
      if (!parsed.success) throw new SearchFailure(name, "malformed", "brave sent JSON that is not a web search answer (no web.results list).");
      const results = (parsed.data.web?.results ?? []).map((r) => ({
        title: plainText(r.title),
        url: r.url,
        description: plainText(r.description ?? ""),
        ...(r.page_age || r.age ? { published_time: r.page_age ?? r.age } : {}),
      }));
      return { results };
    },
  };
}

/**
 * Brave reports each rate window (per second, per month) as a list: X-RateLimit-Remaining
 * "1, 0", X-RateLimit-Reset "0, 86400". The wait is the longest reset among exhausted windows.
 */
function exhaustedWindowReset(headers: Headers): number | undefined {
  const list = (name: string) => (headers.get(name) ?? "").split(",").map((v) => Number(v.trim()));
  const remaining = list("x-ratelimit-remaining");
  const waits = list("x-ratelimit-reset").filter((r, i) => Number.isSafeInteger(r) && remaining[i] === 0);
  return waits.length > 0 ? Math.max(...waits) : undefined;
}
