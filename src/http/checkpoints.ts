import type { IRequest, RouterType } from "itty-router";
import { z } from "zod";
import type { CheckpointAnswer, CheckpointRequest } from "../session/checkpoints";
import { forkSession } from "../fork";
import { MAX_LABEL_CHARS } from "../checkpoints/limits";
import { maxJsonBytesFromEnv } from "../policy/limits";
import { isSessionId, sessionStub } from "../service";
import { formatValidationError } from "../tools/registry";
import { readJson } from "./body";
import { httpError, json } from "./respond";

/** Checkpoint ids in URLs and bodies: positive integers. */
const checkpointId = z.coerce.number().int().positive().describe("A checkpoint id, as listed by GET /v1/sessions/:id/checkpoints");

export const createCheckpointBody = z.object({ label: z.string().max(MAX_LABEL_CHARS).optional().describe("A name for the checkpoint") }).strict();
export const restoreBody = z
  .object({
    paths: z
      .array(z.string().min(1))
      .max(1000)
      .optional()
      .describe("Only these paths (files or folders, relative to /workspace) go back; all of the workspace when absent"),
  })
  .strict();
const diffQuery = z.object({
  from: checkpointId,
  to: z
    .union([z.literal("now"), checkpointId])
    .default("now")
    .describe("A checkpoint id, or `now` for the live workspace"),
});
export const undoBody = z.object({ calls: z.number().int().min(1).max(10_000).describe("How many of the session's last tool calls to undo") }).strict();
export const forkBody = z
  .object({
    checkpoint: checkpointId.optional().describe("The checkpoint to fork from; one is taken now when absent"),
    profile: z.string().optional().describe("The new session's profile; the same as the forked session's when absent"),
  })
  .strict();

const noSession = () => httpError(404, "session_not_found", "No such session.");

const STATUS: Record<string, number> = { checkpoint_not_found: 404, invalid_arguments: 400, denied: 403 };

function answer(r: CheckpointAnswer | null, status = 200): Response {
  if (r === null) return noSession();
  if (r.ok) return json(r.value, status);
  if (r.error === "fs") return httpError(r.code === "EDQUOT" ? 413 : r.code === "ENOENT" ? 404 : 409, r.code ?? "fs", r.message);
  return httpError(STATUS[r.error] ?? 400, r.error, r.message);
}

/** Empty bodies read as `{}` (every field is optional). */
async function body<T>(req: IRequest, env: Env, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  const text = await readJson(req, maxJsonBytesFromEnv(env));
  if (!text.ok) return text;
  const parsed = schema.safeParse(text.value);
  if (!parsed.success) return { ok: false, response: httpError(400, "invalid_arguments", formatValidationError(parsed.error)) };
  return { ok: true, value: parsed.data };
}

type Args = [env: Env, tenant: string];

/** The checkpoint routes (docs/checkpoints.md), added to the API's router. */
export function registerCheckpointRoutes(router: RouterType<IRequest, Args>): void {
  const op = (req: IRequest, env: Env, tenant: string, request: CheckpointRequest) => {
    const id = req.params["id"] ?? "";
    if (!isSessionId(id)) return Promise.resolve(null);
    return sessionStub(env, tenant, id).checkpoint(request) as Promise<CheckpointAnswer | null>;
  };
  const cp = (req: IRequest) => checkpointId.safeParse(req.params["cp"]);
  router
    .post("/v1/sessions/:id/checkpoints", async (req, env, tenant) => {
      const b = await body(req, env, createCheckpointBody);
      if (!b.ok) return b.response;
      return answer(await op(req, env, tenant, { op: "create", label: b.value.label }), 201);
    })
    .get("/v1/sessions/:id/checkpoints", async (req, env, tenant) => answer(await op(req, env, tenant, { op: "list" })))
    .delete("/v1/sessions/:id/checkpoints/:cp", async (req, env, tenant) => {
      const id = cp(req);
      if (!id.success) return httpError(404, "checkpoint_not_found", "Checkpoint ids are positive integers; list them with GET /v1/sessions/:id/checkpoints.");
      return answer(await op(req, env, tenant, { op: "delete", id: id.data }));
    })
    .post("/v1/sessions/:id/checkpoints/:cp/restore", async (req, env, tenant) => {
      const id = cp(req);
      if (!id.success) return httpError(404, "checkpoint_not_found", "Checkpoint ids are positive integers; list them with GET /v1/sessions/:id/checkpoints.");
      const b = await body(req, env, restoreBody);
      if (!b.ok) return b.response;
      return answer(await op(req, env, tenant, { op: "restore", id: id.data, paths: b.value.paths }));
    })
    .get("/v1/sessions/:id/diff", async (req, env, tenant) => {
      const q = diffQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
      if (!q.success) return httpError(400, "invalid_arguments", `${formatValidationError(q.error)} (write ?from=CHECKPOINT&to=CHECKPOINT or ?to=now)`);
      return answer(await op(req, env, tenant, { op: "diff", from: q.data.from, to: q.data.to === "now" ? null : q.data.to }));
    })
    .post("/v1/sessions/:id/undo", async (req, env, tenant) => {
      const b = await body(req, env, undoBody);
      if (!b.ok) return b.response;
      return answer(await op(req, env, tenant, { op: "undo", calls: b.value.calls }));
    })
    .post("/v1/sessions/:id/fork", async (req, env, tenant) => {
      const id = req.params["id"] ?? "";
      if (!isSessionId(id)) return noSession();
      const b = await body(req, env, forkBody);
      if (!b.ok) return b.response;
      const r = await forkSession(env, tenant, id, b.value);
      if (!r.ok) return httpError(r.status, r.error, r.message);
      return json({ ...r.info, forked_from: { session: id, checkpoint: r.checkpoint } }, 201, { location: `/v1/sessions/${r.info.id}` });
    });
}
