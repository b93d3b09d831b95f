// End-to-end MCP check against the real `wrangler dev`: for every profile, both official MCP
// clients (revision 2026-07-28 and 2025) connect over Streamable HTTP to a session's endpoint,
// list its tools and call at least one tool of every family (files, shell, network, browser, mail,
// agents, images, deferred tools); a twin session gets the same calls over the HTTP API, and the
// results must be equal. The agent tools talk to the SCRIPTED model server and email_search to a
// real Dovecot, both started here as the vitest setup starts them. Run by `npm test` after the
// workerd unit tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, freePort, startDevServer, stopDevServer } from "./lib/dev-server.mjs";
import { check, finish } from "./lib/e2e-checks.mjs";
import { connectMcp, ERAS } from "./lib/mcp-clients.mjs";
import startScriptedModel, { SCRIPTED_MODEL_KEY } from "../test/agents/scripted-model.global.mjs";
import startDovecot from "../test/mail/dovecot.global.mjs";

const KEY = "e2e-mcp-key";
const echoAgent = (tools) => `Workflow(name: "w", steps: [Agent(name: "a", prompt: "[script:echo] go", tools: ${JSON.stringify(tools)})])`;

// One call of every tool of each profile, in an order that makes each meaningful.
const CALLS = {
  toolshed: [
    ["write_file", { path: "src/a.txt", content: "alpha\nbeta\n" }],
    ["read_file", { path: "src/a.txt" }],
    ["edit_file", { path: "src/a.txt", old_string: "beta", new_string: "gamma" }],
    ["list_dir", { path: "src" }],
    ["grep", { pattern: "gamma" }],
    ["glob", { pattern: "**/*.txt" }],
    ["bash", { command: "wc -l < src/a.txt; env | grep -c HOME" }],
    ["exec", { program: "cat", args: ["src/a.txt"] }],
    ["set_status", { status: "e2e over MCP" }],
    ["read_skill", { skill_name: "workspace-report" }],
    // refused by the URL policy before anything leaves the Worker, so the same answer offline
    ["web_fetch", { url: "http://169.254.169.254/latest/meta-data/" }],
    // no remote MCP server is attached: the same "no deferred tools" answer by both doors
    ["tool_search", { query: "add" }],
    ["email_search", { query: "FROM alice@example.com" }],
    ["browser", { action: "launch" }],
    ["browser", { action: "close" }],
    ["send_file", { path: "src/a.txt", caption: "a" }],
    ["generate_image", { prompt: "a red square", size: "64x64" }],
    ["delegate", { tasks: [{ prompt: "[script:echo] sum up", tools: ["read_file"] }] }],
    ["workflow", { workflow: echoAgent(["read_file"]) }],
    // last: its result may arrive as a pending message on the next call, at a time of its own
    ["spawn", { task: "[script:echo] later", tools: ["read_file"] }],
  ],
  "spacebot-worker": [
    ["file", { operation: "write", path: "out/r.json", content: '{"ok":true}' }],
    ["file", { operation: "read", path: "out/r.json" }],
    ["file", { operation: "list", path: "out" }],
    ["shell", { command: "cat out/r.json" }],
    ["exec", { program: "printenv", args: ["X"], env: [{ key: "X", value: "1" }] }],
    ["set_status", { status: "24/42 tests" }],
    ["email_search", { query: "FROM bob@example.org", max_results: 1 }],
    ["browser", { action: "launch" }],
    ["browser", { action: "close" }],
  ],
  "darix-worker": [
    ["write", { path: "d.txt", content: "x = 1\n" }],
    ["read", { path: "d.txt" }],
    ["edit", { path: "d.txt", old_string: "1", new_string: "2" }],
    ["bash", { command: "cat d.txt" }],
    ["fetch_url", { url: "http://169.254.169.254/" }],
    ["spawn_worker", { systemPrompt: "You check files.", tools: ["read"], initialMessage: "[script:echo] check d.txt" }],
  ],
  libertai: [
    ["write_file", { path: "l/x.txt", content: "one one" }],
    ["read_file", { path: "l/x.txt" }],
    ["edit_file", { path: "l/x.txt", old_string: "one", new_string: "two" }],
    ["list_dir", {}],
    ["bash", { command: "cat l/x.txt; env | wc -l", timeout: 10 }],
    ["web_fetch", { url: "http://127.0.0.1:1/" }],
    ["send_file", { path: "l/x.txt" }],
    ["generate_image", { prompt: "a cat", size: "32x48" }],
    ["spawn", { task: "[script:echo] hi" }],
  ],
  "wayland-core": [
    ["Write", { file_path: "/workspace/w.rs", content: "fn main() {}\n" }],
    ["Read", { file_path: "/workspace/w.rs" }],
    ["Read", { file_path: "/workspace/w.rs" }],
    ["Edit", { file_path: "/workspace/w.rs", old_string: "main", new_string: "start" }],
    ["Grep", { pattern: "start", glob: "*.rs" }],
    ["Glob", { pattern: "**/*.rs" }],
    ["Bash", { command: "cat w.rs; curl -s http://127.0.0.1/" }],
    ["WebFetch", { url: "http://[::ffff:10.0.0.1]/" }],
    ["ToolSearch", { query: "add" }],
    ["Delegate", { tasks: [{ prompt: "[script:echo] go", toolsets: ["Read"] }] }],
    ["Spawn", { tasks: [{ prompt: "[script:echo] go" }] }],
    ["Workflow", { workflow: echoAgent(["Read"]) }],
  ],
};

