import { z } from "zod";
import { CANONICAL } from "../tools/registry";
import { defineProfileTool, route, type ProfileTool } from "./types";

// The platforms' search and fetch tools differ from web_search and web_fetch only in names,
// texts, ranges and defaults; the field checks (query length, country code) are the canonical ones.
const search = CANONICAL.web_search.params.shape;

/** A platform's search tool mapped onto `web_search`: `query`, `count`, and the filters it documents. */
export function searchTool(spec: {
  name: string;
  description: string;
  query: string;
  count: { text: string; max: number; default: number };
  freshness?: string;
  country?: { text: string; default: string };
}): ProfileTool {
  const base = {
    query: search.query.describe(spec.query),
    count: z.number().int().min(1).max(spec.count.max).default(spec.count.default).describe(spec.count.text),
  };
  const filters = {
    ...(spec.freshness ? { freshness: search.freshness.describe(spec.freshness) } : {}),
    ...(spec.country ? { country: search.country.unwrap().default(spec.country.default).describe(spec.country.text) } : {}),
  } as { freshness?: typeof search.freshness; country?: z.ZodDefault<z.ZodString> };
  return defineProfileTool({
    name: spec.name,
    description: spec.description,
    params: z.object({ ...base, ...filters }),
    route: (a: { query: string; count: number; freshness?: z.output<typeof search.freshness>; country?: string }) =>
      route("web_search", { query: a.query, count: a.count, freshness: a.freshness, country: a.country }),
  });
}

/** A platform's fetch tool that takes only `url`, mapped onto `web_fetch` with its defaults. */
export function fetchUrlTool(spec: { name: string; description: string; url: string }): ProfileTool {
  return defineProfileTool({
    name: spec.name,
    description: spec.description,
    params: z.object({ url: z.string().min(1).describe(spec.url) }),
    route: (a) => route("web_fetch", { url: a.url }),
  });
}
