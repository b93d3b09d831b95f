import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { renderDiff } from "../../src/checkpoints/diff/render";
import { sessionStub } from "../../src/service";
import { checkpointsOf } from "../../src/session/checkpoints";
import type { GuardedFs } from "../../src/policy/guarded-fs";
import { api, newSession } from "../helpers";
import { DIFF_CASES } from "./diff-cases.mjs";

type Spec = string | { content: string; mode: number } | { link: string };
const ROOT = "/workspace";

/** Makes the workspace hold exactly `tree` (files and links; folders as needed). */
function apply(fs: GuardedFs, tree: Record<string, Spec>): void {
  const ws = fs.ws;
  const wanted = new Map(Object.entries(tree).map(([p, s]) => [`${ROOT}/${p}`, s]));
  for (const n of ws.walk(ROOT).reverse()) {
    if (n.kind === "dir") continue;
    if (!wanted.has(n.path)) ws.remove(n.path);
  }
  for (const [path, spec] of wanted) {
    const existing = ws.stat(path);
    if (typeof spec === "object" && "link" in spec) {
      if (existing) ws.remove(path);
      ws.ensureParent(path, true);
      ws.symlink(spec.link, path);
      continue;
    }
    if (existing?.kind === "symlink") ws.remove(path);
    const content = typeof spec === "string" ? spec : spec.content;
    const mode = typeof spec === "string" ? 0o644 : spec.mode;
    const current = ws.stat(path) ? ws.readText(path) : null;
    if (current !== content) ws.writeFile(path, content, { createParents: true });
    ws.setMode(path, mode);
  }
}

describe("diff equals Debian's git diff --no-index", () => {
  const expected = inject("gitDiffs");
  it("has at least 30 cases", () => {
    expect(DIFF_CASES.length).toBeGreaterThanOrEqual(30);
    expect(expected.length).toBe(DIFF_CASES.length);
    // Every case differs, so git printed something for each.
    for (const text of expected) expect(text).toMatch(/^diff --git a\//);
  });

  DIFF_CASES.forEach((c, i) => {
    it(c.name, async () => {
      const id = await newSession();
      const text = await runInDurableObject(sessionStub(env, "alice", id), async (instance) => {
        const s = (instance as unknown as { open(): { fs: GuardedFs } }).open();
        apply(s.fs, c.from as Record<string, Spec>);
        const cps = checkpointsOf(s.fs);
        const from = cps.create("from").id;
        apply(s.fs, c.to as Record<string, Spec>);
        const to = cps.create("to").id;
        const read = (blob: number | null, size: number) => s.fs.ws.readBlob(blob, size, 0, size);
        const between = await renderDiff(cps.changes(from, to), read, () => true);
        const toNow = await renderDiff(cps.changes(from, null), read, () => true);
        expect(toNow.diff).toBe(between.diff);
        return { between, from };
      });
      expect(text.between.diff).toBe(expected[i]);
    });
  });

  it("serves the same through GET /v1/sessions/:id/diff, with the paths listed by kind", async () => {
    const id = await newSession();
    await api("PUT", `/v1/sessions/${id}/files/keep.txt`, { raw: "a\nb\n" });
    await api("PUT", `/v1/sessions/${id}/files/gone.txt`, { raw: "bye\n" });
    const cp = await api("POST", `/v1/sessions/${id}/checkpoints`, { body: {} });
    await api("PUT", `/v1/sessions/${id}/files/keep.txt`, { raw: "a\nB\n" });
    await api("DELETE", `/v1/sessions/${id}/files/gone.txt`);
    await api("PUT", `/v1/sessions/${id}/files/bin`, { raw: new Uint8Array([0, 1, 2]) });
    const r = await api("GET", `/v1/sessions/${id}/diff?from=${cp.body.id}&to=now`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ from: cp.body.id, to: "now", added: ["bin"], removed: ["gone.txt"], changed: ["keep.txt"], mode_changed: [], binary: ["bin"] });
    // Blob ids as `git hash-object` gives them for "a\nb\n" and "a\nB\n".
    expect(r.body.diff).toContain("diff --git a/keep.txt b/keep.txt\nindex 422c2b7..55dce13 100644\n");
    expect((await api("GET", `/v1/sessions/${id}/diff?from=abc`)).status).toBe(400);
    expect((await api("GET", `/v1/sessions/${id}/diff?from=99`)).status).toBe(404);
  });
});
