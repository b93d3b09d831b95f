/** Why a fetch failed, in the terms curl's exit codes use. */
export type NetErrorCode = "dns" | "connect" | "timeout" | "too_many_redirects" | "bad_redirect";

/** An ordinary network failure (not a policy refusal) with a message for the agent. */
export class NetError extends Error {
  override name = "NetError";
  constructor(
    readonly code: NetErrorCode,
    message: string,
  ) {
    super(message);
  }
}
