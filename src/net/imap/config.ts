import { ImapError } from "./errors";

/** How the connection is secured: implicit TLS, STARTTLS, or plain (local servers only). */
export type ImapTls = "on" | "starttls" | "off";

export interface ImapConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  tls: ImapTls;
}

export interface ImapEnv {
  TOOLSHED_IMAP_HOST?: string;
  TOOLSHED_IMAP_PORT?: string;
  TOOLSHED_IMAP_USER?: string;
  TOOLSHED_IMAP_PASSWORD?: string;
  TOOLSHED_IMAP_TLS?: string;
}

const TLS_MODES: readonly ImapTls[] = ["on", "starttls", "off"];

/** The operator's mailbox, or a "not supported" error naming what is missing. */
export function imapConfigFromEnv(env: ImapEnv): ImapConfig {
  const host = env.TOOLSHED_IMAP_HOST?.trim();
  const user = env.TOOLSHED_IMAP_USER;
  const password = env.TOOLSHED_IMAP_PASSWORD;
  if (!host || !user || !password) {
    throw new ImapError(
      "not_configured",
      "email_search is not supported here: the operator has not configured a mailbox (TOOLSHED_IMAP_HOST, TOOLSHED_IMAP_USER and TOOLSHED_IMAP_PASSWORD).",
    );
  }
  const tls = (env.TOOLSHED_IMAP_TLS?.trim().toLowerCase() || "on") as ImapTls;
  if (!TLS_MODES.includes(tls)) {
    throw new ImapError("not_configured", `The operator's TOOLSHED_IMAP_TLS is '${tls}'; it must be on, starttls or off. Ask the operator to fix it.`);
  }
  const port = Number(env.TOOLSHED_IMAP_PORT?.trim() || (tls === "on" ? 993 : 143));
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ImapError("not_configured", "The operator's TOOLSHED_IMAP_PORT is not a port number (1-65535). Ask the operator to fix it.");
  }
  return { host, port, user, password, tls };
}
