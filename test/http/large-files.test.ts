import { env, exports } from "cloudflare:workers";
import { sessionStub } from "../../src/service";
import { expect, it } from "vitest";
import { newSession, tool } from "../helpers";

const MB = 1024 * 1024;
const auth = { authorization: "Bearer test-key-alice" };

/** A deterministic byte stream of `total` bytes, made piece by piece (never whole in memory). */
function generated(total: number, piece = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  let x = 12345;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(piece, total - sent);
      const buf = new Uint8Array(n);
      const words = new Uint32Array(buf.buffer, 0, n >>> 2);
      for (let i = 0; i < words.length; i++) words[i] = x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      sent += n;
      c.enqueue(buf);
    },
  });
}

async function sha256(stream: ReadableStream<Uint8Array>): Promise<string> {
  const digest = new crypto.DigestStream("SHA-256");
  await stream.pipeTo(digest);
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

it("streams a 100 MB upload in and reads it back byte-identical", { timeout: 180_000 }, async () => {
  const id = await newSession();
  const size = 100 * MB;
  const [toServer, toHash] = generated(size).tee();
  const expected = sha256(toHash);
  const put = await exports.default.fetch(`http://t/v1/sessions/${id}/files/big/blob.bin`, {
    method: "PUT",
    headers: auth,
    body: toServer,
    // @ts-expect-error workerd needs duplex for streamed request bodies
    duplex: "half",
  });
  expect(put.status).toBe(201);
  expect(await put.json()).toEqual({ path: "big/blob.bin", size });
  const get = await exports.default.fetch(`http://t/v1/sessions/${id}/files/big/blob.bin`, { headers: auth });
  expect(get.headers.get("content-length")).toBe(String(size));
  expect(await sha256(get.body!)).toBe(await expected);
  // The file tools see it too, without loading it whole.
  const ls = await tool(id, "list_dir", { path: "big" });
  expect(ls.entries).toEqual([{ name: "blob.bin", type: "file", size }]);
});

it("leaves the previous content when an upload ends short of its Content-Length", async () => {
  const id = await newSession();
  await tool(id, "write_file", { path: "f.txt", content: "previous" });
  const stub = sessionStub(env, "alice", id);
  // The HTTP layer commits only a body that ended cleanly at its declared length.
  const opened = await stub.openUpload("f.txt");
  if (!opened.ok) throw new Error(opened.message);
  expect(await stub.upload(opened.uploadId, new Blob(["partial"]).stream(), 1 << 20)).toMatchObject({ ok: true, size: 7 });
  const r = await stub.finishUpload(opened.uploadId, false);
  expect(r).toMatchObject({ ok: false, code: "EIO" });
  expect((await tool(id, "read_file", { path: "f.txt" })).output).toBe("     1\tprevious");
  const short = await exports.default
    .fetch(`http://t/v1/sessions/${id}/files/f.txt`, {
      method: "PUT",
      headers: { ...auth, "content-length": "1000" },
      body: new Blob(["x".repeat(10)]).stream(),
      // @ts-expect-error see above
      duplex: "half",
    })
    .catch((e: unknown) => e);
  expect(short instanceof Response ? short.status : 0).not.toBe(201);
  expect((await tool(id, "read_file", { path: "f.txt" })).output).toBe("     1\tprevious");
});
