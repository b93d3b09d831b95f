// End-to-end check against the real `wrangler dev` (workerd) with on-disk state:
// two tenants, every file tool over HTTP, then a restart of the server, and the files remain.
// Run by `npm test` after the workerd unit tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "./lib/dev-server.mjs";
import { check, finish } from "./lib/e2e-checks.mjs";

const state = mkdtempSync(join(tmpdir(), "toolshed-e2e-"));
const K1 = "e2e-alice-key";
const K2 = "e2e-bob-key";

const startServer = (port) => startDevServer({ port, stateDir: state, apiKeys: `alice=${K1},bob=${K2}` });
const stopServer = stopDevServer;

const call = client;

try {
  const port = await freePort();
  let server = await startServer(port);
  let alice = call(port, K1);
  const bob = call(port, K2);
  const created = await alice("POST", "/v1/sessions", {});
  check("alice creates a session", created.status === 201, JSON.stringify(created));
  const id = created.body.id;
  const t = (name, args) => alice("POST", `/v1/sessions/${id}/tools/${name}`, args);
  check("write_file", (await t("write_file", { path: "src/app.ts", content: "export const answer = 41;\n" })).body.success);
  check("edit_file", (await t("edit_file", { path: "src/app.ts", old_string: "41", new_string: "42" })).body.success);
  check("read_file", (await t("read_file", { path: "src/app.ts" })).body.output === "     1\texport const answer = 42;");
  check("list_dir", (await t("list_dir", {})).body.entries?.[0]?.name === "src");
  check("grep", (await t("grep", { pattern: "answer" })).body.output === "src/app.ts:1:export const answer = 42;");
  check("glob", (await t("glob", { pattern: "**/*.ts" })).body.files?.[0] === "src/app.ts");
  check("set_status", (await t("set_status", { status: "e2e" })).body.success);
  check("bob gets 404", (await bob("GET", `/v1/sessions/${id}`)).status === 404);
  check("bob cannot use alice's tools", (await bob("POST", `/v1/sessions/${id}/tools/read_file`, { path: "src/app.ts" })).status === 404);

  await stopServer(server);
  server = await startServer(port);
  alice = call(port, K1);
  const after = await alice("POST", `/v1/sessions/${id}/tools/read_file`, { path: "src/app.ts" });
  check("files survive a restart of wrangler dev", after.body.output === "     1\texport const answer = 42;", JSON.stringify(after.body));
  check("status survives a restart", (await alice("GET", `/v1/sessions/${id}`)).body.status === "e2e");
  await stopServer(server);
} catch (e) {
  check("e2e run", false, String(e?.stack ?? e));
} finally {
  rmSync(state, { recursive: true, force: true });
}
finish();
