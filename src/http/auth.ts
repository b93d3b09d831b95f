import { cookieTenant } from "./inspector-session";
import { parseApiKeys, tenantOfKey } from "./api-keys";

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
