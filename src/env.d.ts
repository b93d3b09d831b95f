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
  /** Comma-separated command rule ids every profile enforces in addition to its own (e.g. `env-dump`). */
  TOOLSHED_EXTRA_RULES?: string;
  /** `1` lets the shell reach the network in profiles that turn it off (wayland-core). */
  TOOLSHED_SHELL_NETWORK?: string;
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
