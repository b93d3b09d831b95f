import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { freePort } from "./test/net/servers.ts";

export default defineConfig(async () => {
  // The network tests' servers (test/net/global-setup.ts) listen on ports chosen here, so that
  // the Worker's bindings can name them: the site's origin is the one allowed origin, and
  // every host name is resolved by the local DNS-over-HTTPS server.
  const ports = process.env.TOOLSHED_TEST_NET_PORTS
    ? (JSON.parse(process.env.TOOLSHED_TEST_NET_PORTS) as { site: number; canary: number; doh: number })
    : { site: await freePort(), canary: await freePort(), doh: await freePort() };
  process.env.TOOLSHED_TEST_NET_PORTS = JSON.stringify(ports);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TOOLSHED_API_KEYS: "alice=test-key-alice,bob=test-key-bob",
            TOOLSHED_ALLOWED_ORIGINS: `http://127.0.0.1:${ports.site}`,
            TOOLSHED_DOH_URL: `http://127.0.0.1:${ports.doh}/dns-query`,
            TOOLSHED_URL_DENY: "*.denied-by-operator.test",
          },
        },
      }),
    ],
    test: {
      setupFiles: ["test/setup.ts"],
      globalSetup: ["test/net/global-setup.ts"],
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      testTimeout: 60_000,
    },
  };
});
