import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { TOOLSHED_API_KEYS: "alice=test-key-alice,bob=test-key-bob" },
      },
    }),
  ],
  test: { setupFiles: ["test/setup.ts"], include: ["test/**/*.test.ts", "src/**/*.test.ts"], testTimeout: 60_000 },
});
