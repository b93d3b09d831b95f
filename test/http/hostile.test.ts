import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countedBody, readJson } from "../../src/http/body";
import { sessionStub } from "../../src/service";
import { api, newSession, tool } from "../helpers";

/** A stream of `chunks` pieces of `size` bytes that records how it was consumed. */
function tracked(chunks: number, size = 100) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (seen.pulled === chunks) return c.close();
      seen.pulled++;
      c.enqueue(new Uint8Array(size).fill(120));
    },
    cancel: () => void (seen.cancelled = true),
  });
  return { stream, seen };
}

// A refused body must be drained or left alone, never cancelled: under workerd a cancelled
// request body or RPC stream logs "Uncaught Error: Network connection lost" and breaks the
// connection (the next request on it got "503 Your worker restarted mid-request").
describe("a refused upload never cancels its body", () => {
  it("drains the body when the upload is unknown to the session", async () => {
    const stub = sessionStub(env, "alice", await newSession());
    const { stream, seen } = tracked(20);
    expect(await stub.upload("no-such-upload", stream, 1 << 20)).toMatchObject({ ok: false, code: "EIO" });
    expect(seen).toEqual({ pulled: 20, cancelled: false });
  });

  it("drains the rest of a body over the size limit and keeps the old content", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "f.txt", content: "previous" });
    const stub = sessionStub(env, "alice", id);
    const opened = await stub.openUpload("f.txt");
    if (!opened.ok) throw new Error(opened.message);
    const { stream, seen } = tracked(20);
    expect(await stub.upload(opened.uploadId, stream, 1000)).toMatchObject({ ok: false, code: "EFBIG" });
    expect(seen).toEqual({ pulled: 20, cancelled: false });
    expect(await stub.finishUpload(opened.uploadId, true)).toMatchObject({ ok: false, code: "EIO" });
    expect((await tool(id, "read_file", { path: "f.txt" })).output).toBe("     1\tprevious");
  });

  it("refuses by policy before any body is sent, and the session keeps working", async () => {
    const id = await newSession();
    const stub = sessionStub(env, "alice", id);
    expect(await stub.openUpload("SOUL.md")).toMatchObject({ ok: false, error: "denied", denied: { rule: "identity-file" } });
    const { stream, seen } = tracked(20);
    const r = await exports.default.fetch(`http://t/v1/sessions/${id}/files/SOUL.md`, {
      method: "PUT",
      headers: { authorization: "Bearer test-key-alice" },
      body: stream,
      // @ts-expect-error workerd needs `duplex` for a streamed request body
      duplex: "half",
    });
    expect(r.status).toBe(403);
    expect((await r.json()) as object).toMatchObject({ error: "denied", denied: { rule: "identity-file" } });
    // The refusal came before the body was read through (workerd itself ends the unread rest).
    expect(seen.pulled).toBeLessThan(20);
    expect((await api("PUT", `/v1/sessions/${id}/files/ok.txt`, { raw: "fine" })).status).toBe(201);
  });

  it("passes at most `max` bytes on, reads the rest without cancelling, and says so", async () => {
    const { stream, seen } = tracked(20);
    const counted = countedBody(stream, 1050);
    expect((await new Response(counted.body).arrayBuffer()).byteLength).toBe(1000);
    expect(seen).toEqual({ pulled: 20, cancelled: false });
    expect({ over: counted.overLimit(), complete: counted.complete() }).toEqual({ over: true, complete: false });
    const small = countedBody(tracked(3).stream, 300);
    await new Response(small.body).arrayBuffer();
    expect({ over: small.overLimit(), complete: small.complete() }).toEqual({ over: false, complete: true });
  });
});

describe("a JSON body that breaks off or runs over", () => {
  it("answers 400 body_incomplete, not a 500, when the body stream fails midway", async () => {
    let sent = false;
    const broken = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent) return c.error(new Error("Network connection lost."));
        sent = true;
        c.enqueue(new TextEncoder().encode('{"path":'));
      },
    });
    const r = await readJson(new Request("http://t/", { method: "POST", body: broken }), 1000);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.response.status).toBe(400);
    expect(await r.response.json()).toMatchObject({ error: "body_incomplete" });
  });

  it("drains, not cancels, a body over the limit", async () => {
    const { stream, seen } = tracked(20);
    const r = await readJson(new Request("http://t/", { method: "POST", body: stream }), 1000);
    expect(r.ok ? 200 : r.response.status).toBe(413);
    expect(seen).toEqual({ pulled: 20, cancelled: false });
  });
});

// workerd hands the Worker only the parsed URL (WHATWG): a raw `\` is already `/` and dot
// segments are already resolved when the route sees them. `%5C` is the way to name a backslash.
describe("backslashes and dot segments in files-endpoint paths", () => {
  const cases: [url: string, stored: string | null][] = [
    ["a\\b.txt", "a/b.txt"],
    ["a%5Cb.txt", "a\\b.txt"],
    ["a%5cc.txt", "a\\c.txt"],
    ["d\\..\\e.txt", "e.txt"],
    ["d/%2e%2e/f.txt", "f.txt"],
    ["..\\..\\x", null],
    ["%2e%2e/y", null],
  ];
  it.each(cases)("PUT files/%s", async (url, stored) => {
    const id = await newSession();
    const r = await api("PUT", `/v1/sessions/${id}/files/${url}`, { raw: "hi" });
    if (stored === null) {
      // The URL itself climbed out of the files endpoint: no route, nothing written.
      expect(r).toMatchObject({ status: 404, body: { error: "not_found" } });
      expect((await tool(id, "list_dir", {})).entries).toEqual([]);
      return;
    }
    expect(r).toMatchObject({ status: 201, body: { path: stored, size: 2 } });
    expect((await tool(id, "read_file", { path: stored })).output).toBe("     1\thi");
  });
});
