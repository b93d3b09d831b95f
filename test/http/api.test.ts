import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { api, BOB, newSession, tool } from "../helpers";

describe("auth", () => {
  it("refuses requests without a key, with a wrong key, and with a malformed header", async () => {
    for (const key of [null, "nope", ""]) {
      const r = await api("GET", "/v1/tools", { key });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe("unauthorized");
    }
    const r = await api("GET", "/v1/tools", { key: null, headers: { authorization: "Basic abc" } });
    expect(r.status).toBe(401);
  });

  it("hides a session from every other tenant", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "secret.txt", content: "alice only" });
    expect((await api("GET", `/v1/sessions/${id}`, { key: BOB })).status).toBe(404);
    expect((await api("POST", `/v1/sessions/${id}/tools/read_file`, { key: BOB, body: { path: "secret.txt" } })).status).toBe(404);
    expect((await api("GET", `/v1/sessions/${id}/files/secret.txt`, { key: BOB })).status).toBe(404);
    expect((await api("DELETE", `/v1/sessions/${id}`, { key: BOB })).status).toBe(404);
    // Still intact for its owner.
    expect((await tool(id, "read_file", { path: "secret.txt" })).output).toContain("alice only");
  });

  it("answers 404 for ids that do not exist or are malformed", async () => {
    expect((await api("GET", "/v1/sessions/0123456789abcdef0123456789abcdef")).status).toBe(404);
    expect((await api("GET", "/v1/sessions/../../etc")).status).toBe(404);
    expect((await api("GET", "/v1/sessions/xyz")).status).toBe(404);
  });
});

describe("sessions", () => {
  it("creates, describes and deletes a session", async () => {
    const created = await api("POST", "/v1/sessions", { body: { profile: "toolshed" } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body.cwd).toBe("/workspace");
    const id = created.body.id;
    await tool(id, "write_file", { path: "a.txt", content: "hello" });
    await tool(id, "set_status", { status: "Working on it" });
    const info = await api("GET", `/v1/sessions/${id}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ id, profile: "toolshed", cwd: "/workspace", status: "Working on it" });
    expect(info.body.usage).toMatchObject({ bytes: 5, files: 1, toolCalls: 2 });
    expect(Date.parse(info.body.createdAt)).toBeGreaterThan(0);
    expect((await api("DELETE", `/v1/sessions/${id}`)).status).toBe(200);
    expect((await api("GET", `/v1/sessions/${id}`)).status).toBe(404);
    expect((await api("GET", `/v1/sessions/${id}/files/a.txt`)).status).toBe(404);
  });

  it("gives each session its own workspace", async () => {
    const a = await newSession();
    const b = await newSession();
    await tool(a, "write_file", { path: "only-a.txt", content: "x" });
    expect((await tool(b, "read_file", { path: "only-a.txt" })).success).toBe(false);
  });

  it("validates the create body", async () => {
    const r = await api("POST", "/v1/sessions", { body: { profile: "nonsense" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("profile");
    const cwd = await api("POST", "/v1/sessions", { body: { cwd: "../etc" } });
    expect(cwd.status).toBe(400);
    expect(cwd.body.message).toContain("cwd");
  });

  it("starts in the requested working directory", async () => {
    const r = await api("POST", "/v1/sessions", { body: { cwd: "project" } });
    expect(r.body.cwd).toBe("/workspace/project");
    await tool(r.body.id, "write_file", { path: "x.txt", content: "1" });
    expect((await tool(r.body.id, "read_file", { path: "/workspace/project/x.txt" })).success).toBe(true);
  });
});

describe("tools endpoint", () => {
  it("lists every tool with a JSON Schema derived from zod", async () => {
    const r = await api("GET", "/v1/tools");
    expect(r.status).toBe(200);
    const names = r.body.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read_file", "write_file", "edit_file", "list_dir", "grep", "glob", "set_status"]));
    const read = r.body.tools.find((t: { name: string }) => t.name === "read_file");
    expect(read.parameters.type).toBe("object");
    expect(read.parameters.required).toEqual(["path"]);
    expect(read.parameters.properties.offset.type).toBe("integer");
  });

  it("answers 400 naming the field for wrong types and missing fields", async () => {
    const id = await newSession();
    let r = await api("POST", `/v1/sessions/${id}/tools/read_file`, { body: { path: 42 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/path/);
    r = await api("POST", `/v1/sessions/${id}/tools/write_file`, { body: { path: "a" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/content/);
    r = await api("POST", `/v1/sessions/${id}/tools/read_file`, { body: { path: "a", offset: 0 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/offset/);
  });

  it("answers 400 for malformed JSON and 413 for oversized bodies", async () => {
    const id = await newSession();
    let r = await api("POST", `/v1/sessions/${id}/tools/read_file`, { raw: "{not json", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("malformed_json");
    const big = JSON.stringify({ path: "big.txt", content: "x".repeat(11 * 1024 * 1024) });
    r = await api("POST", `/v1/sessions/${id}/tools/write_file`, { raw: big });
    expect(r.status).toBe(413);
    // The session is fine afterwards.
    expect((await tool(id, "list_dir", {})).success).toBe(true);
  });

  it("answers 404 for unknown tools and endpoints", async () => {
    const id = await newSession();
    expect((await api("POST", `/v1/sessions/${id}/tools/launch_rockets`, { body: {} })).status).toBe(404);
    expect((await api("GET", "/v2/whatever")).status).toBe(404);
  });

  it("serves the consistency check only when the operator sets TOOLSHED_CONSISTENCY_CHECK=1", async () => {
    const id = await newSession();
    const r = await api("GET", `/v1/sessions/${id}/consistency`);
    expect(r.status).toBe(404);
    expect(r.body.error).toBe("not_found");
    // What the endpoint answers when on (the fuzz and the killed-server run call it over HTTP).
    await tool(id, "write_file", { path: "a/b.txt", content: "x".repeat(300_000) });
    expect(await sessionStub(env, "alice", id).consistency()).toEqual({ problems: [], pendingUploads: 0 });
  });
});
