// The Worker the vitest suites run in (wrangler.toml plus the bindings the tests need), shared by
// vitest.config.ts (every suite, with the servers its globalSetup starts) and vitest.unit.config.ts
// (the inner loop: no servers, so the addresses below point nowhere and those suites are left out).

/**
 * `servers`: where the global setups' servers listen (see vitest.config.ts); `ports`: the network
 * tests' site and DNS-over-HTTPS ports (test/net/ports.mjs).
 */
export function workerOptions({ ports, search, imap, model, mcp, git }) {
  return {
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: {
        TOOLSHED_API_KEYS: "alice=test-key-alice,bob=test-key-bob",
        TOOLSHED_ALLOWED_ORIGINS: `http://127.0.0.1:${ports.site},imap://127.0.0.1:${imap.port},${mcp.origin},${mcp.otherOrigin},${git.origin}`,
        TOOLSHED_DOH_URL: `http://127.0.0.1:${ports.doh}/dns-query`,
        TOOLSHED_URL_DENY: "*.denied-by-operator.test",
        TOOLSHED_SEARCH_PROVIDERS: "brave,searxng,duckduckgo,service",
        BRAVE_SEARCH_API_KEY: "test-brave-key",
        TOOLSHED_BRAVE_URL: `${search}/brave/ok`,
        TOOLSHED_SEARXNG_URL: `${search}/searxng/partial`,
        TOOLSHED_DUCKDUCKGO_URL: `${search}/ddg/ratelimited`,
        TOOLSHED_SEARCH_TIMEOUT_MS: "3000",
        TOOLSHED_IMAP_HOST: "127.0.0.1",
        TOOLSHED_IMAP_PORT: String(imap.port),
        TOOLSHED_IMAP_USER: imap.user,
        TOOLSHED_IMAP_PASSWORD: imap.password,
        TOOLSHED_IMAP_TLS: "off",
        TOOLSHED_LLM_URL: `${model}/v1`,
        TOOLSHED_LLM_API_KEY: "test-llm-key",
        TOOLSHED_LLM_MODEL: "scripted-model",
        TOOLSHED_IMAGE_MODEL: "scripted-image-model",
        TOOLSHED_LLM_TIMEOUT_MS: "4000",
        TOOLSHED_MCP_SERVERS: JSON.stringify({
          calc: { url: `${mcp.origin}/calc`, bearer_secret: "TEST_MCP_CALC_TOKEN" },
          notes: { url: `${mcp.origin}/notes`, headers_secret: "TEST_MCP_NOTES_HEADERS" },
          metadata: { url: "http://169.254.169.254/mcp" },
          hop: { url: `${mcp.origin}/to-metadata` },
          webpage: { url: `${mcp.origin}/not-mcp` },
          nokey: { url: `${mcp.origin}/calc` },
          moved: { url: `${mcp.origin}/moved`, bearer_secret: "TEST_MCP_CALC_TOKEN" },
        }),
        TEST_MCP_CALC_TOKEN: mcp.calcToken,
        TEST_MCP_NOTES_HEADERS: JSON.stringify({ "x-notes-key": mcp.notesKey }),
        TOOLSHED_MCP_TIMEOUT_MS: "4000",
        TOOLSHED_GIT_CREDENTIALS: JSON.stringify({ [git.origin]: "agent:s3cret-push" }),
      },
      serviceBindings: { TOOLSHED_SEARCH_SERVICE: "search-example" },
      workers: [{ name: "search-example", modules: true, scriptPath: "examples/search-worker/src/index.js", compatibilityDate: "2026-11-24" }],
    },
  };
}
