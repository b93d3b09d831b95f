import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { networkTestPorts } from "./test/net/ports.mjs";

export default defineConfig(async () => {
  // The network tests' servers (test/net/global-setup.mjs) listen on ports chosen here, so that
  // the Worker's bindings can name them: the site's origin is the one allowed origin, and
  // every host name is resolved by the local DNS-over-HTTPS server.
  const ports = await networkTestPorts();
  return {
    plugins: [
      cloudflareTest(({ inject }) => {
        // Search engine stand-ins started by test/net/search-server.global.mjs.
        const search = inject("searchServer");
        // Dovecot started by test/mail/dovecot.global.mjs; plain IMAP is allowed on 127.0.0.1 only.
        const imap = inject("imapServer");
        // The SCRIPTED model (test/agents/scripted-model.global.mjs) sub-agents talk to.
        const model = inject("scriptedModel");
        // Real MCP servers (test/mcp/remote-servers.global.mjs) sessions attach as remote servers.
        const mcp = inject("mcpRemote");
        return {
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            bindings: {
              TOOLSHED_API_KEYS: "alice=test-key-alice,bob=test-key-bob",
              TOOLSHED_ALLOWED_ORIGINS: `http://127.0.0.1:${ports.site},imap://127.0.0.1:${imap.port},${mcp.origin},${mcp.otherOrigin}`,
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
            },
            serviceBindings: { TOOLSHED_SEARCH_SERVICE: "search-example" },
            workers: [
              { name: "search-example", modules: true, scriptPath: "examples/search-worker/src/index.js", compatibilityDate: "2026-11-24" },
            ],
          },
        };
      }),
    ],
    test: {
      setupFiles: ["test/setup.ts"],
      globalSetup: ["test/net/global-setup.mjs", "test/net/search-server.global.mjs", "test/mail/dovecot.global.mjs", "test/agents/scripted-model.global.mjs", "test/mcp/remote-servers.global.mjs", "test/tools/options/gnu.global.mjs"],
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      testTimeout: 60_000,
    },
  };
});
