// End-to-end check against the real `wrangler dev` (workerd) with on-disk state:
// two tenants, every file tool over HTTP, then a restart of the server, and the files remain.
// Run by `npm test` after the workerd unit tests.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const state = mkdtempSync(join(tmpdir(), "toolshed-e2e-"));
const K1 = "e2e-alice-key";
const K2 = "e2e-bob-key";
let passed = 0;
let failed = 0;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startServer(port) {
  const child = spawn(
    "npx",
    ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state, "--var", `TOOLSHED_API_KEYS:alice=${K1},bob=${K2}`, "--show-interactive-dev-session=false"],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/v1/tools`, { headers: { authorization: `Bearer ${K1}` } });
      if (r.status === 200) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  process.kill(-child.pid, "SIGKILL");
  throw new Error(`wrangler dev did not start:\n${log}`);
}

async function stopServer(child) {
  const exited = new Promise((r) => child.on("exit", r));
  process.kill(-child.pid, "SIGINT");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
}

function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : ` ${detail}`}`);
}

const call = (port, key) => async (method, path, body) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  try {
    return { status: r.status, body: JSON.parse(text) };
  } catch {
    return { status: r.status, body: text };
  }
};

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
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
