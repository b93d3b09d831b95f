import { LIMITS } from "../limits";
import { drain, pieceReader } from "../lib/streams";
import { httpError } from "./respond";

export type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };
export type BytesBody = { ok: true; bytes: Uint8Array } | { ok: false; response: Response };

/**
 * Reads a body no larger than `max` bytes; too large is 413. A body refused before reading is
 * left alone (workerd discards it cleanly); one refused midway is drained (see `drain`).
 */
export async function readBytes(request: Request, max: number): Promise<BytesBody> {
  const tooLarge = () => ({ ok: false as const, response: httpError(413, "body_too_large", `Request body exceeds ${max} bytes.`) });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  // A declared length bounds the body (HTTP framing ends it there): one read, no chunk loop.
  if (request.headers.has("content-length")) {
    try {
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.length > max ? tooLarge() : { ok: true, bytes };
    } catch {
      return { ok: false, response: httpError(400, "body_incomplete", "The request body ended early (the connection was lost); send the request again.") };
    }
  }
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body: an answer it will likely never read, but no 500.
      return { ok: false, response: httpError(400, "body_incomplete", "The request body ended early (the connection was lost); send the request again.") };
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.length;
    if (total > max) {
      await drain(reader);
      return tooLarge();
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    bytes.set(p, off);
    off += p.length;
  }
  return { ok: true, bytes };
}

/** Reads a JSON body no larger than `max` bytes; too large is 413, malformed is 400. */
export async function readJson(request: Request, max: number): Promise<JsonBody> {
  const body = await readBytes(request, max);
  if (!body.ok) return body;
  if (body.bytes.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(body.bytes)) };
  } catch (e) {
    return { ok: false, response: httpError(400, "malformed_json", `The body is not valid JSON: ${(e as Error).message}`) };
  }
}

/**
 * Passes a body on while counting it; bytes past `max` are read and dropped, not passed on
 * and not cancelled (see `drain`), so the receiver sees at most `max` bytes.
 * `complete()` is true only when the client's body ended cleanly (a cut-off errors the stream).
 *
 * The platform hands a request body over in 4 KiB pieces to a default reader, and each piece
 * crossing to the session object costs a promise turn on both sides (100 MB is 25,600 of them).
 * A bring-your-own-buffer reader takes whatever has arrived, up to LIMITS.uploadReadBytes, in
 * one read: the same bytes, passed on as soon as they arrive, in far fewer pieces.
 */
export function countedBody(source: ReadableStream<Uint8Array> | null, max: number) {
  let total = 0;
  let complete = false;
  const reader = source && pieceReader(source, LIMITS.uploadReadBytes);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const r = reader ? await reader.read() : { done: true as const, value: undefined };
        if (r.done) {
          complete = true;
          controller.close();
          return;
        }
        total += r.value.byteLength;
        // Past the limit: read on and drop (see above), so the sender is never cut off.
        if (total <= max) return controller.enqueue(r.value);
      }
    },
  });
  return { body, complete: () => complete && total <= max, overLimit: () => total > max };
}
