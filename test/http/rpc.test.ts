import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import type { ToolshedRPC } from "../../src/rpc";
import { api, BOB } from "../helpers";

it("serves other Workers through the ToolshedRPC entrypoint, tenant-scoped", async () => {
  // Typed as a caller would declare the binding (deep RPC type mapping is too much for tsc).
  const rpc = exports.ToolshedRPC as unknown as Pick<ToolshedRPC, "createSession" | "getSession" | "callTool" | "deleteSession" | "tools" | "sessionTools">;
  const session = await rpc.createSession("alice");
  expect(session.id).toMatch(/^[0-9a-f]{32}$/);
  const w = await rpc.callTool("alice", session.id, "write_file", { path: "from-rpc.txt", content: "hi" });
  expect(w.success).toBe(true);
  // The same session over HTTP with alice's key:
  const r = await api("POST", `/v1/sessions/${session.id}/tools/read_file`, { body: { path: "from-rpc.txt" } });
  expect(r.body.output).toBe("     1\thi");
  // Another tenant cannot see it by either door.
  expect(await rpc.getSession("bob", session.id)).toBeNull();
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: Error) => e.message,
    );
  expect(await failure(rpc.callTool("bob", session.id, "read_file", { path: "from-rpc.txt" }))).toMatch(/No such session/);
  expect((await api("GET", `/v1/sessions/${session.id}`, { key: BOB })).status).toBe(404);
  expect(await failure(rpc.callTool("alice", session.id, "read_file", { path: 1 }))).toMatch(/path/);
  expect((await rpc.tools()).map((t) => (t as { name: string }).name)).toContain("grep");
  const own = (await rpc.sessionTools("alice", session.id)) as { name: string; description: string }[] | null;
  expect(own?.find((t) => t.name === "read_skill")?.description).toContain("Available skills:\n- workspace-report:");
  expect(await rpc.sessionTools("bob", session.id)).toBeNull();
  expect(await rpc.deleteSession("alice", session.id)).toBe(true);
});
