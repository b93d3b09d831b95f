import { z } from "zod";
import { basicAuth, openFetch } from "../../net/fetch";
import type { NetContext } from "../../net/context";
import { GIT_MAX_REDIRECTS, GIT_MAX_RESPONSE_BYTES } from "./limits";

/**
 * isomorphic-git's HTTP client, on the project's one fetch path: every request and every
 * redirect hop is judged by the URL policy before a byte is sent. Operator credentials
 * (TOOLSHED_GIT_CREDENTIALS, by origin) ride as an Authorization header only while the request
 * stays on that origin; they never reach the agent, the environment or `.git/config`.
 */

const CredentialsSchema = z.record(z.string(), z.string().regex(/^[^:]*:.*$/, "each value is 'user:password'"));

/** Operator credentials by origin (`https://host[:port]`); malformed configuration gives none. */
export function gitCredentials(raw: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return out;
  }
  const r = CredentialsSchema.safeParse(parsed);
  if (!r.success) return out;
  for (const [origin, userPass] of Object.entries(r.data)) {
    try {
      out.set(new URL(origin).origin, basicAuth(userPass));
    } catch {
      /* not a URL: ignored */
    }
  }
  return out;
}

interface GitHttpRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

async function collect(body: GitHttpRequest["body"]): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const parts: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) parts.push(chunk);
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

async function readCapped(res: Response): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > GIT_MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the server sent more than ${GIT_MAX_RESPONSE_BYTES} bytes in one response (the limit for git over HTTP here)`);
    }
    parts.push(value);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

export function gitHttp(net: NetContext, credentials: Map<string, string>, timeoutMs: number) {
  // As git does (http.followRedirects=initial): when the first request of a remote is
  // redirected, later requests go to where it landed instead of being redirected again.
  const moved = new Map<string, string>();
  return {
    async request(req: GitHttpRequest) {
      for (const [from, to] of moved) if (req.url.startsWith(from)) req = { ...req, url: to + req.url.slice(from.length) };
      const body = await collect(req.body);
      const origin = new URL(req.url).origin;
      const auth = credentials.get(origin);
      const opened = await openFetch(net, req.url, {
        method: req.method ?? "GET",
        headers: { "user-agent": "git/isomorphic-git (toolshed)", ...(req.headers ?? {}) },
        body,
        maxRedirects: GIT_MAX_REDIRECTS,
        originHeaders: auth ? { authorization: auth } : undefined,
        timeoutMs,
      });
      const refs = /\/info\/refs\?service=[\w-]+$/;
      if (refs.test(req.url) && refs.test(opened.url) && opened.url !== req.url) {
        moved.set(req.url.replace(refs, ""), opened.url.replace(refs, ""));
      }
      const bytes = await readCapped(opened.response);
      const headers: Record<string, string> = {};
      opened.response.headers.forEach((v, k) => (headers[k] = v));
      return {
        url: opened.url,
        method: req.method ?? "GET",
        statusCode: opened.response.status,
        statusMessage: opened.response.statusText,
        headers,
        body: (async function* () {
          yield bytes;
        })(),
      };
    },
  };
}
