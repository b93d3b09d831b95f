// The Worker's bindings and variables, as wrangler.toml and .dev.vars declare them.
interface Env {
  SESSIONS: DurableObjectNamespace<import("../durable-objects/session").SessionDO>;
  /** Comma-separated `tenant=key` pairs. Fail closed when empty. */
  TOOLSHED_API_KEYS?: string;
  /** Comma-separated extra sensitive-file globs (never readable by any tool). */
  TOOLSHED_SENSITIVE_GLOBS?: string;
  /** Workspace quotas; defaults in src/policy/limits.ts. */
  TOOLSHED_QUOTA_BYTES?: string;
  TOOLSHED_QUOTA_FILES?: string;
  /** Largest request body accepted by JSON endpoints, in bytes. */
  TOOLSHED_MAX_JSON_BYTES?: string;
  /** Network door (src/policy/urls/): comma-separated host globs allowed / refused by every network tool. */
  TOOLSHED_URL_ALLOW?: string;
  TOOLSHED_URL_DENY?: string;
  /** Comma-separated origins exempt from the address rules (local services, tests). */
  TOOLSHED_ALLOWED_ORIGINS?: string;
  /** DNS-over-HTTPS (application/dns-json) resolver every host name is looked up with. */
  TOOLSHED_DOH_URL?: string;
}
declare namespace Cloudflare {
  interface Env extends globalThis.Env {}
}
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "SessionDO";
  }
}
