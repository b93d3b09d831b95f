// The network benchmarks' setup: the test site, canary and DoH servers on 127.0.0.1 and a real
// `wrangler dev` whose URL policy allows the site, for the length of `fn(api, site)`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "../lib/dev-server.mjs";
import { startNetServers } from "../../test/net/servers.mjs";

export async function withSiteAndWorker(name, fn) {
  const ports = { site: await freePort(), canary: await freePort(), doh: await freePort() };
  const stopServers = await startNetServers(ports);
  const stateDir = mkdtempSync(join(tmpdir(), `toolshed-bench-${name}-`));
  const port = await freePort();
  const key = "bench-key";
  const server = await startDevServer({
    port,
    stateDir,
    apiKeys: `bench=${key}`,
    vars: { TOOLSHED_ALLOWED_ORIGINS: `http://127.0.0.1:${ports.site}`, TOOLSHED_DOH_URL: `http://127.0.0.1:${ports.doh}/dns-query` },
  });
  try {
    return await fn(client(port, key), `http://127.0.0.1:${ports.site}`);
  } finally {
    await stopDevServer(server);
    await stopServers();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
