import { dohResolver, urlPolicyFromEnv, type HostRules, type Resolver, type UrlPolicy, type UrlPolicyEnv } from "../policy/urls";

/** What a network tool needs from its session: the URL policy and the resolver it uses. */
export interface NetContext {
  policy: UrlPolicy;
  resolve: Resolver;
}

/** The session's network door: the operator's variables narrowed by the session's own rules. */
export function netContextFromEnv(env: UrlPolicyEnv, session: Partial<HostRules> = {}): NetContext {
  const policy = urlPolicyFromEnv(env, session);
  return { policy, resolve: dohResolver(policy.dohUrl) };
}
