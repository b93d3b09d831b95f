import type { Outcome, SessionInfo } from "./session/types";
import type { Laps, Phases } from "./lib/server-timing";
import { chooseMcpServers } from "./mcp/client/config";
import { checkEnvAssignment } from "./policy/env";
import { resolvePath } from "./policy/paths";
import { ROOT } from "./vfs/paths";
import { chooseTools, isProfileName, PROFILE_NAMES, PROFILES } from "./profiles";
import type { Json, ToolResult } from "./tools/types";
import type { Format } from "./profiles/export";

/** The object's stub, typed by the binding (src/env.d.ts), so this layer does not import the object. */
export type SessionStub = ReturnType<Env["SESSIONS"]["get"]>;

const ID_PATTERN = /^[0-9a-f]{32}$/;

/** 128 random bits: ids cannot be guessed, and each is scoped to its tenant anyway. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const isSessionId = (id: string): boolean => ID_PATTERN.test(id);

/**
 * The session's Durable Object. The name joins tenant and id, so another tenant asking for
 * the same id reaches a different, empty object: to them the session does not exist.
 */
export function sessionStub(env: Env, tenant: string, id: string): SessionStub {
  return env.SESSIONS.get(env.SESSIONS.idFromName(`${tenant}/${id}`));
}

export interface NewSession {
  profile?: string;
  /** A subset of the profile's tools (least privilege); all of them when absent. */
  tools?: string[];
  /** Working directory inside /workspace (relative to it or absolute). */
  cwd?: string;
  /** Variables every command of the session starts with. */
  env?: Record<string, string>;
  /** The session's own host rules for every network tool (they only narrow the operator's). */
  urlRules?: { allow?: string[]; deny?: string[] };
  /** Remote MCP servers to attach, among those the operator configured (TOOLSHED_MCP_SERVERS); none when absent. */
  mcpServers?: string[];
}

/** Creates a session, or says which option is wrong (HTTP answers 400, RPC throws). */
export async function createSession(env: Env, tenant: string, opts: NewSession, laps?: Laps): Promise<{ ok: true; info: SessionInfo } | { ok: false; message: string }> {
  const name = opts.profile ?? "toolshed";
  if (!isProfileName(name)) return { ok: false, message: `profile: unknown profile '${name}'; choose one of ${PROFILE_NAMES.join(", ")}.` };
  const chosen = chooseTools(PROFILES[name], opts.tools);
  if ("error" in chosen) return { ok: false, message: chosen.error };
  const servers = chooseMcpServers(env, opts.mcpServers);
  if ("error" in servers) return { ok: false, message: servers.error };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    const denial = checkEnvAssignment(k, v);
    if (denial) return { ok: false, message: `env: ${denial.reason}` };
  }
  let cwd: string | undefined;
  try {
    if (opts.cwd !== undefined) cwd = resolvePath(ROOT, opts.cwd);
  } catch (e) {
    return { ok: false, message: `cwd: ${(e as Error).message}` };
  }
  const id = newSessionId();
  laps?.lap("validate");
  // The tenant's index learns of the session while the session object is made, not after: one
  // round trip of waiting instead of two, and both are done before the answer goes out, so a
  // listing made after it includes the session. An entry whose creation then fails is removed;
  // one left by a crash between the two names no object, and listings skip it (listSessions).
  const index = tenantIndex(env, tenant);
  const indexed = index.add(id, Date.now());
  let info: SessionInfo;
  try {
    info = await sessionStub(env, tenant, id).create({
      id,
      tenant,
      profile: name,
      tools: chosen.tools,
      cwd,
      env: opts.env,
      urlRules: opts.urlRules,
      mcpServers: servers.servers,
    });
  } catch (e) {
    await indexed.catch(() => {}); // settled before it is undone
    await index.remove(id).catch(() => {});
    throw e;
  }
  laps?.lap("session");
  await indexed;
  laps?.lap("tenant");
  return { ok: true, info };
}

export const tenantIndex = (env: Env, tenant: string) => env.TENANTS.get(env.TENANTS.idFromName(tenant));

/** The tenant's sessions, newest first, as GET /v1/sessions/:id describes each. */
export async function listSessions(env: Env, tenant: string, limit: number): Promise<SessionInfo[]> {
  const index = tenantIndex(env, tenant);
  const infos = (await Promise.all((await index.list(limit)).map((id) => sessionStub(env, tenant, id).info()))) as (SessionInfo | null)[];
  return infos.filter((i): i is SessionInfo => i !== null);
}

/** Erases a session and takes it out of the tenant's index. */
export async function deleteSession(env: Env, tenant: string, id: string): Promise<boolean> {
  const deleted = await sessionStub(env, tenant, id).destroy();
  await tenantIndex(env, tenant).remove(id);
  return deleted;
}

/** Typed call into the session: RPC typing cannot express ToolResult's open fields. */
export async function callTool(
  stub: SessionStub,
  name: string,
  args: unknown,
  opts: { origin?: string } = {},
): Promise<Outcome<{ result: ToolResult }> & { phases?: Phases }> {
  const untyped = stub as unknown as { callTool(name: string, args: unknown, opts: { origin?: string }): Promise<unknown> };
  return (await untyped.callTool(name, args, opts)) as Outcome<{ result: ToolResult }> & { phases?: Phases };
}

/** The same call as Server-Sent Events (see SessionDO.callToolStream). */
export async function callToolStream(
  stub: SessionStub,
  name: string,
  args: unknown,
  opts: { origin?: string } = {},
): Promise<Outcome<{ body: ReadableStream<Uint8Array> }>> {
  const untyped = stub as unknown as { callToolStream(name: string, args: unknown, opts: { origin?: string }): Promise<unknown> };
  return (await untyped.callToolStream(name, args, opts)) as Outcome<{ body: ReadableStream<Uint8Array> }>;
}

/** The tools as one session sees them (its profile, its subset, descriptions computed for it). */
export async function sessionTools(stub: SessionStub, format: Format = "jsonschema"): Promise<Json[] | null> {
  const untyped = stub as unknown as { tools(format: Format): Promise<unknown> };
  return (await untyped.tools(format)) as Json[] | null;
}
