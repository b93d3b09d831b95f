/** What the agent asked for, already validated by the tool's zod schema. */
export interface SearchQuery {
  query: string;
  count: number;
  freshness?: Freshness;
  /** Two-letter country code, lower case ("us", "de"; "uk" is accepted for Great Britain). */
  country?: string;
}

export const FRESHNESS = ["day", "week", "month", "year"] as const;
export type Freshness = (typeof FRESHNESS)[number];

/** One hit, the same shape whichever engine found it (a type alias, so it is plain JSON to the tool result). */
export type SearchResult = {
  title: string;
  url: string;
  description: string;
  /** When the engine dates the page: ISO 8601 where it gives one, else its own wording. */
  published_time?: string;
};

/** What one engine answered. */
export interface ProviderAnswer {
  results: SearchResult[];
  /** Upstream engines behind a meta-search engine that failed this time ("searxng/google: timeout"). */
  unresponsive?: string[];
}

/** One search engine behind the tool. */
export interface SearchProvider {
  /** The engine's name as the operator configures it and as failures name it. */
  readonly name: string;
  search(q: SearchQuery): Promise<ProviderAnswer>;
}

export type FailureKind = "unauthorized" | "rate_limited" | "timeout" | "malformed" | "http" | "unreachable" | "config";

/** Why one engine gave no results; the message is meant for the agent. */
export class SearchFailure extends Error {
  override name = "SearchFailure";
  constructor(
    readonly engine: string,
    readonly kind: FailureKind,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
