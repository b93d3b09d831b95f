import { WorkerEntrypoint } from "cloudflare:workers";
import type { SessionInfo } from "./session/types";
import { exportTools, FORMATS, type Format } from "./profiles/export";
import { PROFILES, isProfileName } from "./profiles";
import { callTool, callToolStream, createSession, deleteSession, isSessionId, sessionStub, sessionTools, type NewSession } from "./service";
import type { Json, ToolResult } from "./tools/types";
import { forkSession } from "./fork";
import type { CheckpointAnswer, CheckpointRequest } from "./session/checkpoints";

/**
 * Toolshed for other Workers, over a service binding:
 *   [[services]] binding = "TOOLSHED", service = "toolshed", entrypoint = "ToolshedRPC"
 * The binding is the credential (only Workers the operator binds can call it), so the caller
 * names the tenant; sessions stay scoped to that tenant exactly as over HTTP.
 */
export class ToolshedRPC extends WorkerEntrypoint<Env> {
  /** A profile's tools in a client's format (as `GET /v1/tools?profile=P&format=F`). */
  tools(profile = "toolshed", format: Format = "jsonschema"): Json[] {
    if (!isProfileName(profile)) throw new Error(`Unknown profile '${profile}'.`);
    if (!FORMATS.includes(format)) throw new Error(`Unknown format '${format}'; choose one of ${FORMATS.join(", ")}.`);
    return exportTools(PROFILES[profile].tools, format);
  }

  /** The tools as one session sees them (read_skill lists its skills); null for an unknown session. */
  async sessionTools(tenant: string, id: string, format: Format = "jsonschema"): Promise<Json[] | null> {
    if (!FORMATS.includes(format)) throw new Error(`Unknown format '${format}'; choose one of ${FORMATS.join(", ")}.`);
    return isSessionId(id) ? sessionTools(sessionStub(this.env, tenant, id), format) : null;
  }

  /** `opts.tools` narrows the profile's tools for good (least privilege). */
  async createSession(tenant: string, opts: NewSession = {}): Promise<SessionInfo> {
    if (!tenant) throw new Error("tenant is required");
    const r = await createSession(this.env, tenant, opts);
    if (!r.ok) throw new Error(r.message);
    return r.info;
  }

  async getSession(tenant: string, id: string): Promise<SessionInfo | null> {
    return isSessionId(id) ? sessionStub(this.env, tenant, id).info() : null;
  }

  /** Runs a tool; throws for an unknown session or tool and for invalid arguments, like HTTP's 4xx. */
  async callTool(tenant: string, id: string, name: string, args: unknown): Promise<ToolResult> {
    if (!isSessionId(id)) throw new Error("No such session.");
    const r = await callTool(sessionStub(this.env, tenant, id), name, args);
    if (!r.ok) throw new Error(r.message);
    return r.result;
  }

  /**
   * Runs a tool as a stream of Server-Sent Events (UTF-8 bytes, the same events as HTTP with
   * `Accept: text/event-stream`); throws before streaming for an unknown session or tool and
   * for invalid arguments. Cancelling the stream does not stop the call.
   */
  async callToolStream(tenant: string, id: string, name: string, args: unknown): Promise<ReadableStream<Uint8Array>> {
    if (!isSessionId(id)) throw new Error("No such session.");
    const r = await callToolStream(sessionStub(this.env, tenant, id), name, args);
    if (!r.ok) throw new Error(r.message);
    return r.body;
  }

  // ---- checkpoints (docs/checkpoints.md): the HTTP routes' answers; failures throw -------

  private async checkpointOp(tenant: string, id: string, req: CheckpointRequest): Promise<Record<string, unknown>> {
    if (!isSessionId(id)) throw new Error("No such session.");
    const r = (await sessionStub(this.env, tenant, id).checkpoint(req)) as CheckpointAnswer | null;
    if (r === null) throw new Error("No such session.");
    if (!r.ok) throw new Error(r.message);
    return r.value;
  }

  /** As `POST /v1/sessions/:id/checkpoints`. */
  createCheckpoint(tenant: string, id: string, label?: string) {
    return this.checkpointOp(tenant, id, { op: "create", label });
  }

  /** As `GET /v1/sessions/:id/checkpoints`: `{checkpoints, history}`. */
  listCheckpoints(tenant: string, id: string) {
    return this.checkpointOp(tenant, id, { op: "list" });
  }

  deleteCheckpoint(tenant: string, id: string, checkpoint: number) {
    return this.checkpointOp(tenant, id, { op: "delete", id: checkpoint });
  }

  /** The whole workspace, or `paths`, back to a checkpoint (undoable: see the answer's `undo`). */
  restoreCheckpoint(tenant: string, id: string, checkpoint: number, paths?: string[]) {
    return this.checkpointOp(tenant, id, { op: "restore", id: checkpoint, paths });
  }

  /** Undo the session's last `calls` tool calls: a restore to the checkpoint before the oldest of them that changed files. */
  undoCalls(tenant: string, id: string, calls: number) {
    if (!Number.isInteger(calls) || calls < 1) throw new Error("calls must be a positive integer");
    return this.checkpointOp(tenant, id, { op: "undo", calls });
  }

  /** As `GET /v1/sessions/:id/diff?from=&to=`; `to` null is the live workspace. */
  diff(tenant: string, id: string, from: number, to: number | null = null) {
    return this.checkpointOp(tenant, id, { op: "diff", from, to });
  }

  /** As `POST /v1/sessions/:id/fork`: the new session's info. */
  async forkSession(tenant: string, id: string, opts: { checkpoint?: number; profile?: string } = {}): Promise<SessionInfo> {
    if (!isSessionId(id)) throw new Error("No such session.");
    const r = await forkSession(this.env, tenant, id, opts);
    if (!r.ok) throw new Error(r.message);
    return r.info;
  }

  async deleteSession(tenant: string, id: string): Promise<boolean> {
    return isSessionId(id) ? deleteSession(this.env, tenant, id) : false;
  }
}
