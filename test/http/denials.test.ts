import { describe, expect, it } from "vitest";
import { api, newSession, tool } from "../helpers";

const TRAVERSALS = ["../etc/passwd", "../../../../etc/passwd", "/etc/passwd", "/workspace/../etc/passwd", "a/../../..", "/workspace2/x", "x\0y", `${"d/".repeat(200)}f`];

describe("policy refusals through the tools", () => {
  it("refuses every traversal attempt in every file tool with `denied`", async () => {
    const id = await newSession();
    for (const path of TRAVERSALS) {
      for (const [name, args] of [
        ["read_file", { path }],
        ["write_file", { path, content: "pwned" }],
        ["edit_file", { path, old_string: "a", new_string: "b" }],
        ["list_dir", { path }],
        ["grep", { pattern: "root", path }],
        ["glob", { pattern: "*", path }],
      ] as const) {
        const r = await tool(id, name, args);
        expect(r.success, `${name} ${JSON.stringify(path)}`).toBe(false);
        expect(r.denied?.rule, `${name} ${JSON.stringify(path)}`).toMatch(/^path-/);
      }
    }
    // Nothing was created anywhere.
    expect((await api("GET", `/v1/sessions/${id}`)).body.usage.files).toBe(0);
  });

  it("never reads sensitive files, through any door", async () => {
    const id = await newSession();
    for (const name of [".env", "config/.env.local", "agent.db", "agent.db-wal", "agent.db-shm"]) {
      await tool(id, "write_file", { path: name, content: "SECRET=hunter2" });
      const r = await tool(id, "read_file", { path: name });
      expect(r.denied).toEqual({ rule: "sensitive-file", reason: expect.stringContaining("protected") });
      expect(JSON.stringify(r)).not.toContain("hunter2");
      const edit = await tool(id, "edit_file", { path: name, old_string: "SECRET", new_string: "X" });
      expect(edit.denied?.rule).toBe("sensitive-file");
      const dl = await api("GET", `/v1/sessions/${id}/files/${name}`);
      expect(dl.status).toBe(403);
      expect(dl.body.denied.rule).toBe("sensitive-file");
    }
    const g = await tool(id, "grep", { pattern: "hunter2" });
    expect(g.output).toBe("No matches found.");
  });

  it("keeps identity files readable but unchangeable", async () => {
    const id = await newSession();
    await api("PUT", `/v1/sessions/${id}/files/SOUL.md`, { raw: "I am helpful." }).then((r) => expect(r.status).toBe(403));
    // Seed it the only way possible in a test: through the workspace before the policy, i.e. not at all.
    // Identity files are provisioned by operators; here we check every door refuses changes.
    for (const name of ["SOUL.md", "IDENTITY.md", "USER.md", "team/USER.md"]) {
      const w = await tool(id, "write_file", { path: name, content: "evil" });
      expect(w.denied?.rule).toBe("identity-file");
      const e = await tool(id, "edit_file", { path: name, old_string: "a", new_string: "b" });
      expect(e.denied?.rule).toBe("identity-file");
      const d = await api("DELETE", `/v1/sessions/${id}/files/${name}`);
      expect(d.status).toBe(403);
    }
  });

  it("records every refusal with its rule in the session log", async () => {
    const id = await newSession();
    await tool(id, "read_file", { path: "/etc/passwd" });
    await tool(id, "write_file", { path: "SOUL.md", content: "x" });
    await api("GET", `/v1/sessions/${id}/files/.env`);
    const log = await api("GET", `/v1/sessions/${id}/log`);
    const denied = log.body.calls.filter((c: { outcome: string }) => c.outcome === "denied");
    expect(denied.map((c: { denied: { rule: string } }) => c.denied.rule).sort()).toEqual(["identity-file", "path-outside-workspace", "sensitive-file"]);
    expect(denied.every((c: { tool: string; started: number; durationMs: number }) => c.tool && c.started > 0 && c.durationMs >= 0)).toBe(true);
  });
});

describe("files endpoint", () => {
  it("uploads, downloads and deletes raw bytes", async () => {
    const id = await newSession();
    const bytes = new Uint8Array(1000).map((_, i) => (i * 7) & 0xff);
    const put = await api("PUT", `/v1/sessions/${id}/files/data/blob.bin`, { raw: bytes });
    expect(put.status).toBe(201);
    expect(put.body).toEqual({ path: "data/blob.bin", size: 1000 });
    const res = await (await import("cloudflare:workers")).exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/files/data/blob.bin`, {
      headers: { authorization: "Bearer test-key-alice" },
    });
    expect(res.headers.get("content-length")).toBe("1000");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect((await api("DELETE", `/v1/sessions/${id}/files/data`)).status).toBe(409);
    expect((await api("DELETE", `/v1/sessions/${id}/files/data?recursive=1`)).status).toBe(200);
    expect((await api("GET", `/v1/sessions/${id}/files/data/blob.bin`)).status).toBe(404);
  });

  it("takes percent-escapes in file names literally after one URL decoding", async () => {
    const id = await newSession();
    expect((await api("PUT", `/v1/sessions/${id}/files/a%2520b.txt`, { raw: "x" })).body.path).toBe("a%20b.txt");
    expect((await api("PUT", `/v1/sessions/${id}/files/sp%20ace.txt`, { raw: "y" })).body.path).toBe("sp ace.txt");
    const dotdot = await api("PUT", `/v1/sessions/${id}/files/x%2F..%2F..%2Fescape`, { raw: "z" });
    expect(dotdot.status).toBe(403);
    expect(dotdot.body.denied.rule).toBe("path-traversal");
    expect((await api("GET", `/v1/sessions/${id}/files/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
  });
});
