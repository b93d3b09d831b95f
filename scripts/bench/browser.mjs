// Browser benchmark (issue 9): launch, navigate, snapshot and content of a local page through
// the `browser` tool of a real `wrangler dev` (local Browser Rendering = Debian's Chromium).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "../lib/dev-server.mjs";
import { startNetServers } from "../../test/net/servers.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchBrowser(print) {
  const ports = { site: await freePort(), canary: await freePort(), doh: await freePort() };
  const stopServers = await startNetServers(ports);
  const stateDir = mkdtempSync(join(tmpdir(), "toolshed-bench-browser-"));
  const port = await freePort();
  const key = "bench-key";
  const server = await startDevServer({
    port,
    stateDir,
    apiKeys: `bench=${key}`,
    vars: { TOOLSHED_ALLOWED_ORIGINS: `http://127.0.0.1:${ports.site}`, TOOLSHED_DOH_URL: `http://127.0.0.1:${ports.doh}/dns-query` },
  });
  const api = client(port, key);
  const id = (await api("POST", "/v1/sessions", {})).body.id;
  const call = async (args) => {
    const t = performance.now();
    const r = await api("POST", `/v1/sessions/${id}/tools/browser`, args);
    if (r.status !== 200 || !r.body.success) throw new Error(`${args.action}: ${JSON.stringify(r.body).slice(0, 200)}`);
    return { ms: performance.now() - t, body: r.body };
  };
  try {
    print("browser launch (cold Chromium)", (await call({ action: "launch" })).ms, "ms");
    const page = `http://127.0.0.1:${ports.site}/browser/form.html`;
    for (const [label, args] of [
      ["browser navigate to a local form page", { action: "navigate", url: page }],
      ["browser snapshot of that page", { action: "snapshot" }],
      ["browser content of that page", { action: "content" }],
    ]) {
      const times = [];
      for (let i = 0; i < 5; i++) times.push((await call(args)).ms);
      print(label, median(times), "ms", "median of 5");
    }
  } finally {
    await api("POST", `/v1/sessions/${id}/tools/browser`, { action: "close" }).catch(() => undefined);
    await stopDevServer(server);
    await stopServers();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
