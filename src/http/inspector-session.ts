import { secretKey, signHex, verifyHex } from "../policy/signing";
import { formatValidationError } from "../lib/validation";
import { parseApiKeys, tenantOfKey } from "./api-keys";
import { readJson } from "./body";
import { httpError, json } from "./respond";
import { LoginBody } from "./shapes";

/**
 * The inspector's login: an API key is exchanged once for a signed cookie naming the tenant
 * and an expiry, so the page never holds the key. The cookie is HttpOnly and SameSite=Strict,
 * and is accepted only for reads, the terminal's WebSocket, and the timeline's restore and fork
 * buttons, from the Worker's own origin (see `cookieTenant`), so another site can neither read
 * it nor act with it.
 */
export const COOKIE = "toolshed_inspect";
/** How long a login lasts. */
const COOKIE_TTL_SECONDS = 3600;
/** The only changes the inspector's cookie may make: restore a checkpoint, fork a session. */
const INSPECTOR_ACTIONS = /^\/v1\/sessions\/[0-9a-f]{32}\/(checkpoints\/\d{1,15}\/restore|fork)$/;

const encoder = new TextEncoder();

const cookieKey = (env: Env) => secretKey(env.TOOLSHED_COOKIE_SECRET, env.TOOLSHED_API_KEYS, "toolshed inspector cookie");
const claim = (tenant: string, expires: number) => encoder.encode(`inspect\n${tenant}\n${expires}`);

const b64url = (s: string) =>
  btoa(String.fromCharCode(...encoder.encode(s)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
function fromB64url(s: string): string | null {
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

function cookieHeader(request: Request, value: string, maxAge: number): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

/** `POST /inspect/login {key}`: sets the cookie; 401 for a key that is not configured. */
async function login(request: Request, env: Env): Promise<Response> {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(request.url).origin) return httpError(403, "forbidden", "Log in from the inspector page of this server.");
  const body = await readJson(request, 4096);
  if (!body.ok) return body.response;
  const parsed = LoginBody.safeParse(body.value);
  if (!parsed.success) return httpError(400, "invalid_arguments", formatValidationError(parsed.error));
  const tenant = tenantOfKey(env, parsed.data.key);
  const key = await cookieKey(env);
  if (!tenant || !key) return httpError(401, "unauthorized", "That API key is not valid.");
  const expires = Math.floor(Date.now() / 1000) + COOKIE_TTL_SECONDS;
  const value = `${expires}.${await signHex(key, claim(tenant, expires))}.${b64url(tenant)}`;
  return json({ tenant, expiresAt: new Date(expires * 1000).toISOString() }, 200, {
    "set-cookie": cookieHeader(request, value, COOKIE_TTL_SECONDS),
    "cache-control": "no-store",
  });
}

/** `POST /inspect/logout`: the browser forgets the cookie. */
const logout = (request: Request): Response => json({ loggedOut: true }, 200, { "set-cookie": cookieHeader(request, "", 0), "cache-control": "no-store" });

/**
 * The tenant a valid inspector cookie names, or null. Only for GET (reads, the terminal's
 * upgrade) and only when the browser says the request comes from this origin, or says nothing
 * of its origin (a plain navigation such as a download link).
 */
export async function cookieTenant(request: Request, env: Env): Promise<string | null> {
  const url = new URL(request.url);
  const origin = request.headers.get("origin");
  // The two actions the page offers (restore a checkpoint, fork a session) must come from the
  // page itself: the browser names its origin on every POST, and it must be this one.
  const action = request.method === "POST" && INSPECTOR_ACTIONS.test(url.pathname) && origin === url.origin;
  if (request.method !== "GET" && request.method !== "HEAD" && !action) return null;
  if (origin !== null && origin !== url.origin) return null;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return null;
  const value = readCookie(request.headers.get("cookie") ?? "", COOKIE);
  const m = value ? /^(\d{1,12})\.([0-9a-f]{64})\.([A-Za-z0-9_-]{1,400})$/.exec(value) : null;
  if (!m) return null;
  const expires = Number(m[1]);
  const tenant = fromB64url(m[3]!);
  const key = await cookieKey(env);
  if (!tenant || !key || expires * 1000 <= Date.now()) return null;
  if (!(await verifyHex(key, claim(tenant, expires), m[2]!))) return null;
  // A tenant whose keys were all removed is locked out at once, cookie or not.
  return [...parseApiKeys(env.TOOLSHED_API_KEYS).values()].includes(tenant) ? tenant : null;
}

function readCookie(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** The login and logout endpoints, which need no API key header; null for every other request. */
export function inspectorLogin(request: Request, env: Env): Promise<Response> | null {
  const { pathname } = new URL(request.url);
  if (pathname !== "/inspect/login" && pathname !== "/inspect/logout") return null;
  if (request.method !== "POST") return Promise.resolve(httpError(405, "method_not_allowed", `${pathname} accepts POST only.`));
  return pathname === "/inspect/login" ? login(request, env) : Promise.resolve(logout(request));
}
