// What each profile adds around the one implementation: argument mapping, result shapes,
// guards and rule sets, through the real HTTP API and the real session Durable Object.
import { exports } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { sessionPolicy } from "../../src/policy/rule-sets";
import { PROFILES } from "../../src/profiles";
import type { ToolshedRPC } from "../../src/rpc";
import { api, newSession, tool } from "../helpers";

const call = (id: string, name: string, body: unknown) => api("POST", `/v1/sessions/${id}/tools/${name}`, { body });

// The network test servers (test/net/global-setup.mjs): the site is the one allowed origin.
const SITE = `http://127.0.0.1:${inject("netPorts").site}`;
/** What the Brave stand-in (test/net/search-server.global.mjs) was asked for a query. */
async function braveRequest(q: string): Promise<Record<string, string> | undefined> {
  const seen = (await (await fetch(`${inject("searchServer")}/requests`)).json()) as Array<{ engine: string; query: Record<string, string> }>;
  return seen.find((s) => s.engine === "brave" && s.query["q"] === q)?.query;
}
const descriptionOf = async (id: string, name: string): Promise<string> =>
  (await api("GET", `/v1/sessions/${id}/tools`)).body.tools.find((t: { name: string }) => t.name === name).description;

describe("spacebot-worker", () => {
  it("file reads, writes and lists in the page's shapes", async () => {
    const id = await newSession(undefined, { profile: "spacebot-worker" });
    const w = await tool(id, "file", { operation: "write", path: "out/r.json", content: '{"a":1}\n' });
    expect(w).toMatchObject({ success: true, operation: "write", path: "out/r.json" });
    expect(await tool(id, "file", { operation: "read", path: "out/r.json" })).toMatchObject({ success: true, operation: "read", content: '{"a":1}' });
    const list = await tool(id, "file", { operation: "list", path: "out" });
    expect(list.entries).toEqual([{ name: "r.json", entry_type: "file", size: 8 }]);
    const noDirs = await tool(id, "file", { operation: "write", path: "new/dir/x.txt", content: "x", create_dirs: false });
    expect(noDirs.success).toBe(false);
    expect(noDirs.error).toMatch(/No such file or directory/);
    const missing = await call(id, "file", { operation: "write", path: "x.txt" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/content is required/);
  });

  it("shell, exec and set_status answer with the documented fields", async () => {
    const id = await newSession(undefined, { profile: "spacebot-worker" });
    const sh = await tool(id, "shell", { command: "echo hi" });
    expect(Object.keys(sh)).toEqual(expect.arrayContaining(["success", "exit_code", "stdout", "stderr", "summary"]));
    expect(sh.stdout).toBe("hi\n");
    const ex = await tool(id, "exec", { program: "printenv", args: ["GREETING"], env: [{ key: "GREETING", value: "hello" }] });
    expect(ex.stdout).toBe("hello\n");
    const blocked = await tool(id, "exec", { program: "true", env: [{ key: "LD_PRELOAD", value: "/x.so" }] });
    expect(blocked.denied.rule).toBe("env-loader-hook");
    expect(await tool(id, "set_status", { status: "24/42 tests" })).toMatchObject({ success: true, worker_id: id, status: "24/42 tests" });
  });

  it("read_skill answers content and base_dir, its page's description followed by the session's skills", async () => {
    const id = await newSession(undefined, { profile: "spacebot-worker" });
    expect(await descriptionOf(id, "read_skill")).toMatch(
      /^Read the full content of an installed skill\. Useful for accessing skill instructions, examples, and bundled resources\.\n\nAvailable skills:\n- workspace-report: /,
    );
    const r = await tool(id, "read_skill", { skill_name: "workspace-report" });
    expect(r).toMatchObject({ success: true, base_dir: "/workspace/.skills/workspace-report" });
    expect(r.content).toContain("sh /workspace/.skills/workspace-report/report.sh");
    expect((await tool(id, "read_skill", { skill_name: "nope" })).error).toMatch(/No skill named 'nope'\. Available: workspace-report/);
  });

  it("web_search sends country us by default, the freshness asked, and the count (1-20)", async () => {
    const id = await newSession(undefined, { profile: "spacebot-worker" });
    const r = await tool(id, "web_search", { query: "spacebot default country", count: 2, freshness: "month" });
    expect(r.success).toBe(true);
    expect(r.results).toHaveLength(2);
    expect(Object.keys(r.results[0])).toEqual(expect.arrayContaining(["title", "url", "description"]));
    expect(await braveRequest("spacebot default country")).toMatchObject({ country: "us", freshness: "pm" });
    await tool(id, "web_search", { query: "spacebot country de", country: "de" });
    expect(await braveRequest("spacebot country de")).toMatchObject({ country: "de" });
    for (const bad of [
      { query: "x", count: 21 },
      { query: "x", freshness: "hour" },
      { query: "x", country: "usa" },
    ]) {
      expect((await call(id, "web_search", bad)).status).toBe(400);
    }
  });
});

describe("darix-worker", () => {
  it("refuses edit of a file not read in this run, and allows it after read or write", async () => {
    const id = await newSession(undefined, { profile: "darix-worker" });
    await tool(id, "bash", { command: "printf 'a = 1\\n' > made-by-shell.txt" });
    const refused = await tool(id, "edit", { path: "made-by-shell.txt", old_string: "1", new_string: "2" });
    expect(refused.success).toBe(false);
    expect(refused.error).toMatch(/has not been read in this run. Read it with the read tool first/);
    expect((await tool(id, "read", { path: "made-by-shell.txt" })).output).toBe("     1\ta = 1");
    expect((await tool(id, "edit", { path: "made-by-shell.txt", old_string: "1", new_string: "2" })).success).toBe(true);
    await tool(id, "write", { path: "mine.txt", content: "x" });
    expect((await tool(id, "edit", { path: "mine.txt", old_string: "x", new_string: "y" })).success).toBe(true);
  });

  it("brave_search searches with query and count; fetch_url returns a page's readable text", async () => {
    const id = await newSession(undefined, { profile: "darix-worker" });
    const s = await tool(id, "brave_search", { query: "darix research", count: 3 });
    expect(s.success).toBe(true);
    expect(s.results).toHaveLength(3);
    expect(await braveRequest("darix research")).toBeDefined();
    expect((await call(id, "brave_search", { query: "x", count: 21 })).status).toBe(400);
    const f = await tool(id, "fetch_url", { url: `${SITE}/article.html` });
    expect(f).toMatchObject({ success: true, status: 200, title: "Tidal Clocks of Kelp Forests" });
    expect(f.output).toContain("PERIWINKLE");
    expect(f.output).not.toContain("SCRIPT_SHOULD_NOT_APPEAR");
    expect((await call(id, "fetch_url", {})).body.message).toMatch(/url/);
  });
});

describe("libertai", () => {
  it("edit_file replaces the first occurrence only; list_dir prefixes, directories first", async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    await tool(id, "write_file", { path: "b/x.txt", content: "one one one" });
    await tool(id, "write_file", { path: "a.txt", content: "" });
    expect((await tool(id, "edit_file", { path: "b/x.txt", old_string: "one", new_string: "two" })).success).toBe(true);
    expect((await tool(id, "read_file", { path: "b/x.txt" })).output).toBe("     1\ttwo one one");
    expect((await tool(id, "list_dir", {})).output).toBe("[dir]  b/\n[file] a.txt (0 bytes)");
  });

  it("enforces its deny list, environment dumps included, and the timeout range", async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    expect((await tool(id, "bash", { command: "env | grep HOME" })).denied.rule).toBe("env-dump");
    expect((await tool(id, "bash", { command: "dd if=/dev/zero of=f bs=1K count=10" })).denied.rule).toBe("dd-if");
    expect((await call(id, "bash", { command: "true", timeout: 301 })).status).toBe(400);
  });

  it("web_fetch takes only url, returns text, and refuses private addresses", async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    const r = await tool(id, "web_fetch", { url: `${SITE}/data.json` });
    expect(r.output).toBe('{\n  "name": "kelp",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "depth": {\n    "m": 30\n  }\n}');
    expect((await tool(id, "web_fetch", { url: "http://169.254.169.254/latest/meta-data/" })).success).toBe(false);
    expect((await call(id, "web_fetch", {})).body.message).toMatch(/url/);
  });

  it("web_search counts 1-10, default 5", async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    expect((await tool(id, "web_search", { query: "libertai default count" })).results).toHaveLength(5);
    expect((await tool(id, "web_search", { query: "libertai two", count: 2 })).results).toHaveLength(2);
    const over = await call(id, "web_search", { query: "x", count: 11 });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/count/);
  });

  it("send_file sends a path relative to the workspace, whatever the cwd, and refuses sensitive files", async () => {
    const id = await newSession(undefined, { profile: "libertai", cwd: "/workspace/sub" });
    await tool(id, "write_file", { path: "/workspace/report.md", content: "# done\n" });
    const r = await tool(id, "send_file", { path: "report.md", caption: "the report" });
    expect(r).toMatchObject({ success: true, file: { path: "report.md", size: 7, caption: "the report" } });
    expect(await (await exports.default.fetch(r.file.url)).text()).toBe("# done\n");
    expect((await tool(id, "send_file", { path: ".env" })).denied).toBeDefined();
  });
});

