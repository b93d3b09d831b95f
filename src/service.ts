import type { CreateOptions, Outcome, SessionDO, SessionInfo } from "../durable-objects/session";
import type { ToolDescription } from "./tools/registry";
import type { ToolResult } from "./tools/types";

export const PROFILES = ["toolshed"] as const;
export type Profile = (typeof PROFILES)[number];

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
export function sessionStub(env: Env, tenant: string, id: string): DurableObjectStub<SessionDO> {
  return env.SESSIONS.get(env.SESSIONS.idFromName(`${tenant}/${id}`));
}

export async function createSession(
  env: Env,
  tenant: string,
  opts: Omit<CreateOptions, "id" | "tenant">,
): Promise<SessionInfo> {
  const id = newSessionId();
  return sessionStub(env, tenant, id).create({ ...opts, id, tenant });
}

/** Typed call into the session: RPC typing cannot express ToolResult's open fields. */
export async function callTool(
  stub: DurableObjectStub<SessionDO>,
  name: string,
  args: unknown,
  opts: { origin?: string } = {},
): Promise<Outcome<{ result: ToolResult }>> {
  const untyped = stub as unknown as { callTool(name: string, args: unknown, opts: { origin?: string }): Promise<unknown> };
  return (await untyped.callTool(name, args, opts)) as Outcome<{ result: ToolResult }>;
}

/** The tools as one session sees them; typed by hand for the same reason as callTool. */
export async function sessionTools(stub: DurableObjectStub<SessionDO>): Promise<ToolDescription[] | null> {
  const untyped = stub as unknown as { tools(): Promise<unknown> };
  return (await untyped.tools()) as ToolDescription[] | null;
}
