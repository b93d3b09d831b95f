import { PolicyDenied } from "../policy/denied";
import { DnsError, judgeUrl } from "../policy/urls";
import type { NetContext } from "./context";
import { NetError } from "./errors";
import { LIMITS } from "../limits";

const MAX_REDIRECTS = LIMITS.redirects;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Methods that may be sent twice (RFC 9110 9.2.2): the body, when any, is bytes held here. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

export interface FetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** Follow redirects by hand, each hop judged again (default true). */
  followRedirects?: boolean;
  maxRedirects?: number;
  timeoutMs: number;
  /** The body is read as a stream and cut here; `truncated` tells. */
  maxBytes: number;
}

interface Hop {
  url: string;
  status: number;
}

export interface FetchResult {
  /** The last URL fetched (after redirects). */
  url: string;
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array;
  /** The body went past maxBytes and was cut there. */
  truncated: boolean;
  /** Every response, the last one included, for `curl -L -i` and `wget -S`. */
  hops: Hop[];
  /** Header blocks of the responses before the last (redirects). */
  redirectHeaders: Headers[];
}

/** Credentials in a URL become a Basic header, sent only to the origin that carried them. */
function splitUserinfo(url: URL): { href: string; auth?: string } {
  if (!url.username && !url.password) return { href: url.href };
  const bare = new URL(url.href);
  bare.username = "";
  bare.password = "";
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s; // a stray '%' is taken literally, as curl does
    }
  };
  const user = decode(url.username);
  const pass = decode(url.password);
  return { href: bare.href, auth: basicAuth(`${user}:${pass}`) };
}

/** An Authorization value for `user:password` (UTF-8, as curl sends it). */
export function basicAuth(userPass: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(userPass)) bin += String.fromCharCode(b);
  return `Basic ${btoa(bin)}`;
}

async function readCapped(res: Response, maxBytes: number, signal: AbortSignal): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!res.body) return { body: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  const abort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", abort);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.length > maxBytes) {
        parts.push(value.subarray(0, maxBytes - total));
        total = maxBytes;
        truncated = true;
        await reader.cancel().catch(() => undefined);
        break;
      }
      parts.push(value);
      total += value.length;
    }
  } finally {
    signal.removeEventListener("abort", abort);
  }
  if (signal.aborted) throw signal.reason;
  const body = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    body.set(p, off);
    off += p.length;
  }
  return { body, truncated };
}

/** What the hop loop needs: the request and how to follow redirects. */
export type HopOptions = Omit<FetchOptions, "timeoutMs" | "maxBytes"> & {
  /** Headers sent only while the request stays on its first origin (operator credentials). */
  originHeaders?: Record<string, string>;
};

/** The last response of a request, its body not yet read, and the hops that led to it. */
export interface OpenedFetch {
  url: string;
  response: Response;
  hops: Hop[];
  redirectHeaders: Headers[];
}

/**
 * Each hop is judged by the URL policy (name rules, then every DNS answer) before a byte is
 * sent; redirects are followed by hand (`redirect: "manual"`), at most `maxRedirects`.
 */