/**
 * A result without what differs between two runs: timings, the session's own id, random ids
 * (tasks, images, outbox entries) and the outbox links' signatures and expiry times.
 */
function comparable(result, sessionId) {
  const text = JSON.stringify(result)
    .replaceAll(sessionId, "SESSION")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "UUID")
    .replace(/\b[0-9a-f]{24}\b/g, "ENTRY")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "TIME")
    .replace(/([?&](?:sig|signature|expires|exp|token)=)[^&"\\]+/g, "$1X");
  const r = JSON.parse(text);
  delete r.duration_ms;
  if (typeof r.summary === "string") r.summary = r.summary.replace(/\d+ ms/, "N ms");
  return r;
}

const state = mkdtempSync(join(tmpdir(), "toolshed-e2e-mcp-"));
let server;
/** Stops the model and mail servers. */
const stops = [];
try {
  const port = await freePort();
  const provided = {};
  const project = { provide: (key, value) => (provided[key] = value) };
  stops.push(await startScriptedModel(project), await startDovecot(project));
  const imap = provided.imapServer;
  server = await startDevServer({
    port,
    stateDir: state,
    apiKeys: `alice=${KEY}`,
    vars: {
      TOOLSHED_LLM_URL: `${provided.scriptedModel}/v1`,
      TOOLSHED_LLM_API_KEY: SCRIPTED_MODEL_KEY,
      TOOLSHED_LLM_MODEL: "scripted-model",
      TOOLSHED_IMAGE_MODEL: "scripted-image-model",
      TOOLSHED_IMAP_HOST: "127.0.0.1",
      TOOLSHED_IMAP_PORT: String(imap.port),
      TOOLSHED_IMAP_USER: imap.user,
      TOOLSHED_IMAP_PASSWORD: imap.password,
      TOOLSHED_IMAP_TLS: "off",
      TOOLSHED_ALLOWED_ORIGINS: `imap://127.0.0.1:${imap.port}`,
    },
  });
  const http = client(port, KEY);
  for (const [profile, calls] of Object.entries(CALLS)) {
    for (const era of ERAS) {
      const twin = (await http("POST", "/v1/sessions", { profile })).body;
      const session = (await http("POST", "/v1/sessions", { profile })).body;
      const mcp = await connectMcp(era, `http://127.0.0.1:${port}/v1/sessions/${session.id}/mcp`, KEY);
      const listed = (await mcp.listTools()).map((t) => t.name);
      check(`${profile} ${era}: tools/list is the session's tools`, JSON.stringify(listed) === JSON.stringify(session.tools), `${listed} vs ${session.tools}`);
      for (const [name, args] of calls) {
        const viaHttp = (await http("POST", `/v1/sessions/${twin.id}/tools/${name}`, args)).body;
        const viaMcp = await mcp.callTool(name, args);
        const a = comparable(viaHttp, twin.id);
        const b = comparable(viaMcp.structuredContent, session.id);
        const same = JSON.stringify(a) === JSON.stringify(b) && viaMcp.isError === !viaHttp.success;
        check(`${profile} ${era}: ${name} ${JSON.stringify(args).slice(0, 60)}`, same, `\n  http: ${JSON.stringify(a)}\n  mcp:  ${JSON.stringify(b)}`);
      }
      await mcp.close();
    }
  }

  for (const era of ERAS) {
    const narrow = (await http("POST", "/v1/sessions", { tools: ["read_file"] })).body;
    const mcp = await connectMcp(era, `http://127.0.0.1:${port}/v1/sessions/${narrow.id}/mcp`, KEY);
    const names = (await mcp.listTools()).map((t) => t.name);
    const refused = await mcp.callTool("bash", { command: "echo hi" }).then(
      () => null,
      (e) => String(e?.message ?? e),
    );
    check(
      `${era}: tools [read_file] lists only read_file and cannot call bash`,
      names.join() === "read_file" && /no tool 'bash'/.test(refused ?? ""),
      `${names} / ${refused}`,
    );
    const viaHttp = await http("POST", `/v1/sessions/${narrow.id}/tools/bash`, { command: "echo hi" });
    check(`${era}: ... nor over HTTP`, viaHttp.status === 404, JSON.stringify(viaHttp));
    const seen = [];
    const wide = (await http("POST", "/v1/sessions", {})).body;
    const progressClient = await connectMcp(era, `http://127.0.0.1:${port}/v1/sessions/${wide.id}/mcp`, KEY);
    const long = await progressClient.callTool("bash", { command: "sleep 2.5; echo done" }, (p) => seen.push(p.progress));
    check(`${era}: progress during a long call`, long.structuredContent?.stdout === "done\n" && seen.length >= 2, `${seen} ${JSON.stringify(long)}`);
    await progressClient.close();
    await mcp.close();
  }
  const noKey = await fetch(`http://127.0.0.1:${port}/v1/sessions/${"0".repeat(32)}/mcp`, { method: "POST", body: "{}" });
  check("no API key: 401", noKey.status === 401);
} catch (e) {
  check("e2e mcp run", false, String(e?.stack ?? e));
} finally {
  if (server) await stopDevServer(server);
  for (const stop of stops) await stop();
  rmSync(state, { recursive: true, force: true });
}
finish();
