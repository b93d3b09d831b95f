import { SearchFailure } from "./types";

/** How long one engine may take and how much it may send; operator-tunable. */
export interface HttpLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface ProviderResponse {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Sends one request to an engine and reads its whole body as text, under a timeout that
 * covers both the headers and the body, and a byte cap on a streamed read (a huge or endless
 * body never sits in memory). Network failures and timeouts become SearchFailures; any HTTP
 * status is returned for the provider to judge (see `failOnStatus`).
 */
export async function request(engine: string, send: (signal: AbortSignal) => Promise<Response>, limits: HttpLimits): Promise<ProviderResponse> {
  const abort = new AbortController();
  const timedOut = new SearchFailure(engine, "timeout", `${engine} did not answer within ${limits.timeoutMs / 1000} seconds.`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort(timedOut);
      reject(timedOut);
    }, limits.timeoutMs);
  });
  deadline.catch(() => undefined);
  try {
    let response: Response;
    try {
      response = await Promise.race([send(abort.signal), deadline]);
    } catch (e) {
      if (e instanceof SearchFailure) throw e;
      throw new SearchFailure(engine, "unreachable", `${engine} could not be reached (${describeNetworkError(e)}).`);
    }
    const text = await Promise.race([readCapped(engine, response, limits.maxBytes), deadline]);
    return { status: response.status, headers: response.headers, text };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (!abort.signal.aborted) abort.abort();
  }
}

async function readCapped(engine: string, response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new SearchFailure(engine, "malformed", `${engine} sent more than ${maxBytes} bytes; the answer was dropped.`);
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (e) {
    if (e instanceof SearchFailure) throw e;
    throw new SearchFailure(engine, "unreachable", `${engine} broke off its answer (${describeNetworkError(e)}).`);
  }
  return text + decoder.decode();
}

/** Network errors are reported by kind only: their text may carry addresses. */
function describeNetworkError(e: unknown): string {
  const name = e instanceof Error ? e.name : "";
  return name && name !== "Error" ? name : "network error";
}

/**
 * Turns a non-2xx answer into the failure the agent can act on. `authHint` says what the
 * operator must fix when the engine refuses the credentials.
 */
export function failOnStatus(engine: string, res: ProviderResponse, opts: { authHint: string; detail?: string; retryAfterSeconds?: number }): void {
  if (res.status >= 200 && res.status < 300) return;
  const detail = opts.detail ? `: ${opts.detail.trim().replace(/\.+$/, "")}` : "";
  if (res.status === 401 || res.status === 403) {
    throw new SearchFailure(engine, "unauthorized", `${engine} refused the request (HTTP ${res.status})${detail}. ${opts.authHint}`);
  }
  if (res.status === 429) {
    const after = retryAfterSeconds(res.headers) ?? opts.retryAfterSeconds;
    const wait = after === undefined ? "Wait before searching again." : `Retry after ${after} seconds.`;
    throw new SearchFailure(engine, "rate_limited", `${engine} is rate-limiting searches (HTTP 429)${detail}. ${wait}`, after);
  }
  throw new SearchFailure(engine, "http", `${engine} answered HTTP ${res.status}${detail}.`);
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The operator's base URL (with or without a trailing slash), the engine's path, and the parameters that are set. */
export function searchUrl(baseUrl: string, path: string, params: Record<string, string | undefined>): URL {
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url;
}

/** Parses a JSON body, or fails as "malformed" naming the engine. */
export function parseJson(engine: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SearchFailure(engine, "malformed", `${engine} sent a body that is not JSON (${text.length} characters).`);
  }
}

/** A JSON body if it is one (error bodies are optional detail, never required). */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
