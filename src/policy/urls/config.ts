/** Host globs a list allows or refuses. */
export interface HostRules {
  allow: string[];
  deny: string[];
}

/**
 * Everything the URL judge needs to know besides the URL. Operator settings come from the
 * Worker's variables; a session adds its own rules, which can only narrow the operator's.
 */
export interface UrlPolicy {
  operator: HostRules;
  session: HostRules;
  /** Exact origins (`http://127.0.0.1:9555`) exempt from the address and name rules. */
  allowedOrigins: ReadonlySet<string>;
  /** DNS-over-HTTPS endpoint speaking the application/dns-json API. */
  dohUrl: string;
}

const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";

const list = (v: string | undefined): string[] =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * `scheme://host:port` of a URL. The WHATWG origin of a non-web scheme such as `imap:` is
 * "null", so those are spelt out from the parsed parts.
 */
export function originOf(url: URL): string {
  return url.origin !== "null" ? url.origin : `${url.protocol}//${url.host}`;
}

/** `http://127.0.0.1:9555/` and `HTTP://127.0.0.1:9555` both name origin `http://127.0.0.1:9555`. */
function origins(v: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const o of list(v)) {
    try {
      out.add(originOf(new URL(o)));
    } catch {
      console.warn(`TOOLSHED_ALLOWED_ORIGINS: '${o}' is not an origin; ignored`);
    }
  }
  return out;
}

export interface UrlPolicyEnv {
  TOOLSHED_URL_ALLOW?: string;
  TOOLSHED_URL_DENY?: string;
  TOOLSHED_ALLOWED_ORIGINS?: string;
  TOOLSHED_DOH_URL?: string;
}

export function urlPolicyFromEnv(env: UrlPolicyEnv, session: Partial<HostRules> = {}): UrlPolicy {
  return {
    operator: { allow: list(env.TOOLSHED_URL_ALLOW), deny: list(env.TOOLSHED_URL_DENY) },
    session: { allow: (session.allow ?? []).map((s) => s.toLowerCase()), deny: (session.deny ?? []).map((s) => s.toLowerCase()) },
    allowedOrigins: origins(env.TOOLSHED_ALLOWED_ORIGINS),
    dohUrl: env.TOOLSHED_DOH_URL?.trim() || DEFAULT_DOH_URL,
  };
}

const globCache = new Map<string, RegExp>();

/**
 * Host globs: `*` is any run of characters (dots included), `?` one character; matched
 * against the whole normalised host, case-insensitively. `*.example.com` covers every name
 * under example.com but not example.com itself.
 */
export function hostMatches(host: string, glob: string): boolean {
  let re = globCache.get(glob);
  if (!re) {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".");
    re = new RegExp(`^${body}$`, "i");
    globCache.set(glob, re);
  }
  return re.test(host);
}
