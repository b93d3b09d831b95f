import { braveProvider, BRAVE_DEFAULT_URL } from "./brave";
import { duckDuckGoProvider, DUCKDUCKGO_DEFAULT_URL } from "./duckduckgo";
import type { HttpLimits } from "./http";
import { searxngProvider } from "./searxng";
import { serviceProvider } from "./service";
import type { SearchProvider } from "./types";
import { LIMITS } from "../../limits";

/** The operator settings web_search reads (a slice of the Worker's Env). */
export interface SearchEnv {
  TOOLSHED_SEARCH_PROVIDERS?: string;
  BRAVE_SEARCH_API_KEY?: string;
  TOOLSHED_BRAVE_URL?: string;
  TOOLSHED_SEARXNG_URL?: string;
  TOOLSHED_DUCKDUCKGO_URL?: string;
  TOOLSHED_SEARCH_SERVICE?: Fetcher;
  TOOLSHED_SEARCH_TIMEOUT_MS?: string;
}

const PROVIDER_NAMES = ["brave", "searxng", "duckduckgo", "service"] as const;
type ProviderName = (typeof PROVIDER_NAMES)[number];

const DEFAULT_TIMEOUT_MS = LIMITS.searchTimeoutMs;
/** A results page is tens of kilobytes; anything near this is not a results page. */
const MAX_BODY_BYTES = LIMITS.searchBodyBytes;

export interface SearchSetup {
  providers: SearchProvider[];
  /** Engines the operator asked for that cannot run, with what to fix. */
  misconfigured: { engine: string; error: string }[];
}

/**
 * Which engines answer: `TOOLSHED_SEARCH_PROVIDERS` when set; otherwise every engine the
 * operator configured (a Brave key, a SearXNG URL, a bound search Worker); otherwise the
 * keyless DuckDuckGo page.
 */
export function searchSetup(env: SearchEnv): SearchSetup {
  const timeoutMs = Number(env.TOOLSHED_SEARCH_TIMEOUT_MS) > 0 ? Number(env.TOOLSHED_SEARCH_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  const limits: HttpLimits = { timeoutMs, maxBytes: MAX_BODY_BYTES };
  const listed = (env.TOOLSHED_SEARCH_PROVIDERS ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const names = listed.length > 0 ? [...new Set(listed)] : configuredByDefault(env);
  const setup: SearchSetup = { providers: [], misconfigured: [] };
  for (const name of names) {
    const made = makeProvider(name, env, limits);
    if (typeof made === "string") setup.misconfigured.push({ engine: name, error: made });
    else setup.providers.push(made);
  }
  return setup;
}

function configuredByDefault(env: SearchEnv): ProviderName[] {
  const names: ProviderName[] = [];
  if (env.BRAVE_SEARCH_API_KEY) names.push("brave");
  if (env.TOOLSHED_SEARXNG_URL) names.push("searxng");
  if (env.TOOLSHED_SEARCH_SERVICE) names.push("service");
  return names.length > 0 ? names : ["duckduckgo"];
}

/** A provider, or why the operator's configuration cannot make one. */
function makeProvider(name: string, env: SearchEnv, limits: HttpLimits): SearchProvider | string {
  switch (name) {
    case "brave":
      if (!env.BRAVE_SEARCH_API_KEY) return "brave is listed in TOOLSHED_SEARCH_PROVIDERS but the BRAVE_SEARCH_API_KEY secret is not set.";
      return baseUrlOr(env.TOOLSHED_BRAVE_URL || BRAVE_DEFAULT_URL, "TOOLSHED_BRAVE_URL", (baseUrl) =>
        braveProvider({ apiKey: env.BRAVE_SEARCH_API_KEY!, baseUrl, limits }),
      );
    case "searxng":
      if (!env.TOOLSHED_SEARXNG_URL) return "searxng is listed in TOOLSHED_SEARCH_PROVIDERS but TOOLSHED_SEARXNG_URL (the instance's base URL) is not set.";
      return baseUrlOr(env.TOOLSHED_SEARXNG_URL, "TOOLSHED_SEARXNG_URL", (baseUrl) => searxngProvider({ baseUrl, limits }));
    case "duckduckgo":
      return baseUrlOr(env.TOOLSHED_DUCKDUCKGO_URL || DUCKDUCKGO_DEFAULT_URL, "TOOLSHED_DUCKDUCKGO_URL", (baseUrl) => duckDuckGoProvider({ baseUrl, limits }));
    case "service":
      if (!env.TOOLSHED_SEARCH_SERVICE) return "service is listed in TOOLSHED_SEARCH_PROVIDERS but no TOOLSHED_SEARCH_SERVICE service binding is configured.";
      return serviceProvider({ binding: env.TOOLSHED_SEARCH_SERVICE, limits });
    default:
      return `'${name}' in TOOLSHED_SEARCH_PROVIDERS is not a search provider (known: ${PROVIDER_NAMES.join(", ")}).`;
  }
}

function baseUrlOr(value: string, variable: string, make: (baseUrl: string) => SearchProvider): SearchProvider | string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
  } catch {
    return `${variable} is not an http(s) URL.`;
  }
  return make(value);
}
