// The Worker's bindings and variables, as wrangler.toml and .dev.vars declare them.
interface Env {
  SESSIONS: DurableObjectNamespace<import("../durable-objects/session").SessionDO>;
  /** Each tenant's index of its sessions (durable-objects/tenant.ts), for listings. */
  TENANTS: DurableObjectNamespace<import("../durable-objects/tenant").TenantDO>;
  /** The inspector page's static files (public/). */
  ASSETS: Fetcher;
  /** HMAC key of the inspector's login cookie (a secret); derived from TOOLSHED_API_KEYS when unset. */
  TOOLSHED_COOKIE_SECRET?: string;
  /** Comma-separated `tenant=key` pairs. Fail closed when empty. */
  TOOLSHED_API_KEYS?: string;
  /** Comma-separated extra sensitive-file globs (never readable by any tool). */
  TOOLSHED_SENSITIVE_GLOBS?: string;
  /** Retention of automatic checkpoints: "calls=50,hours=24,bytes=N" or "off" (docs/checkpoints.md). */
  TOOLSHED_CHECKPOINTS?: string;
  /** Workspace quotas; defaults in src/policy/limits.ts. */
  TOOLSHED_QUOTA_BYTES?: string;
  TOOLSHED_QUOTA_FILES?: string;
  /** Largest request body accepted by JSON endpoints, in bytes. */
  TOOLSHED_MAX_JSON_BYTES?: string;
  /** web_search engines and their settings (src/net/search/config.ts, docs/search.md). */
  TOOLSHED_SEARCH_PROVIDERS?: string;
  BRAVE_SEARCH_API_KEY?: string;
  TOOLSHED_BRAVE_URL?: string;
  TOOLSHED_SEARXNG_URL?: string;
  TOOLSHED_DUCKDUCKGO_URL?: string;
  TOOLSHED_SEARCH_TIMEOUT_MS?: string;
  /** A Worker implementing the search contract (docs/search.md, "Search through a service binding"). */
  TOOLSHED_SEARCH_SERVICE?: Fetcher;
  /** HMAC key of send_file's download links (a secret); derived from TOOLSHED_API_KEYS when unset. */
  TOOLSHED_SIGNING_KEY?: string;
  /** How long sent files and their links last, in seconds (default 1 day, at most 7). */
  TOOLSHED_OUTBOX_TTL_SECONDS?: string;
  /** The API's public origin for links in results; default the origin each request came in on. */
  TOOLSHED_PUBLIC_URL?: string;
  /** Network door (src/policy/urls/): comma-separated host globs allowed / refused by every network tool. */
  TOOLSHED_URL_ALLOW?: string;
  TOOLSHED_URL_DENY?: string;
  /** Comma-separated origins exempt from the address rules (local services, tests). */
  TOOLSHED_ALLOWED_ORIGINS?: string;
  /** DNS-over-HTTPS (application/dns-json) resolver every host name is looked up with. */
  TOOLSHED_DOH_URL?: string;
  /** Comma-separated command rule ids every profile enforces in addition to its own (e.g. `env-dump`). */
  TOOLSHED_EXTRA_RULES?: string;
  /** email_search's mailbox (src/net/imap/config.ts, docs/email.md); the password is a secret. */
  TOOLSHED_IMAP_HOST?: string;
  TOOLSHED_IMAP_PORT?: string;
  TOOLSHED_IMAP_USER?: string;
  TOOLSHED_IMAP_PASSWORD?: string;
  /** on (implicit TLS, default), starttls, or off (plain: only for a local server the operator exempts). */
  TOOLSHED_IMAP_TLS?: string;
  /** `1` lets the shell reach the network in profiles that turn it off (wayland-core). */
  TOOLSHED_SHELL_NETWORK?: string;
  /** Browser Rendering (wrangler.toml `[browser]`); the browser tool is "not supported" without it. */
  BROWSER?: Fetcher;
  /** `1` enables the browser tool's `evaluate` action. */
  TOOLSHED_BROWSER_EVALUATE?: string;
  TOOLSHED_BROWSER_IDLE_SECONDS?: string;
  /** `1` serves the operator's consistency check of a session's tables (`GET /v1/sessions/:id/consistency`). */
  TOOLSHED_CONSISTENCY_CHECK?: string;
  /** Sub-agents' model (src/agents/model/): an OpenAI-compatible chat-completions base URL, its key (a secret), the model. */
  TOOLSHED_LLM_URL?: string;
  TOOLSHED_LLM_API_KEY?: string;
  TOOLSHED_LLM_MODEL?: string;
  /** How long one model call may take, in milliseconds (default 120,000). */
  TOOLSHED_LLM_TIMEOUT_MS?: string;
  /** Remote MCP servers sessions may attach (src/mcp/client/config.ts): JSON `{name: {url, headers_secret?, bearer_secret?}}`. */
  TOOLSHED_MCP_SERVERS?: string;
  /** `git` credentials by origin (src/tools/git/http.ts): JSON `{"https://host": "user:token"}`; sent only to that origin, never shown. */
  TOOLSHED_GIT_CREDENTIALS?: string;
  /** How long one exchange with a remote MCP server may take, in milliseconds (default 30,000). */
  TOOLSHED_MCP_TIMEOUT_MS?: string;
  /** generate_image's model, at TOOLSHED_LLM_URL's `/images/generations` (or the Workers AI model with AI bound). */
  TOOLSHED_IMAGE_MODEL?: string;
  /** Workers AI; when bound, sub-agents use it directly instead of TOOLSHED_LLM_URL. */
  AI?: import("./agents/model/config").AiBinding;
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
