import { z } from "zod";
import { searchSetup } from "../../net/search/config";
import { searchAll, type SearchOutcome } from "../../net/search/run";
import { FRESHNESS } from "../../net/search/types";
import { truncateMiddle } from "../../policy/output";
import { defineTool, type ToolResult } from "../types";

const params = z.object({
  query: z.string().trim().min(1, "the query is empty; say what to search for").max(400).describe("The search query"),
  count: z.number().int().min(1).max(20).default(5).describe("Number of results to return (1-20, default 5)"),
  freshness: z.enum(FRESHNESS).optional().describe('Time filter: "day", "week", "month" or "year"'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'a two-letter country code such as "us", "uk" or "de"')
    .optional()
    .describe('Country code for localized results (e.g. "us", "uk", "de")'),
});

export const webSearch = defineTool({
  name: "web_search",
  description:
    "Search the web. Returns results with title, url, description and, when known, published_time. When several search engines are configured their results are merged and de-duplicated, and engines that failed are named in the output.",
  params,
  readOnly: true,
  async run(ctx, args): Promise<ToolResult> {
    const setup = searchSetup(ctx.workerEnv ?? {});
    const outcome = await searchAll(setup, { ...args, country: args.country?.toLowerCase() });
    if (outcome.engines.length === 0) {
      // The earliest moment any engine may answer again.
      const retry = Math.min(...outcome.failed.map((f) => f.retry_after_seconds ?? Infinity));
      return {
        success: false,
        error: `No search engine could answer. ${outcome.failed.map((f) => f.error).join(" ")}`,
        failed_engines: outcome.failed,
        ...(Number.isFinite(retry) ? { retry_after_seconds: retry } : {}),
      };
    }
    return {
      success: true,
      output: truncateMiddle(formatOutcome(args.query, outcome)),
      results: outcome.results,
      engines: outcome.engines,
      failed_engines: outcome.failed,
    };
  },
});

function formatOutcome(query: string, o: SearchOutcome): string {
  const lines: string[] = [];
  const via = `via ${o.engines.join(", ")}`;
  if (o.results.length === 0) lines.push(`No results for "${query}" (${via}).`);
  else lines.push(`${o.results.length} result${o.results.length === 1 ? "" : "s"} for "${query}" (${via}):`);
  o.results.forEach((r, i) => {
    lines.push("", `${i + 1}. ${r.title}`, `   ${r.url}`);
    if (r.description) lines.push(`   ${r.description}`);
    if (r.published_time) lines.push(`   Published: ${r.published_time}`);
  });
  if (o.failed.length > 0) {
    lines.push("", "Failed engines:");
    for (const f of o.failed) lines.push(`- ${f.engine}: ${f.error}`);
  }
  if (o.unresponsive.length > 0) lines.push("", `Engines behind searxng that did not answer: ${o.unresponsive.join("; ")}`);
  return lines.join("\n");
}
