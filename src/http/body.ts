import { httpError } from "./respond";

export type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };
export type BytesBody = { ok: true; bytes: Uint8Array } | { ok: false; response: Response };

/** Reads a body no larger than `max` bytes; too large is 413. */
export async function readBytes(request: Request, max: number): Promise<BytesBody> {
  const tooLarge = () => ({ ok: false as const, response: httpError(413, "body_too_large", `Request body exceeds ${max} bytes.`) });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
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
