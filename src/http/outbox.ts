import { signingKey, verifyDownload } from "../policy/signing";
import { isSessionId, sessionStub } from "../service";
import { failureResponse, httpError } from "./respond";

/** `/v1/sessions/:id/outbox/:entry/:name`: a sent file, opened by its signed link alone. */
const DOWNLOAD = /^\/v1\/sessions\/([^/]+)\/outbox\/([0-9a-f]{24})(?:\/[^/]*)?$/;

/** Serves a signed download, or null when the request is not one (it then needs the API key). */
export async function signedDownload(request: Request, env: Env): Promise<Response | null> {
  const url = new URL(request.url);
  const m = DOWNLOAD.exec(url.pathname);
  if (!m) return null;
  if (request.method !== "GET" && request.method !== "HEAD") return httpError(405, "method_not_allowed", "Download links accept GET only.");
  const [, session, entry] = m as unknown as [string, string, string];
  const tenant = url.searchParams.get("tenant") ?? "";
  const expires = Number(url.searchParams.get("expires"));
  const sig = url.searchParams.get("sig") ?? "";
  const key = await signingKey(env);
  const invalid = () =>
    httpError(403, "invalid_link", "This download link is not valid (it was altered or signed with another key); ask the agent to send the file again.");
  if (!key || !isSessionId(session) || !tenant || !Number.isSafeInteger(expires)) return invalid();
  if (!(await verifyDownload(key, { tenant, session, entry, expires }, sig))) return invalid();
  if (expires * 1000 <= Date.now()) return httpError(410, "link_expired", "This download link has expired; ask the agent to send the file again.");
  const r = await sessionStub(env, tenant, session).outboxDownload(entry);
  if (!r.ok) return failureResponse(r);
  if (request.method === "HEAD") await r.body.cancel();
  return new Response(request.method === "HEAD" ? null : r.body, {
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(r.size),
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(r.name)}`,
      "cache-control": "private, no-store",
    },
  });
}
