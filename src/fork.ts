import type { SessionInfo } from "./session/types";
import { chooseTools, isProfileName, PROFILE_NAMES, PROFILES } from "./profiles";
import { newSessionId, sessionStub, tenantIndex } from "./service";
import { faultPoint } from "./vfs/faults";

export type ForkOutcome = { ok: true; info: SessionInfo; checkpoint: number } | { ok: false; status: 400 | 404; error: string; message: string };

/**
 * A new session of the same tenant whose workspace is a checkpoint of another (one taken now
 * when none is named). Same profile, tools and settings unless another profile is asked for
 * (then that profile's tools). The tree flows from one object to the other as a stream.
 * Sessions are found by tenant and id, so another tenant's session is simply not found.
 */
export async function forkSession(env: Env, tenant: string, id: string, opts: { checkpoint?: number; profile?: string }): Promise<ForkOutcome> {
  const profile = opts.profile;
  if (profile !== undefined && !isProfileName(profile)) {
    return { ok: false, status: 400, error: "invalid_arguments", message: `profile: unknown profile '${profile}'; choose one of ${PROFILE_NAMES.join(", ")}.` };
  }
  const exported = await sessionStub(env, tenant, id).exportFork(opts.checkpoint);
  if (exported === null) return { ok: false, status: 404, error: "session_not_found", message: "No such session." };
  if (!exported.ok) return { ok: false, status: exported.error === "checkpoint_not_found" ? 404 : 400, error: exported.error, message: exported.message };
  const { meta, body, checkpoint } = exported as { meta: import("./session/state").SessionMeta; body: ReadableStream<Uint8Array>; checkpoint: number };
  const name = profile ?? meta.profile;
  if (!isProfileName(name))
    return { ok: false, status: 400, error: "invalid_arguments", message: `profile: the session's profile '${name}' no longer exists; name one.` };
  const chosen = chooseTools(PROFILES[name], name === meta.profile ? meta.tools : undefined);
  if ("error" in chosen) return { ok: false, status: 400, error: "invalid_arguments", message: chosen.error };
  const newId = newSessionId();
  // Listed before it exists (the listing skips ids that are no session yet), so a fork whose
  // Worker dies right after the import committed is still found; a failed one is taken out.
  const index = tenantIndex(env, tenant);
  await index.add(newId, Date.now());
  let info: SessionInfo;
  try {
    info = await sessionStub(env, tenant, newId).importFork(
      { id: newId, tenant, profile: name, tools: chosen.tools, cwd: meta.cwd, env: meta.env, urlRules: meta.urlRules, mcpServers: meta.mcpServers },
      body,
    );
  } catch (e) {
    await index.remove(newId);
    throw e;
  }
  faultPoint("fork-imported");
  return { ok: true, info, checkpoint };
}