describe("wayland-core", () => {
  it("Read wants absolute paths and deduplicates repeated reads of an unchanged file", async () => {
    const id = await newSession(undefined, { profile: "wayland-core" });
    const rel = await call(id, "Read", { file_path: "notes.txt" });
    expect(rel.status).toBe(400);
    expect(rel.body.message).toMatch(/file_path: must be an absolute path/);
    await tool(id, "Write", { file_path: "/workspace/notes.txt", content: "v1\n" });
    expect((await tool(id, "Read", { file_path: "/workspace/notes.txt" })).output).toBe("     1\tv1");
    const again = await tool(id, "Read", { file_path: "/workspace/notes.txt" });
    expect(again).toMatchObject({ success: true, unchanged: true });
    expect((await tool(id, "Read", { file_path: "/workspace/notes.txt", limit: 1 })).output).toBe("     1\tv1");
    await tool(id, "Bash", { command: "echo v2 > notes.txt" });
    expect((await tool(id, "Read", { file_path: "/workspace/notes.txt" })).output).toBe("     1\tv2");
  });

  it("WebFetch reads a page readable by default, raw with readable false, timeout_ms at most 90000", async () => {
    const id = await newSession(undefined, { profile: "wayland-core" });
    const readable = await tool(id, "WebFetch", { url: `${SITE}/article.html` });
    expect(readable.output).toContain("# Tidal Clocks of Kelp Forests");
    expect(readable.output).not.toContain("<p>");
    expect((await tool(id, "WebFetch", { url: `${SITE}/article.html`, readable: false })).output).toContain("<script>");
    expect((await tool(id, "WebFetch", { url: "file:///etc/passwd" })).success).toBe(false);
    const slow = await call(id, "WebFetch", { url: `${SITE}/article.html`, timeout_ms: 90_001 });
    expect(slow.status).toBe(400);
    expect(slow.body.message).toMatch(/timeout_ms/);
  });

  it("scrubs secret-named session variables, keeps the shell off the network, allows Bash up to 600 s", async () => {
    const env = { OPENAI_API_KEY: "k", GH_TOKEN: "t", APP_SECRET: "s", WAYLAND_VAULT_X: "v", KEEP: "kept" };
    const id = await newSession(undefined, { profile: "wayland-core", env });
    const r = await tool(id, "Bash", { command: 'echo "[$OPENAI_API_KEY$GH_TOKEN$APP_SECRET$WAYLAND_VAULT_X]$KEEP"; env | grep -c KEEP' });
    expect(r.stdout).toBe("[]kept\n1\n");
    expect((await tool(id, "Bash", { command: "curl -s http://127.0.0.1/" })).denied.rule).toBe("shell-network");
    expect((await tool(id, "Bash", { command: "git clone http://127.0.0.1/x.git" })).denied.rule).toBe("shell-network");
    expect((await tool(id, "Bash", { command: "true", timeout: 600 })).success).toBe(true);
    expect((await call(id, "Bash", { command: "true", timeout: 601 })).status).toBe(400);
    // The canonical profile passes the caller's variables through and lets `env | grep` run.
    const t = await newSession(undefined, { env });
    expect((await tool(t, "bash", { command: 'echo "$GH_TOKEN"; env | grep -c KEEP' })).stdout).toBe("t\n1\n");
  });

  it("the operator can turn the shell's network on and add rules to every profile", () => {
    const rules = PROFILES["wayland-core"].rules;
    expect(sessionPolicy(rules).commandRules.has("shell-network")).toBe(true);
    expect(sessionPolicy(rules, { TOOLSHED_SHELL_NETWORK: "1" }).commandRules.has("shell-network")).toBe(false);
    expect(sessionPolicy(PROFILES.toolshed.rules).commandRules.has("env-dump")).toBe(false);
    expect(sessionPolicy(PROFILES.toolshed.rules, { TOOLSHED_EXTRA_RULES: "env-dump" }).commandRules.has("env-dump")).toBe(true);
  });
});

