import { Router, type IRequest } from "itty-router";
import { z } from "zod";
import { maxJsonBytesFromEnv, MAX_UPLOAD_BYTES } from "../policy/limits";
import { resolvePath } from "../policy/paths";
import { callTool, createSession, isSessionId, PROFILES, sessionStub } from "../service";
import { describeTools, formatValidationError } from "../tools/registry";
import { countedBody, readJson } from "./body";
import { failureResponse, httpError, json } from "./respond";

type Args = [env: Env, tenant: string];

const createBody = z.object({
  profile: z.enum(PROFILES).optional().describe("Which platform's tool set the session serves"),
  cwd: z.string().optional().describe("Working directory inside /workspace (default /workspace)"),
});

const tooLargeUpload = () => httpError(413, "body_too_large", `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes.`);

const noSession = () => httpError(404, "session_not_found", "No such session.");

/** The files endpoint's path: URL segments decoded once (transport), then taken literally. */
function filePath(request: IRequest): string | null {
  const { pathname } = new URL(request.url);
  const m = /^\/v1\/sessions\/[^/]+\/files\/(.*)$/.exec(pathname);
  if (!m) return null;
  try {
    return m[1]!.split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
}

function withSession(handler: (req: IRequest, env: Env, stub: ReturnType<typeof sessionStub>) => Promise<Response>) {
  return (req: IRequest, env: Env, tenant: string): Promise<Response> | Response => {
    const id = req.params["id"] ?? "";
    if (!isSessionId(id)) return noSession();
    return handler(req, env, sessionStub(env, tenant, id));
  };
}

export const router = Router<IRequest, Args>();

router
  .get("/v1/tools", () => json({ tools: describeTools() }))
  .post("/v1/sessions", async (req, env, tenant) => {
    const body = await readJson(req, maxJsonBytesFromEnv(env));
    if (!body.ok) return body.response;
    const parsed = createBody.safeParse(body.value);
    if (!parsed.success) return httpError(400, "invalid_arguments", formatValidationError(parsed.error));
    let cwd: string | undefined;
    if (parsed.data.cwd !== undefined) {
      try {
        cwd = resolvePath("/workspace", parsed.data.cwd);
      } catch (e) {
        return httpError(400, "invalid_arguments", `cwd: ${(e as Error).message}`);
      }
    }
    const info = await createSession(env, tenant, { profile: parsed.data.profile ?? "toolshed", cwd });
    return json(info, 201, { location: `/v1/sessions/${info.id}` });
  })
  .get(
    "/v1/sessions/:id",
    withSession(async (_req, _env, stub) => {
      const info = await stub.info();
      return info ? json(info) : noSession();
    }),
  )
  .delete(
    "/v1/sessions/:id",
    withSession(async (_req, _env, stub) => ((await stub.destroy()) ? json({ deleted: true }) : noSession())),
  )
  .get(
    "/v1/sessions/:id/log",
    withSession(async (req, _env, stub) => {
      const limit = Math.min(Math.max(Number(new URL(req.url).searchParams.get("limit") ?? 100) || 100, 1), 1000);
      const calls = await stub.log(limit);
      return calls ? json({ calls }) : noSession();
    }),
  )
  .post(
    "/v1/sessions/:id/tools/:name",
    withSession(async (req, env, stub) => {
      const body = await readJson(req, maxJsonBytesFromEnv(env));
      if (!body.ok) return body.response;
      const r = await callTool(stub, req.params["name"] ?? "", body.value);
      return r.ok ? json(r.result) : failureResponse(r);
    }),
  )
  .get(
    "/v1/sessions/:id/files/*",
    withSession(async (req, _env, stub) => {
      const path = filePath(req);
      if (path === null) return httpError(400, "invalid_path", "The file path in the URL is not valid percent-encoding.");
      const r = await stub.download(path);
      if (!r.ok) return failureResponse(r);
      return new Response(r.body, {
        headers: { "content-type": "application/octet-stream", "content-length": String(r.size) },
      });
    }),
  )
  .put(
    "/v1/sessions/:id/files/*",
    withSession(async (req, _env, stub) => {
      // A refusal leaves the unread body to workerd, which discards it cleanly (see `drain`).
      const path = filePath(req);
      if (path === null) return httpError(400, "invalid_path", "The file path in the URL is not valid percent-encoding.");
      const declared = Number(req.headers.get("content-length") ?? "0");
      if (declared > MAX_UPLOAD_BYTES) return tooLargeUpload();
      const opened = await stub.openUpload(path);
      if (!opened.ok) return failureResponse(opened);
      const counted = countedBody(req.body, MAX_UPLOAD_BYTES);
      const stored = await stub.upload(opened.uploadId, counted.body, MAX_UPLOAD_BYTES);
      if (!stored.ok) return failureResponse(stored);
      if (counted.overLimit()) return (await stub.finishUpload(opened.uploadId, false), tooLargeUpload());
      const sizeMatches = !req.headers.has("content-length") || declared === stored.size;
      const r = await stub.finishUpload(opened.uploadId, counted.complete() && sizeMatches);
      return r.ok ? json({ path: r.path, size: r.size }, 201) : failureResponse(r);
    }),
  )
  .delete(
    "/v1/sessions/:id/files/*",
    withSession(async (req, _env, stub) => {
      const path = filePath(req);
      if (path === null) return httpError(400, "invalid_path", "The file path in the URL is not valid percent-encoding.");
      const recursive = new URL(req.url).searchParams.get("recursive") === "1";
      const r = await stub.removeFile(path, recursive);
      return r.ok ? json({ deleted: r.path }) : failureResponse(r);
    }),
  )
  .all("*", () => httpError(404, "not_found", "No such endpoint. See the API reference in the README."));
