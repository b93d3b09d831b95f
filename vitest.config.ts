import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => {
      // Search engine stand-ins started by test/net/search-server.global.mjs.
      const search = inject("searchServer");
      return {
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TOOLSHED_API_KEYS: "alice=test-key-alice,bob=test-key-bob",
            TOOLSHED_SEARCH_PROVIDERS: "brave,searxng,duckduckgo,service",
            BRAVE_SEARCH_API_KEY: "test-brave-key",
            TOOLSHED_BRAVE_URL: `${search}/brave/ok`,
            TOOLSHED_SEARXNG_URL: `${search}/searxng/partial`,
            TOOLSHED_DUCKDUCKGO_URL: `${search}/ddg/ratelimited`,
            TOOLSHED_SEARCH_TIMEOUT_MS: "3000",
          },
          serviceBindings: { TOOLSHED_SEARCH_SERVICE: "search-example" },
          workers: [
            { name: "search-example", modules: true, scriptPath: "examples/search-worker/src/index.js", compatibilityDate: "2026-04-01" },
          ],
        },
      };
    }),
  ],
  test: {
    globalSetup: ["test/net/search-server.global.mjs"],
    setupFiles: ["test/setup.ts"],
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 60_000,
  },
});
