import { z } from "zod";
import { failOnStatus, parseJson, request, searchUrl, type HttpLimits } from "./http";
import { plainText } from "./text";
import { SearchFailure, type ProviderAnswer, type SearchProvider, type SearchQuery } from "./types";

/** The parts of SearXNG's `format=json` answer we read. */
const searxAnswer = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().optional(),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
  // Pairs of [engine, reason] for the instance's own engines that failed this time.
  unresponsive_engines: z.array(z.array(z.string())).optional(),
});

/** A SearXNG instance's JSON API (the instance must enable `json` in `search.formats`). */
export function searxngProvider(opts: { baseUrl: string; limits: HttpLimits }): SearchProvider {
  const name = "searxng";
  return {
    name,
    async search(q: SearchQuery): Promise<ProviderAnswer> {
      const url = searchUrl(opts.baseUrl, "/search", { q: q.query, format: "json", time_range: q.freshness });
      const res = await request(name, (signal) => fetch(url, { headers: { accept: "application/json" }, signal }), opts.limits);
      // An instance without the json format enabled answers 403.
      failOnStatus(name, res, { authHint: "The operator must allow the json format (search.formats) on the SearXNG instance." });
      const parsed = searxAnswer.safeParse(parseJson(name, res.text));
      if (!parsed.success) throw new SearchFailure(name, "malformed", "searxng sent JSON without a results list.");
      return {
        results: parsed.data.results.slice(0, q.count).map((r) => ({
          title: plainText(r.title ?? r.url),
          url: r.url,
          description: plainText(r.content ?? ""),
          ...(r.publishedDate ? { published_time: r.publishedDate } : {}),
        })),
        unresponsive: (parsed.data.unresponsive_engines ?? []).map(([engine, reason]) => `searxng/${engine}: ${reason ?? "no answer"}`),
      };
    },
  };
}
