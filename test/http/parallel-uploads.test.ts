import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_UPLOADS_IN_FLIGHT } from "../../src/session/upload-slots";
import { expectConsistent } from "../faults/helpers";
import { newSession, tool } from "../helpers";

const auth = { authorization: "Bearer test-key-alice" };
const KB = 1024;

/** A body of `size` bytes that all equal `fill`, sent in 64 KB pieces so big ones are really streamed. */
function body(size: number, fill: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= size) return c.close();
      const n = Math.min(64 * KB, size - sent);
      sent += n;
      c.enqueue(new Uint8Array(n).fill(fill));
    },
  });
}

/** One PUT as a client would send it: a 429 is retried after its Retry-After, nothing else is. */
async function put(id: string, name: string, size: number, fill: number): Promise<{ status: number; retries: number }> {
  for (let retries = 0; ; retries++) {
    const res = await exports.default.fetch(`http://t/v1/sessions/${id}/files/up/${name}`, {
      method: "PUT",
      headers: { ...auth, "content-length": String(size) },
      body: body(size, fill),
    });
    const text = await res.text();
    if (res.status !== 429) {
      if (res.status !== 201) throw new Error(`${name}: ${res.status} ${text}`);
      return { status: res.status, retries };
    }
    const after = Number(res.headers.get("retry-after"));
    expect(after).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, after * 1000));
  }
}

describe.each([
  ["small", 1 * KB],
  ["large", 512 * KB],
])("parallel uploads of %s files to one session", (_kind, size) => {
  it.each([64, 256])("%i at once all succeed, whole", { timeout: 300_000 }, async (count) => {
    const id = await newSession();
    const results = await Promise.all(Array.from({ length: count }, (_, i) => put(id, `f${i}.bin`, size, i % 251)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    // Every file is there, whole, with its own bytes.
    for (let i = 0; i < count; i++) {
      const res = await exports.default.fetch(`http://t/v1/sessions/${id}/files/up/f${i}.bin`, { headers: auth });
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(res.status).toBe(200);
      expect(bytes.length).toBe(size);
      expect(bytes.every((b) => b === i % 251)).toBe(true);
    }
    await expectConsistent(id);
  });
});

it(`never aborts an upload being sent to make room: the ${MAX_UPLOADS_IN_FLIGHT + 1}th waits for a slot`, { timeout: 120_000 }, async () => {
  const id = await newSession();
  // MAX_UPLOADS_IN_FLIGHT uploads whose bodies stay open until released.
  const releases: Array<() => void> = [];
  const slow = Array.from({ length: MAX_UPLOADS_IN_FLIGHT }, (_, i) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    releases.push(release);
    let step = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (step === 0) c.enqueue(new Uint8Array(1000).fill(i));
        else if (step === 1) await gate, c.enqueue(new Uint8Array(1000).fill(i));
        else c.close();
        step++;
      },
    });
    return exports.default.fetch(`http://t/v1/sessions/${id}/files/slow/${i}.bin`, { method: "PUT", headers: { ...auth, "content-length": "2000" }, body: stream });
  });
  await new Promise((r) => setTimeout(r, 300));
  let extraDone = false;
  const extra = put(id, "extra.bin", 10, 7).then((r) => ((extraDone = true), r));
  await new Promise((r) => setTimeout(r, 500));
  expect(extraDone).toBe(false); // it waits; it did not push out any of the slow ones
  for (const r of releases) r();
  const statuses = await Promise.all(slow.map(async (p) => (await p).status));
  expect(statuses).toEqual(Array(MAX_UPLOADS_IN_FLIGHT).fill(201));
  expect((await extra).status).toBe(201);
  const out = await tool(id, "bash", { command: "wc -c slow/*.bin up/extra.bin | tail -1" });
  expect(String(out.output ?? out.stdout ?? out)).toContain(String(MAX_UPLOADS_IN_FLIGHT * 2000 + 10));
  await expectConsistent(id);
});
