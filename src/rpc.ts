import { WorkerEntrypoint } from "cloudflare:workers";
import type { SessionInfo } from "../durable-objects/session";
import { callTool, createSession, isSessionId, PROFILES, sessionStub, sessionTools, type Profile } from "./service";
import { describeTools, type ToolDescription } from "./tools/registry";
import type { ToolResult } from "./tools/types";

/**
 * Toolshed for other Workers, over a service binding:
 *   [[services]] binding = "TOOLSHED", service = "toolshed", entrypoint = "ToolshedRPC"
 * The binding is the credential (only Workers the operator binds can call it), so the caller
 * names the tenant; sessions stay scoped to that tenant exactly as over HTTP.
 */
export class ToolshedRPC extends WorkerEntrypoint<Env> {
  tools(): ToolDescription[] {
    return describeTools();
  }

  /** The tools as one session sees them (read_skill lists its skills); null for an unknown session. */
  async sessionTools(tenant: string, id: string): Promise<ToolDescription[] | null> {
    return isSessionId(id) ? sessionTools(sessionStub(this.env, tenant, id)) : null;
  }

  async createSession(tenant: string, opts: { profile?: Profile } = {}): Promise<SessionInfo> {
    if (!tenant) throw new Error("tenant is required");
    if (opts.profile && !PROFILES.includes(opts.profile)) throw new Error(`Unknown profile '${opts.profile}'; known: ${PROFILES.join(", ")}`);
    return createSession(this.env, tenant, { profile: opts.profile ?? "toolshed" });
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

  async deleteSession(tenant: string, id: string): Promise<boolean> {
    return isSessionId(id) ? sessionStub(this.env, tenant, id).destroy() : false;
  }
}
