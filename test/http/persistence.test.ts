import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { api, newSession, tool } from "../helpers";

it("keeps files, cwd, status and log across eviction of the Durable Object", async () => {
  const r = await api("POST", "/v1/sessions", { body: { cwd: "proj" } });
  const id = r.body.id as string;
  await tool(id, "write_file", { path: "notes.md", content: "remember me" });
  await tool(id, "set_status", { status: "halfway" });
  await evictDurableObject(sessionStub(env, "alice", id));
  const info = await api("GET", `/v1/sessions/${id}`);
  expect(info.body).toMatchObject({ cwd: "/workspace/proj", status: "halfway" });
  expect(info.body.usage.toolCalls).toBe(2);
  expect((await tool(id, "read_file", { path: "notes.md" })).output).toBe("     1\tremember me");
  // and after a second eviction in the middle of more work
  await tool(id, "edit_file", { path: "notes.md", old_string: " me", new_string: " us" });
  await evictDurableObject(sessionStub(env, "alice", id));
  expect((await tool(id, "read_file", { path: "/workspace/proj/notes.md" })).output).toBe("     1\tremember us");
});

it("answers 404 after deletion, also after eviction", async () => {
  const id = await newSession();
  await tool(id, "write_file", { path: "x", content: "y" });
  await api("DELETE", `/v1/sessions/${id}`);
  await evictDurableObject(sessionStub(env, "alice", id)).catch(() => undefined);
  expect((await api("GET", `/v1/sessions/${id}`)).status).toBe(404);
});
