import type { OutboxEntry } from "../vfs/outbox";

/**
 * Download links for sent files: HMAC-SHA256 over tenant, session, entry and expiry, so a
 * link opens exactly one file of one session until it expires, without the API key.
 * The key is `TOOLSHED_SIGNING_KEY`; without it one is derived from `TOOLSHED_API_KEYS`
 * (so rotating the API keys also revokes every link).
 */
export interface DownloadClaim {
  tenant: string;
  session: string;
  entry: string;
  /** Unix seconds. */
  expires: number;
}

const encoder = new TextEncoder();

export function signingKey(env: { TOOLSHED_SIGNING_KEY?: string; TOOLSHED_API_KEYS?: string }): Promise<CryptoKey | null> {
  return secretKey(env.TOOLSHED_SIGNING_KEY, env.TOOLSHED_API_KEYS, "toolshed outbox download links");
}

/**
 * An HMAC key from an operator secret; without one, derived from the API keys under `purpose`
 * (each purpose gets its own key, and rotating the API keys revokes what was signed).
 */
export async function secretKey(secret: string | undefined, apiKeys: string | undefined, purpose: string): Promise<CryptoKey | null> {
  if (!secret) {
    if (!apiKeys) return null;
    const base = await hmacKey(encoder.encode(apiKeys));
    secret = hex(await crypto.subtle.sign("HMAC", base, encoder.encode(purpose)));
  }
  return hmacKey(encoder.encode(secret));
}

const hmacKey = (raw: Uint8Array): Promise<CryptoKey> => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);

const message = (c: DownloadClaim): Uint8Array => encoder.encode(`${c.tenant}\n${c.session}\n${c.entry}\n${c.expires}`);

const signDownload = (key: CryptoKey, claim: DownloadClaim): Promise<string> => signHex(key, message(claim));

/** Constant-time check (crypto.subtle.verify) of a signature given as hex. */
export function verifyDownload(key: CryptoKey, claim: DownloadClaim, signature: string): Promise<boolean> {
  return verifyHex(key, message(claim), signature);
}

/** Constant-time check of an HMAC-SHA256 given as 64 hex digits. */
export async function verifyHex(key: CryptoKey, data: Uint8Array, signature: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(signature.slice(i * 2, i * 2 + 2), 16);
  return crypto.subtle.verify("HMAC", key, bytes, data);
}

export const signHex = async (key: CryptoKey, data: Uint8Array): Promise<string> => hex(await crypto.subtle.sign("HMAC", key, data));

const hex = (buf: ArrayBuffer): string => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

export interface LinkContext {
  env: Env;
  tenant: string;
  session: string;
  /** The API's origin as the caller reached it; TOOLSHED_PUBLIC_URL wins when set. */
  origin?: string;
}

/**
 * The signed, expiring download link of an outbox entry. Absolute when the API's origin is
 * known (TOOLSHED_PUBLIC_URL or the request), else a path on the API's origin.
 */
export async function downloadLink(c: LinkContext, entry: OutboxEntry): Promise<string> {
  const key = await signingKey(c.env);
  const expires = Math.floor(entry.expiresAt / 1000);
  const path = `/v1/sessions/${c.session}/outbox/${entry.id}/${encodeURIComponent(entry.name)}`;
  const query = new URLSearchParams({ tenant: c.tenant, expires: String(expires) });
  if (key) query.set("sig", await signDownload(key, { tenant: c.tenant, session: c.session, entry: entry.id, expires }));
  const origin = (c.env.TOOLSHED_PUBLIC_URL || c.origin || "").replace(/\/+$/, "");
  return `${origin}${path}?${query}`;
}
