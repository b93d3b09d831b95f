// The API keys (TOOLSHED_API_KEYS) and the tenant each one names: a leaf that the bearer check
// (auth.ts) and the inspector's cookie login (inspector-session.ts) both use.

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
