import { Router, type IRequest } from "itty-router";
import { LIMITS } from "../limits";
import { maxJsonBytesFromEnv, MAX_UPLOAD_BYTES } from "../policy/limits";
import { PROFILES } from "../profiles";
import { exportTools } from "../profiles/export";
import { lapsOf } from "../lib/server-timing";
import { callTool, callToolStream, createSession, deleteSession, isSessionId, listSessions, sessionStub, sessionTools } from "../service";
import { formatValidationError } from "../tools/registry";
import { countedBody, readBytes, readJson } from "./body";
import { registerCheckpointRoutes } from "./checkpoints";
import { eventStream, failureResponse, httpError, json, wantsEventStream } from "./respond";
import { CreateSessionBody, ToolsQuery } from "./shapes";

type Args = [env: Env, tenant: string];

const tooLargeUpload = () => httpError(413, "body_too_large", `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes.`);

const noSession = () => httpError(404, "session_not_found", "No such session.");

const noEndpoint = () => httpError(404, "not_found", "No such endpoint. See GET /v1/openapi.json or docs/api.md.");

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

registerCheckpointRoutes(router);

router
  .get("/v1/tools", (req) => {
    const q = ToolsQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
    if (!q.success) return httpError(400, "invalid_arguments", formatValidationError(q.error));
    return json({ profile: q.data.profile, format: q.data.format, tools: exportTools(PROFILES[q.data.profile].tools, q.data.format) });
  })
  .get("/v1/sessions", async (req, env, tenant) => {
    const limit = Math.min(Math.max(Number(new URL(req.url).searchParams.get("limit") ?? 50) || 50, 1), LIMITS.listedSessions);
    return json({ sessions: await listSessions(env, tenant, limit) });
  })
  .post("/v1/sessions", async (req, env, tenant) => {
    const body = await readJson(req, maxJsonBytesFromEnv(env));
    if (!body.ok) return body.response;
    const parsed = CreateSessionBody.safeParse(body.value);
    if (!parsed.success) return httpError(400, "invalid_arguments", formatValidationError(parsed.error));
    const { url_rules: urlRules, mcp_servers: mcpServers, ...rest } = parsed.data;
    const laps = lapsOf(req);
    laps?.lap("routing");
    const r = await createSession(env, tenant, { ...rest, urlRules, mcpServers }, laps);
    if (!r.ok) return httpError(400, "invalid_arguments", r.message);
    const res = json(r.info, 201, { location: `/v1/sessions/${r.info.id}` });
    laps?.lap("response");
    return res;
  })
  .get(
    "/v1/sessions/:id",
    withSession(async (_req, _env, stub) => {
      const info = await stub.info();
      return info ? json(info) : noSession();
    }),
  )
  .delete("/v1/sessions/:id", (req, env, tenant) => {
    const id = req.params["id"] ?? "";
    if (!isSessionId(id)) return noSession();
    return deleteSession(env, tenant, id).then((deleted) => (deleted ? json({ deleted: true }) : noSession()));
  })
  .get(
    "/v1/sessions/:id/tree",
    withSession(async (req, _env, stub) => {
      const r = await stub.listDir(new URL(req.url).searchParams.get("path") ?? "/workspace");
      return r.ok ? json({ path: r.path, entries: r.entries }) : failureResponse(r);
    }),
  )
  .get(
    "/v1/sessions/:id/terminal",
    // The session object answers the WebSocket upgrade itself (hibernatable sockets).
    withSession((req, _env, stub) => stub.fetch(req)),
  )
  .get(
    "/v1/sessions/:id/log",
    withSession(async (req, _env, stub) => {
      const limit = Math.min(Math.max(Number(new URL(req.url).searchParams.get("limit") ?? 100) || 100, 1), 1000);
      const calls = await stub.log(limit);
      return calls ? json({ calls }) : noSession();
    }),
  )
  .get(
    "/v1/sessions/:id/tools",
    withSession(async (req, _env, stub) => {
      const q = ToolsQuery.omit({ profile: true }).safeParse(Object.fromEntries(new URL(req.url).searchParams));
      if (!q.success) return httpError(400, "invalid_arguments", formatValidationError(q.error));
      const tools = await sessionTools(stub, q.data.format);
      return tools ? json({ format: q.data.format, tools }) : noSession();
    }),
  )
  .get(
    "/v1/sessions/:id/tasks",
    withSession(async (_req, _env, stub) => {
      const tasks = await stub.tasks();
      return tasks ? json({ tasks }) : noSession();
    }),
  )
  .get(
    "/v1/sessions/:id/tasks/:task",
    withSession(async (req, _env, stub) => {
      const r = await stub.task(req.params["task"] ?? "");
      if (!r) return noSession();
      if (!r.task) return httpError(404, "task_not_found", "This session has no such task; list its tasks with GET /v1/sessions/:id/tasks.");
      return json(r.task);
    }),
  )
  .get(
    "/v1/sessions/:id/consistency",
    // Operator-only: off unless the deployment sets the flag, so it is no part of the public API.
    withSession(async (_req, env, stub) => {
      if (env.TOOLSHED_CONSISTENCY_CHECK !== "1") return noEndpoint();
      const report = await stub.consistency();
      return report ? json(report) : noSession();
    }),
  )
  .get(
    "/v1/sessions/:id/outbox",
    withSession(async (req, _env, stub) => {
      const files = await stub.outboxList(new URL(req.url).origin);
      return files ? json({ files }) : noSession();
    }),
  )
  .post(
    "/v1/sessions/:id/tools/:name",
    withSession(async (req, env, stub) => {
      const laps = lapsOf(req);
      const body = await readJson(req, maxJsonBytesFromEnv(env));
      if (!body.ok) return body.response;
      const name = req.params["name"] ?? "";
      const opts = { origin: new URL(req.url).origin };
      if (wantsEventStream(req)) {
        const r = await callToolStream(stub, name, body.value, opts);
        return r.ok ? eventStream(r.body) : failureResponse(r);
      }
      laps?.lap("routing");
      const r = await callTool(stub, name, body.value, opts);
      laps?.lap("stub");
      laps?.merge(r.phases, "stub"); // "stub" keeps only the RPC's own cost
      const res = r.ok ? json(r.result) : failureResponse(r);
      laps?.lap("response");
      return res;
    }),
  )
  .all(
    "/v1/sessions/:id/mcp",
    // Buffered here (JSON-RPC messages are small) so the body limit holds and the session
    // object may answer without reading it.
    withSession(async (req, env, stub) => {
      const body = await readBytes(req, maxJsonBytesFromEnv(env));
      if (!body.ok) return body.response;
      const init: RequestInit = { method: req.method, headers: req.headers };
      if (body.bytes.length > 0) init.body = body.bytes;
      return stub.fetch(new Request(req.url, init));
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
  .all("*", noEndpoint);
