import { describe, expect, it } from "vitest";
import { api, BOB, newSession, tool } from "../helpers";
import { bash, checkpoint, expectConsistent, restore, snapshot } from "./helpers";

/** A tree with every kind of node: nested dirs, modes, a link, fixed times, an empty and a big file. */
async function build(id: string): Promise<void> {
  const r = await bash(
    id,
    [
      "mkdir -p src/lib docs empty",
      "printf 'alpha\\n' > src/a.txt",
      "printf 'beta\\nbeta\\n' > src/lib/b.txt",
      "chmod 755 src/lib/b.txt",
      "chmod 700 docs",
      ": > docs/empty.md",
      "head -c 600000 /dev/zero | tr '\\0' x > big.bin",
      "ln -s src/a.txt link",
      "touch -d '2020-01-02 03:04:05' src/a.txt",
    ].join(" && "),
  );
  expect(r.success, JSON.stringify(r)).toBe(true);
}

describe("checkpoints: create, restore, undo", () => {
  it("gives back the tree byte for byte after rm -rf * (modes, links, times)", async () => {
    const id = await newSession();
    await build(id);
    const before = await snapshot(id);
    const cp = await checkpoint(id, "good state");
    expect(cp.files).toBeGreaterThan(8);
    // Taking it copied no content: the blobs are the same rows.
    const blobs = await api("GET", `/v1/sessions/${id}/checkpoints`);
    expect(blobs.body.checkpoints.at(-1).bytes).toBe(0);
    // Emptying the workspace is allowed (rm-root protects /workspace itself, not what it holds).
    const rm = await bash(id, "rm -rf *");
    expect(rm.success, JSON.stringify(rm)).toBe(true);
    expect(Object.keys(await snapshot(id)).length).toBeLessThan(5);
    const r = await restore(id, cp.id);
    expect(r.changed).toBeGreaterThan(8);
    const after = await snapshot(id);
    // The directory holding them (/workspace) also gets its times back.
    expect(after).toEqual(before);
    await expectConsistent(id);
  });

  it("restores one path and leaves the rest alone", async () => {
    const id = await newSession();
    await build(id);
    const cp = await checkpoint(id);
    await bash(id, "printf 'mangled\\n' > src/a.txt && printf 'new\\n' > docs/new.md && rm src/lib/b.txt");
    const mid = await snapshot(id);
    await restore(id, cp.id, ["src/lib"]);
    const after = await snapshot(id);
    expect(after["/workspace/src/lib/b.txt"]).toContain("content=626574610a626574610a");
    expect(after["/workspace/src/a.txt"]).toBe(mid["/workspace/src/a.txt"]);
    expect(after["/workspace/docs/new.md"]).toBe(mid["/workspace/docs/new.md"]);
    expect(after["/workspace/src"]).toBe(mid["/workspace/src"]);
    await expectConsistent(id);
  });

  it("undoes a restore through the checkpoint it took first", async () => {
    const id = await newSession();
    await build(id);
    const cp = await checkpoint(id);
    await bash(id, "printf 'second\\n' > src/a.txt && mkdir more && printf 'x' > more/y");
    const second = await snapshot(id);
    const r = await restore(id, cp.id);
    expect(r.undo).not.toBeNull();
    expect((await snapshot(id))["/workspace/more/y"]).toBeUndefined();
    await restore(id, r.undo!.id);
    expect(await snapshot(id)).toEqual(second);
    await expectConsistent(id);
  });

  it("links each file-changing call to the checkpoint before it, and undoes the last N calls", async () => {
    const id = await newSession();
    await bash(id, "printf 'one\\n' > f");
    const one = await snapshot(id);
    await tool(id, "write_file", { path: "f", content: "two\n" });
    await tool(id, "read_file", { path: "f" });
    await bash(id, "printf 'three\\n' > f && printf g > g");
    const log = await api("GET", `/v1/sessions/${id}/log`);
    const calls = log.body.calls as { tool: string; checkpoint?: number }[];
    expect(calls.map((c) => c.tool)).toEqual(["bash", "read_file", "write_file", "bash"]);
    expect(calls[0]!.checkpoint).toBeGreaterThan(calls[2]!.checkpoint!);
    expect(calls[1]!.checkpoint).toBeUndefined();
    // Undo the last 3 calls: back to what the first call left.
    const r = await api("POST", `/v1/sessions/${id}/checkpoints/${calls[2]!.checkpoint}/restore`, { body: {} });
    expect(r.status).toBe(200);
    const now = await snapshot(id);
    expect(now["/workspace/f"]).toBe(one["/workspace/f"]);
    expect(now["/workspace/g"]).toBeUndefined();
    await expectConsistent(id);
  });

  it("lists, deletes, and answers 404 for unknown checkpoints and other tenants", async () => {
    const id = await newSession();
    await bash(id, "printf 'v1\\n' > f");
    const cp = await checkpoint(id, "v1");
    await bash(id, "printf 'v2 is longer\\n' > f");
    const list = await api("GET", `/v1/sessions/${id}/checkpoints`);
    expect(list.status).toBe(200);
    const mine = list.body.checkpoints.find((c: { id: number }) => c.id === cp.id);
    expect(mine).toMatchObject({ id: cp.id, label: "v1", kind: "manual" });
    expect(typeof mine.created_at).toBe("string");
    expect((await api("GET", `/v1/sessions/${id}/checkpoints`, { key: BOB })).status).toBe(404);
    expect((await api("POST", `/v1/sessions/${id}/checkpoints/${cp.id}/restore`, { key: BOB, body: {} })).status).toBe(404);
    expect((await api("POST", `/v1/sessions/${id}/checkpoints/9999/restore`, { body: {} })).status).toBe(404);
    expect((await api("DELETE", `/v1/sessions/${id}/checkpoints/abc`)).status).toBe(404);
    expect((await api("POST", `/v1/sessions/${id}/checkpoints`, { body: { label: 5 } })).status).toBe(400);
    const del = await api("DELETE", `/v1/sessions/${id}/checkpoints/${cp.id}`);
    expect(del.status).toBe(200);
    expect((await api("DELETE", `/v1/sessions/${id}/checkpoints/${cp.id}`)).status).toBe(404);
    await expectConsistent(id);
  });
});
