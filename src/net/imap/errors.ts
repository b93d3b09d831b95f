/** Why a mailbox search failed; every message is written for the agent and never holds a secret. */
export type ImapErrorKind = "not_configured" | "connect" | "tls" | "auth" | "folder" | "query" | "protocol" | "timeout";

export class ImapError extends Error {
  override name = "ImapError";
  constructor(
    readonly kind: ImapErrorKind,
    message: string,
  ) {
    super(message);
  }
}
