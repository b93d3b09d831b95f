import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newSessionId, sessionStub } from "../../src/service";
import { DEFAULT_RETENTION } from "../../src/checkpoints/retention";
import { checkpointsOf } from "../../src/session/checkpoints";
import { GuardedFs } from "../../src/policy/guarded-fs";
import { FileRules } from "../../src/policy/files";
import { Workspace } from "../../src/vfs/workspace";
import { LIMITS } from "../../src/limits";
import { api, BOB, newSession, tool } from "../helpers";
import { withFault } from "../faults/helpers";
import { bash, checkpoint, expectConsistent, restore, snapshot } from "./helpers";

const stub = (id: string) => sessionStub(env, "alice", id);

async function tree(id: string): Promise<void> {
  const r = await bash(id, "mkdir -p a/b && printf 'one\\n' > a/one && head -c 700000 /dev/urandom > a/b/blob && chmod 600 a/one && ln -s a/one l");
  expect(r.success, JSON.stringify(r)).toBe(true);
}

describe("fork", () => {
  it("makes a new session from a checkpoint; afterwards neither sees the other's changes", async () => {
    const id = await newSession();
    await tree(id);
    // Sparse content (chunks never stored) travels as it is stored; names travel as JSON.
    expect((await bash(id, `truncate -s 900000 a/sparse && printf x > a/tail && truncate -s 600000 a/tail && printf u > 'a/é名 "q"'`)).success).toBe(true);
    const cp = await checkpoint(id, "base");
    await bash(id, "printf 'after\\n' > a/later");
    const r = await api("POST", `/v1/sessions/${id}/fork`, { body: { checkpoint: cp.id } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const fork = r.body.id as string;
    expect(r.body.profile).toBe("toolshed");
    expect(r.body.forked_from).toEqual({ session: id, checkpoint: cp.id });
    const forked = await snapshot(fork);
    expect(forked["/workspace/a/later"]).toBeUndefined();
    const source = await snapshot(id);
    for (const p of ["/workspace/a/one", "/workspace/a/b/blob", "/workspace/l", "/workspace/a/b", "/workspace/a/sparse", "/workspace/a/tail", '/workspace/a/é名 "q"']) {
      expect(forked[p]).toBeDefined();
      expect(forked[p]).toBe(source[p]);
    }
    await bash(id, "printf 'src\\n' > only-source");
    await bash(fork, "printf 'fork\\n' > only-fork && rm a/one");
    expect((await snapshot(id))["/workspace/only-fork"]).toBeUndefined();
    expect((await snapshot(id))["/workspace/a/one"]).toBeDefined();
    expect((await snapshot(fork))["/workspace/only-source"]).toBeUndefined();
    await expectConsistent(id);
    await expectConsistent(fork);
    // Listed among the tenant's sessions, under another profile when asked.
    const other = await api("POST", `/v1/sessions/${id}/fork`, { body: { profile: "libertai" } });
    expect(other.status).toBe(201);
    expect(other.body.profile).toBe("libertai");
    expect((await snapshot(other.body.id))["/workspace/only-source"]).toBeDefined();
  });

  it("lists a finished fork among the tenant's sessions, and not one cut off", async () => {
    const id = await newSession();
    await tree(id);
    const listed = async () => ((await api("GET", "/v1/sessions?limit=1000")).body.sessions as { id: string }[]).map((s) => s.id);
    const before = await listed();
    const { fired, outcome } = await withFault(id, "throw", "fork-commit", 1, () => api("POST", `/v1/sessions/${id}/fork`, { body: {} }));
    expect(fired).toBe(true);
    expect(outcome instanceof Error || outcome.status !== 201).toBe(true);
    expect((await listed()).filter((s) => !before.includes(s))).toEqual([]);
    const r = await api("POST", `/v1/sessions/${id}/fork`, { body: {} });
    expect(r.status).toBe(201);
    expect((await listed()).filter((s) => !before.includes(s))).toEqual([r.body.id]);
    // The Worker dies after the new session committed, before it answered: the session is listed, whole.
    const cut = await withFault(id, "throw", "fork-imported", 1, () => api("POST", `/v1/sessions/${id}/fork`, { body: {} }));
    expect(cut.fired).toBe(true);
    const orphan = (await listed()).filter((s) => !before.includes(s) && s !== r.body.id);
    expect(orphan.length).toBe(1);
    expect(await snapshot(orphan[0]!)).toEqual(await snapshot(r.body.id));
    await expectConsistent(orphan[0]!);
  });

  it("answers 404 for another tenant's session and unknown checkpoints, 400 for an unknown profile", async () => {
    const id = await newSession();
    expect((await api("POST", `/v1/sessions/${id}/fork`, { key: BOB, body: {} })).status).toBe(404);
    expect((await api("POST", `/v1/sessions/${id}/fork`, { body: { checkpoint: 77 } })).status).toBe(404);
    expect((await api("POST", `/v1/sessions/${id}/fork`, { body: { profile: "nope" } })).status).toBe(400);
    expect((await api("GET", `/v1/sessions/${id}/diff?from=1`, { key: BOB })).status).toBe(404);
  });
});

describe("faults: a cut-off restore or fork leaves one whole tree, no torn file, no orphaned blob", () => {
  for (const kind of ["throw", "abort"] as const) {
    it(`restore interrupted (${kind}) keeps the old tree`, async () => {
      const id = await newSession();
      await tree(id);
      const cp = await checkpoint(id);
      await bash(id, "printf 'changed\\n' > a/one && rm -r a/b && printf n > new");
      const before = await snapshot(id);
      const { fired } = await withFault(id, kind, "restore-applied", 1, () => api("POST", `/v1/sessions/${id}/checkpoints/${cp.id}/restore`, { body: {} }));
      expect(fired).toBe(true);
      expect(await snapshot(id)).toEqual(before);
      await expectConsistent(id);
      // And a second try succeeds whole.
      await restore(id, cp.id);
      expect((await snapshot(id))["/workspace/new"]).toBeUndefined();
      await expectConsistent(id);
    });
  }

  // The stream's pieces (LIMITS.forkPieceBytes) each stage their rows ("fork-row") and store
  // their content ("fork-chunk"); the rows are installed in the final transaction ("fork-commit").
  // A file bigger than a piece makes the stream several pieces, so faults land in later pieces too.
  for (const [kind, point, nth] of [
    ["throw", "fork-chunk", 2],
    ["throw", "fork-row", 2],
    ["throw", "fork-commit", 1],
    ["abort", "fork-chunk", 1],
    ["abort", "fork-row", 1],
    ["abort", "fork-commit", 1],
  ] as const) {
    it(`fork interrupted (${kind} at ${point} #${nth}) leaves no session and no content behind`, async () => {
      const id = await newSession();
      await tree(id);
      expect((await bash(id, `head -c ${LIMITS.forkPieceBytes + 500_000} /dev/urandom > a/big`)).success).toBe(true);
      const before = await snapshot(id);
      const target = newSessionId();
      const targetStub = stub(target);
      const exported = await stub(id).exportFork();
      expect(exported && exported.ok).toBe(true);
      const body = (exported as { body: ReadableStream<Uint8Array> }).body;
      const meta = { id: target, tenant: "alice", profile: "toolshed" as const, tools: ["bash"] };
      const { fired } = await withFault(id, kind, point, nth, () => targetStub.importFork(meta, body));
      expect(fired).toBe(true);
      if (kind === "abort") await runDurableObjectAlarm(targetStub);
      expect(await targetStub.info()).toBeNull();
      const left = await runInDurableObject(
        targetStub,
        (_o, state) => state.storage.sql.exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vfs_%'`).toArray().length,
      );
      expect(left).toBe(0);
      expect(await snapshot(id)).toEqual(before);
      await expectConsistent(id);
    });
  }
});

describe("quota and retention", () => {
  it("frees history past the rule and counts the bytes freed", async () => {
    const id = await newSession();
    // Ten calls, each rewriting a 100 kB file: each leaves an automatic checkpoint holding the old version.
    for (let i = 0; i < 10; i++) await bash(id, "head -c 100000 /dev/urandom > data");
    const list = await api("GET", `/v1/sessions/${id}/checkpoints`);
    const autos = list.body.checkpoints.filter((c: { kind: string }) => c.kind === "auto");
    expect(autos.length).toBe(10);
    expect(list.body.history.bytes).toBe(900000);
    const result = await runInDurableObject(stub(id), (_o, state) => {
      const ws = new Workspace(state.storage, { maxBytes: 1e9, maxFiles: 1e5 });
      const fs = new GuardedFs(ws, FileRules.fromEnv(undefined));
      const cps = checkpointsOf(fs);
      const linked = new Set(
        state.storage.sql
          .exec<{ checkpoint: number }>(`SELECT checkpoint FROM tool_calls ORDER BY id DESC LIMIT 3`)
          .toArray()
          .map((r) => r.checkpoint),
      );
      // Keep the last 3 calls' checkpoints and nothing by the hour.
      return cps.prune({ ...DEFAULT_RETENTION, calls: 3, hours: 0 }, linked);
    });
    expect(result.deleted.length).toBe(7);
    // The 3 kept checkpoints hold 3 old versions (the 3rd-newest call's checkpoint holds what call 7 wrote, and so on).
    expect(result.freedBytes).toBe(600000);
    const after = await api("GET", `/v1/sessions/${id}/checkpoints`);
    expect(after.body.checkpoints.length).toBe(3);
    expect(after.body.history.bytes).toBe(300000);
    expect(after.body.history.freed_bytes).toBe(600000);
    await expectConsistent(id);
    // A byte cap drops the oldest unnamed ones first, until history fits.
    const capped = await runInDurableObject(stub(id), (_o, state) => {
      const ws = new Workspace(state.storage, { maxBytes: 1e9, maxFiles: 1e5 });
      const cps = checkpointsOf(new GuardedFs(ws, FileRules.fromEnv(undefined)));
      return cps.prune({ ...DEFAULT_RETENTION, calls: 100, hours: 0, maxHistoryBytes: 150000 }, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    });
    expect(capped.deleted.length).toBe(2);
    expect(capped.freedBytes).toBe(200000);
    await expectConsistent(id);
  });

  it("the checkpoint tool saves a named checkpoint (Toolshed's own profile only)", async () => {
    const id = await newSession();
    const r = await tool(id, "checkpoint", { label: "before the refactor" });
    expect(r.success).toBe(true);
    const list = await api("GET", `/v1/sessions/${id}/checkpoints`);
    expect(list.body.checkpoints.at(-1)).toMatchObject({ id: r.checkpoint, label: "before the refactor", kind: "manual" });
    const wayland = await newSession(undefined, { profile: "wayland-core" });
    expect((await api("POST", `/v1/sessions/${wayland}/tools/checkpoint`, { body: {} })).status).toBe(404);
  });
});
