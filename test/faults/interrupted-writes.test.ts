import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_UPLOADS_IN_FLIGHT } from "../../src/session/upload-slots";
import type { FaultPoint } from "../../src/vfs/faults";
import { CHUNK_SIZE } from "../../src/vfs/schema";
import { api, newSession, tool } from "../helpers";
import { contentOf, expectConsistent, expectWorks, stubOf, withFault, type FaultKind } from "./helpers";

/** Text spanning several stored chunks, each line naming its number (a torn copy cannot match). */
const big = (tag: string) => Array.from({ length: Math.ceil((2.5 * CHUNK_SIZE) / 24) }, (_, i) => `${tag} line ${String(i).padStart(8, "0")}\n`).join("");
const FILES = 30;

interface Case {
  name: string;
  /** Writes the state the interrupted call starts from; everything here is acknowledged. */
  setup: (id: string) => Promise<void>;
  point: FaultPoint;
  nth: number;
  run: (id: string) => Promise<unknown>;
  /** Checks the call left its target complete if acknowledged, else untouched or complete, never torn. */
  verify: (id: string, acked: boolean) => Promise<void>;
}

/** Whether the client was told the call succeeded (a tool's success, a PUT's 201). */
const acknowledged = (outcome: unknown): boolean => {
  if (outcome instanceof Error || typeof outcome !== "object" || outcome === null) return false;
  return "status" in outcome ? outcome.status === 201 : (outcome as { success?: boolean }).success === true;
};

const oneOf = async (id: string, path: string, allowed: (string | null)[]) => {
  expect(allowed).toContain(await contentOf(id, path));
};

/** Every file the many-file writers made is whole: absent, or exactly its expected line. */
const wholeFiles = async (id: string, dir: string, line: (i: number) => string, acked: boolean) => {
  for (let i = 1; i <= FILES; i++) await oneOf(id, `${dir}/f${i}`, acked ? [line(i)] : [null, line(i)]);
};

/** write_file replacing a multi-chunk file, interrupted at `point`. */
const rewrite = (name: string, point: FaultPoint, nth: number): Case => ({
  name,
  setup: async (id) => void (await tool(id, "write_file", { path: "doc.txt", content: big("old") })),
  point,
  nth,
  run: (id) => tool(id, "write_file", { path: "doc.txt", content: big("new") }),
  verify: (id, acked) => oneOf(id, "doc.txt", acked ? [big("new")] : [big("old"), big("new")]),
});

const CASES: Case[] = [
  rewrite("write_file over an existing multi-chunk file", "chunk-stored", 2),
  rewrite("write_file at the moment its node row is swapped", "node-installed", 1),
  {
    name: "write_file of a new file in new directories",
    setup: async () => {},
    point: "dir-created",
    nth: 2,
    run: (id) => tool(id, "write_file", { path: "a/b/c/new.txt", content: big("new") }),
    verify: (id, acked) => oneOf(id, "a/b/c/new.txt", acked ? [big("new")] : [null, big("new")]),
  },
  {
    name: "edit_file",
    setup: async (id) => void (await tool(id, "write_file", { path: "doc.txt", content: big("old") + "MARKER\n" })),
    point: "node-installed",
    nth: 1,
    run: (id) => tool(id, "edit_file", { path: "doc.txt", old_string: "MARKER", new_string: "EDITED" }),
    verify: (id, acked) => oneOf(id, "doc.txt", [...(acked ? [] : [big("old") + "MARKER\n"]), big("old") + "EDITED\n"]),
  },
  {
    name: "streamed PUT upload",
    setup: async (id) => void (await api("PUT", `/v1/sessions/${id}/files/up.bin`, { raw: big("old") })),
    point: "chunk-stored",
    nth: 2,
    run: (id) => {
      const bytes = new TextEncoder().encode(big("new"));
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= bytes.length) return c.close();
          c.enqueue(bytes.slice(at, (at += 64 * 1024)));
        },
      });
      return api("PUT", `/v1/sessions/${id}/files/up.bin`, { raw: body, headers: { "content-length": String(bytes.length) } });
    },
    verify: (id, acked) => oneOf(id, "up.bin", acked ? [big("new")] : [big("old"), big("new")]),
  },
  {
    name: "bash writing many files",
    setup: async (id) => void (await tool(id, "bash", { command: "mkdir many" })),
    point: "node-installed",
    nth: FILES / 2,
    run: (id) => tool(id, "bash", { command: `for i in $(seq 1 ${FILES}); do echo "line $i" > many/f$i; done` }),
    verify: (id, acked) => wholeFiles(id, "many", (i) => `line ${i}\n`, acked),
  },
  {
    name: "tar -x",
    setup: async (id) => {
      const r = await tool(id, "bash", { command: `mkdir src && for i in $(seq 1 ${FILES}); do echo "file $i" > src/f$i; done && tar -cf a.tar src && mkdir out` });
      expect(r.success).toBe(true);
    },
    point: "node-installed",
    nth: FILES / 2,
    run: (id) => tool(id, "bash", { command: "cd out && tar -xf ../a.tar" }),
    verify: (id, acked) => wholeFiles(id, "out/src", (i) => `file ${i}\n`, acked),
  },
];

describe.each<FaultKind | "none">(["none", "throw", "abort"])("a write interrupted by %s", (kind) => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const id = await newSession();
    await tool(id, "write_file", { path: "acknowledged.txt", content: big("ack") });
    await c.setup(id);
    const { fired, outcome } = await withFault(id, kind, c.point, kind === "none" ? Infinity : c.nth, () => c.run(id));
    // A fault is never reported as success; without one (the control run) the call succeeds.
    const acked = acknowledged(outcome);
    expect(acked).toBe(kind === "none");
    expect(fired).toBe(kind !== "none");
    await expectWorks(id);
    expect(await contentOf(id, "acknowledged.txt")).toBe(big("ack"));
    await c.verify(id, acked);
    await expectConsistent(id);
  });
});

describe("uploads abandoned between openUpload and finishUpload", () => {
  it("hold their slots (a further upload waits, none is aborted) until the object restarts, which aborts them all", async () => {
    const id = await newSession();
    const stub = stubOf(id);
    for (let i = 0; i < MAX_UPLOADS_IN_FLIGHT; i++) {
      const opened = await stub.openUpload(`abandoned-${i}.bin`);
      if (!opened.ok) throw new Error(opened.message);
      const body = new Blob([new Uint8Array(1000).fill(i)]).stream();
      expect((await stub.upload(opened.uploadId, body, 1 << 20)).ok).toBe(true);
      // The request dies here: finishUpload never comes.
    }
    // One more waits for a slot rather than aborting one of them (they are reclaimed only
    // after UPLOAD_HANDOFF_MS, far longer than this test).
    let settled = false;
    const waiting = stub.openUpload("one-more.bin").then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await expectConsistent(id, MAX_UPLOADS_IN_FLIGHT);
    expect(await contentOf(id, "abandoned-0.bin")).toBeNull();
    await abortAllDurableObjects();
    await waiting;
    await expectWorks(id);
    await expectConsistent(id);
  });
});
