import { cookieTenant } from "./inspector-session";

/** Parses `tenant=key,tenant=key`; entries without both parts are ignored. */
export function parseApiKeys(value: string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  for (const pair of (value ?? "").split(",")) {
    const i = pair.indexOf("=");
    if (i <= 0) continue;
    const tenant = pair.slice(0, i).trim();
    const key = pair.slice(i + 1).trim();
    if (tenant && key) keys.set(key, tenant);
  }
  return keys;
}

const encoder = new TextEncoder();

/** Compares in time independent of where the strings differ. */
function sameSecret(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.length !== y.length) return false;
  return crypto.subtle.timingSafeEqual(x, y);
}

/** The tenant an API key belongs to, or null; every configured key is compared. */
export function tenantOfKey(env: Env, presented: string): string | null {
  let tenant: string | null = null;
  for (const [key, t] of parseApiKeys(env.TOOLSHED_API_KEYS)) if (sameSecret(key, presented)) tenant = t;
  return tenant;
}

export type AuthResult = { ok: true; tenant: string } | { ok: false; message: string };

export async function authenticate(request: Request, env: Env): Promise<AuthResult> {
  const keys = parseApiKeys(env.TOOLSHED_API_KEYS);
  if (keys.size === 0) {
    return {
      ok: false,
      message:
        "No API keys are configured, so every request is refused. Set TOOLSHED_API_KEYS to comma-separated tenant=key pairs (a secret in production: `wrangler secret put TOOLSHED_API_KEYS`; locally in .dev.vars).",
    };
  }
  const header = request.headers.get("authorization");
  if (header === null) {
    // The inspector page (a browser) holds a signed cookie instead of the key.
    const tenant = await cookieTenant(request, env);
    if (tenant) return { ok: true, tenant };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match) return { ok: false, message: "Missing API key: send `Authorization: Bearer <key>`." };
  const tenant = tenantOfKey(env, match[1]!);
  return tenant ? { ok: true, tenant } : { ok: false, message: "Invalid API key." };
}