async function followHops(net: NetContext, input: string, opts: HopOptions, signal: AbortSignal): Promise<OpenedFetch> {
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const hops: Hop[] = [];
  const redirectHeaders: Headers[] = [];
  let method = (opts.method ?? "GET").toUpperCase();
  let body = opts.body;
  let current = input;
  let firstOrigin: string | undefined;
  let auth: string | undefined;
  for (;;) {
    const judged = await raceAbort(judgeUrl(current, net.policy, net.resolve), signal).catch((e: unknown) => {
      if (e instanceof DnsError) throw new NetError("dns", `Could not resolve host: ${hostOf(current)} (${e.message}).`);
      throw e;
    });
    if (!judged.exempt && judged.kind === "name" && judged.addresses.length === 0) {
      throw new NetError("dns", `Could not resolve host: ${judged.host}.`);
    }
    const split = splitUserinfo(judged.url);
    if (firstOrigin === undefined) {
      firstOrigin = judged.url.origin;
      auth = split.auth;
    }
    const headers = new Headers(opts.headers);
    const onFirstOrigin = judged.url.origin === firstOrigin;
    if (onFirstOrigin) for (const [k, v] of Object.entries(opts.originHeaders ?? {})) headers.set(k, v);
    if (auth && onFirstOrigin && !headers.has("authorization")) headers.set("authorization", auth);
    const init: RequestInit = { method, headers, body: method === "GET" || method === "HEAD" ? undefined : body, redirect: "manual", signal };
    let res: Response;
    try {
      res = await fetch(split.href, init).catch((e: unknown) => {
        // A kept-alive connection the server closed dies before the response starts; real clients
        // (curl, browsers) send an idempotent request again once, on a fresh connection.
        if (signal.aborted || !IDEMPOTENT.has(method)) throw e;
        return fetch(split.href, init);
      });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw new NetError("connect", `Failed to connect to ${judged.url.host}: ${e instanceof Error ? e.message : String(e)}.`);
    }
    hops.push({ url: split.href, status: res.status });
    const location = res.headers.get("location");
    if (opts.followRedirects !== false && REDIRECT_STATUSES.has(res.status) && location !== null) {
      await res.body?.cancel().catch(() => undefined);
      if (hops.length > maxRedirects) {
        throw new NetError("too_many_redirects", `Stopped after ${maxRedirects} redirects (the limit); the last one pointed to ${location.slice(0, 300)}.`);
      }
      let next: URL;
      try {
        next = new URL(location, split.href);
      } catch {
        throw new NetError("bad_redirect", `The server redirected to '${location.slice(0, 300)}', which is not a valid URL.`);
      }
      redirectHeaders.push(res.headers);
      // As browsers and curl -L do: 303, and 301/302 after a POST, continue as GET.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        if (method !== "HEAD") method = "GET";
        body = undefined;
      }
      current = next.href;
      continue;
    }
    return { url: split.href, response: res, hops, redirectHeaders };
  }
}

/** Failures after an abort are the abort's reason (a timeout), unless they are the policy's or the network's own. */
function abortReason(signal: AbortSignal, e: unknown): unknown {
  return signal.aborted && !(e instanceof NetError) && !(e instanceof PolicyDenied) ? signal.reason : e;
}

/**
 * The one fetch path of every network tool: `followHops`, then the body read as a stream and
 * cut at `maxBytes`. One deadline covers lookups, hops and the body. Throws PolicyDenied for
 * a refused hop and NetError for network failures.
 */
export async function safeFetch(net: NetContext, input: string, opts: FetchOptions): Promise<FetchResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new NetError("timeout", `Timed out after ${opts.timeoutMs} ms.`)), opts.timeoutMs);
  try {
    const opened = await followHops(net, input, opts, controller.signal);
    const read = await readCapped(opened.response, opts.maxBytes, controller.signal);
    const res = opened.response;
    return { url: opened.url, status: res.status, statusText: res.statusText, headers: res.headers, ...read, hops: opened.hops, redirectHeaders: opened.redirectHeaders };
  } catch (e) {
    throw abortReason(controller.signal, e);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The same path for a client that reads the body itself, as it arrives (an MCP client reading
 * Server-Sent Events): the deadline covers lookups and hops up to the last response's headers;
 * after that the body lives until it ends or `signal` aborts.
 */
export async function openFetch(net: NetContext, input: string, opts: HopOptions & { timeoutMs: number; signal?: AbortSignal }): Promise<OpenedFetch> {
  const controller = new AbortController();
  const outer = opts.signal;
  const cancel = () => controller.abort(outer?.reason);
  if (outer?.aborted) cancel();
  outer?.addEventListener("abort", cancel, { once: true });
  const timer = setTimeout(() => controller.abort(new NetError("timeout", `Timed out after ${opts.timeoutMs} ms.`)), opts.timeoutMs);
  try {
    return await followHops(net, input, opts, controller.signal);
  } catch (e) {
    outer?.removeEventListener("abort", cancel);
    throw abortReason(controller.signal, e);
  } finally {
    clearTimeout(timer);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A lookup has its own deadline; the call's deadline must still win. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
