import type { SearchSetup } from "./config";
import { SearchFailure, type SearchQuery, type SearchResult } from "./types";

type EngineFailure = {
  engine: string;
  kind: string;
  error: string;
  retry_after_seconds?: number;
};

export interface SearchOutcome {
  results: SearchResult[];
  /** Engines that answered (possibly with no results). */
  engines: string[];
  failed: EngineFailure[];
  /** Upstream engines of a meta-search engine that did not answer. */
  unresponsive: string[];
}

/**
 * Asks every configured engine at once and merges their answers: ranks interleaved (each
 * engine's first hit, then each one's second, ...), duplicates by URL dropped (the first
 * copy kept, a missing date filled from a later one), at most `count` results.
 */
export async function searchAll(setup: SearchSetup, q: SearchQuery): Promise<SearchOutcome> {
  const failed: EngineFailure[] = setup.misconfigured.map((m) => ({ engine: m.engine, kind: "config", error: m.error }));
  const settled = await Promise.allSettled(setup.providers.map((p) => p.search(q)));
  const lists: SearchResult[][] = [];
  const engines: string[] = [];
  const unresponsive: string[] = [];
  settled.forEach((s, i) => {
    const engine = setup.providers[i]!.name;
    if (s.status === "fulfilled") {
      engines.push(engine);
      lists.push(s.value.results);
      unresponsive.push(...(s.value.unresponsive ?? []));
      return;
    }
    failed.push(describeFailure(engine, s.reason));
  });
  return { results: mergeResults(lists, q.count), engines, failed, unresponsive };
}

function describeFailure(engine: string, e: unknown): EngineFailure {
  if (e instanceof SearchFailure) {
    return { engine, kind: e.kind, error: e.message, ...(e.retryAfterSeconds !== undefined ? { retry_after_seconds: e.retryAfterSeconds } : {}) };
  }
  console.error("search provider failed unexpectedly", engine, e);
  return { engine, kind: "internal", error: `${engine} failed unexpectedly.` };
}

function mergeResults(lists: SearchResult[][], count: number): SearchResult[] {
  const byKey = new Map<string, SearchResult>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) {
      const r = list[rank];
      if (!r) continue;
      const key = urlKey(r.url);
      const seen = byKey.get(key);
      if (!seen) byKey.set(key, { ...r });
      else if (!seen.published_time && r.published_time) seen.published_time = r.published_time;
    }
  }
  return [...byKey.values()].slice(0, count);
}

/** Two engines' links to one page: scheme, `www.`, fragment and a trailing slash do not matter. */
function urlKey(raw: string): string {
  try {
    const u = new URL(raw);
    const host = u.hostname.toLowerCase().replace(/^www\./, "");
    const path = u.pathname.replace(/\/+$/, "");
    return `${host}${u.port ? `:${u.port}` : ""}${path}${u.search}`;
  } catch {
    return raw;
  }
}
