import { WorkerEntrypoint } from "cloudflare:workers";
import type { SessionInfo } from "./session/types";
import { exportTools, FORMATS, type Format } from "./profiles/export";
import { PROFILES, isProfileName } from "./profiles";
import { callTool, callToolStream, createSession, deleteSession, isSessionId, sessionStub, sessionTools, type NewSession } from "./service";
import type { Json, ToolResult } from "./tools/types";

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

  async deleteSession(tenant: string, id: string): Promise<boolean> {
    return isSessionId(id) ? deleteSession(this.env, tenant, id) : false;
  }
}