describe("toolshed", () => {
  it("makes test files with dd from /dev/zero and /dev/urandom; a disk stays refused", async () => {
    const id = await newSession();
    const r = await tool(id, "bash", {
      command: "dd if=/dev/zero of=f bs=1K count=10 2>/dev/null && wc -c < f && dd if=/dev/urandom of=/tmp/r bs=512 count=2 status=none && wc -c < /tmp/r",
    });
    expect([r.exit_code, r.stdout, r.denied]).toEqual([0, "10240\n1024\n", undefined]);
    expect((await tool(id, "bash", { command: "dd if=/dev/sda of=disk.img" })).denied.rule).toBe("block-device-write");
  });
});

describe("session creation and least privilege", () => {
  it("a session created with tools [read_file] cannot call bash over HTTP or RPC", async () => {
    const created = await api("POST", "/v1/sessions", { body: { tools: ["read_file"] } });
    expect(created.status).toBe(201);
    expect(created.body.tools).toEqual(["read_file"]);
    const id = created.body.id;
    const r = await call(id, "bash", { command: "echo hi" });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/has no tool 'bash'; its tools are: read_file/);
    const rpc = exports.ToolshedRPC as unknown as Pick<ToolshedRPC, "createSession" | "callTool">;
    // Awaited through then(): an RPC rejection left to expect().rejects is reported as unhandled.
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: Error) => e.message,
      );
    expect(await failure(rpc.callTool("alice", id, "bash", { command: "echo hi" }))).toMatch(/no tool 'bash'/);
    const narrow = await rpc.createSession("alice", { profile: "libertai", tools: ["read_file"] });
    expect(await failure(rpc.callTool("alice", narrow.id, "bash", { command: "echo hi" }))).toMatch(/no tool 'bash'/);
    expect((await rpc.callTool("alice", narrow.id, "read_file", { path: "nothing" })).success).toBe(false);
  });

  it.each([
    [{ profile: "nope" }, /unknown profile 'nope'; choose one of toolshed, spacebot-worker/],
    [{ profile: "libertai", tools: ["Read"] }, /'Read' is not a tool of profile libertai; choose among bash, read_file/],
    [{ profile: "wayland-core", tools: ["ToolSearch", "Task"] }, /'Task' is not a tool of profile wayland-core; choose among Read, Write/],
    [{ tools: [] }, /give at least one tool name/],
    [{ env: { LD_PRELOAD: "/x.so" } }, /env: Refused: LD_PRELOAD/],
    [{ cwd: "../.." }, /cwd: /],
  ])("refuses %j with a message that says what to do", async (body, message) => {
    const r = await api("POST", "/v1/sessions", { body });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
  });

  it("takes null for an optional parameter, as OpenAI strict mode sends it", async () => {
    const id = await newSession();
    const r = await tool(id, "exec", { program: "echo", args: ["ok"], working_dir: null, env: null, timeout_seconds: null });
    expect(r.stdout).toBe("ok\n");
  });
});
