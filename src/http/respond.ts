import type { Failure } from "../session/types";
import { UPLOAD_RETRY_AFTER_S } from "../session/upload-slots";

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });

export const httpError = (status: number, error: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response =>
  json({ error, message, ...extra }, status, headers);

const FS_STATUS: Record<string, number> = {
  ENOENT: 404,
  EISDIR: 409,
  ENOTDIR: 409,
  ENOTEMPTY: 409,
  EEXIST: 409,
  EDQUOT: 413,
  EFBIG: 413,
  EIO: 400,
  EBUSY: 409,
  EINVAL: 400,
  EAGAIN: 429,
};

/** The HTTP shape of a session-level failure. */
export function failureResponse(f: Failure): Response {
  switch (f.error) {
    case "session_not_found":
    case "tool_not_found":
      return httpError(404, f.error, f.message);
    case "invalid_arguments":
      return httpError(400, f.error, f.message);
    case "denied":
      return httpError(403, "denied", f.message, { denied: f.denied });
    case "fs":
      // EAGAIN is only sent before a body is read (uploads waiting for a slot).
      if (f.code === "EAGAIN") return httpError(429, f.code, f.message, {}, { "retry-after": String(UPLOAD_RETRY_AFTER_S) });
      return httpError(FS_STATUS[f.code] ?? 400, f.code, f.message);
  }
}

/** True when the client asked for Server-Sent Events (`Accept: text/event-stream`). */
export const wantsEventStream = (req: Request): boolean => (req.headers.get("accept") ?? "").toLowerCase().includes("text/event-stream");

export const eventStream = (body: ReadableStream<Uint8Array>): Response =>
  new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" },
  });
