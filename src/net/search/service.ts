import { z } from "zod";
import { failOnStatus, parseJson, request, tryJson, type HttpLimits } from "./http";
import { SearchFailure, type ProviderAnswer, type SearchProvider, type SearchQuery } from "./types";

/**
 * The search contract a bound Worker implements (docs/search.md, "Search through a service binding"):
 * `POST /search` with `{query, count, freshness?, country?}` answers
 * `200 {results: [{title, url, description, published_time?}]}`; failures are non-2xx with
 * `{error: "<message for the agent>"}` (429 may carry Retry-After).
 */
const contractAnswer = z.object({
  results: z.array(
    z.object({
      title: z.string(),
      url: z.string(),
      description: z.string(),
      published_time: z.string().optional(),
    }),
  ),
});
const contractError = z.object({ error: z.string() });

export function serviceProvider(opts: { binding: Fetcher; limits: HttpLimits }): SearchProvider {
  const name = "service";
  return {
    name,
    async search(q: SearchQuery): Promise<ProviderAnswer> {
      const res = await request(
        name,
        (signal) =>
          opts.binding.fetch("https://search.internal/search", {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(q),
            signal,
          }),
        opts.limits,
      );
      if (res.status < 200 || res.status >= 300) {
        const e = contractError.safeParse(tryJson(res.text));
        const detail = e.success ? e.data.error.slice(0, 300) : undefined;
        failOnStatus(name, res, { authHint: "The bound search Worker refused the request; the operator must check its configuration.", detail });
      }
      const parsed = contractAnswer.safeParse(parseJson(name, res.text));
      if (!parsed.success)
        throw new SearchFailure(
          name,
          "malformed",
          "the bound search Worker answered JSON that does not follow the search contract ({results: [{title, url, description}]}).",
        );
      return { results: parsed.data.results.slice(0, q.count) };
    },
  };
}
