import PostalMime from "postal-mime";
import { judgeUrlSyntax, resolveAndJudge } from "../../policy/urls";
import { PolicyDenied } from "../../policy/denied";
import type { NetContext } from "../context";
import { htmlToMarkdown } from "../readable";
import type { ImapConfig } from "./config";
import { ImapError } from "./errors";
import { checkSearchQuery, quoted, quoteFolder } from "./query";
import { ImapWire, Literal, type ImapResponse } from "./wire";
import { LIMITS } from "../../limits";

// A type, not an interface, so that it is assignable to a tool result's JSON.
export type MailMessage = {
  subject: string;
  from: string;
  date: string;
  body: string;
};

export interface SearchRequest {
  query: string;
  folder: string;
  maxResults: number;
}

interface SearchLimits {
  /** Bytes of each message fetched (`BODY.PEEK[]<0.n>`): bounds what a huge message costs. */
  fetchBytes: number;
  /** Characters of each decoded body returned. */
  bodyChars: number;
  /** The whole search, connect to logout. */
  timeoutMs: number;
}

const DEFAULT_LIMITS: SearchLimits = { fetchBytes: LIMITS.mailFetchBytes, bodyChars: LIMITS.mailBodyChars, timeoutMs: LIMITS.mailTimeoutMs };

/**
 * Runs one IMAP SEARCH on the operator's mailbox, read-only (EXAMINE, BODY.PEEK), and returns
 * the newest `maxResults` matches decoded, newest first. The server is judged by the URL policy
 * as `imap://host:port` before anything is sent.
 */
export async function searchMailbox(cfg: ImapConfig, net: NetContext, req: SearchRequest, limits = DEFAULT_LIMITS): Promise<{ total: number; messages: MailMessage[] }> {
  const query = checkSearchQuery(req.query);
  const folder = quoteFolder(req.folder);
  await judgeServer(cfg, net);

  const wire = await ImapWire.open(cfg.host, cfg.port, cfg.tls, limits.fetchBytes + 1024);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    wire.abort();
  }, limits.timeoutMs);
  try {
    return await session(wire, cfg, query, folder, req, limits);
  } catch (e) {
    if (timedOut)
      throw new ImapError("timeout", `The IMAP server did not finish the search within ${limits.timeoutMs / 1000} s. Try a narrower query or try again later.`);
    throw e;
  } finally {
    clearTimeout(timer);
    await wire.close();
  }
}

async function judgeServer(cfg: ImapConfig, net: NetContext): Promise<void> {
  const where = `imap://${cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host}:${cfg.port}`;
  try {
    const allowed = judgeUrlSyntax(where, net.policy, ["imap:"]);
    await resolveAndJudge(allowed, net.resolve);
    // Plain IMAP sends the password in the clear: only to a server the operator exempted by origin.
    if (cfg.tls === "off" && !allowed.exempt) {
      throw new ImapError(
        "not_configured",
        `The operator set TOOLSHED_IMAP_TLS=off for ${where}, which is not in TOOLSHED_ALLOWED_ORIGINS; plain IMAP is only used with an exempted local server. Ask the operator to use on or starttls.`,
      );
    }
  } catch (e) {
    if (e instanceof ImapError) throw e;
    // A refusal reaches the tool as itself, so the result carries `denied`.
    if (e instanceof PolicyDenied) throw e;
    throw new ImapError("connect", `Could not look up the IMAP server ${cfg.host}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function session(wire: ImapWire, cfg: ImapConfig, query: string, folder: string, req: SearchRequest, limits: SearchLimits) {
  const hello = await wire.greeting();
  if (!/^\* (OK|PREAUTH)\b/i.test(hello.text)) {
    throw new ImapError(
      "protocol",
      `The server at ${cfg.host}:${cfg.port} did not greet as an IMAP server${cfg.tls === "off" ? " (if it expects TLS, the operator's TOOLSHED_IMAP_TLS=off does not match)" : ""}.`,
    );
  }
  if (cfg.tls === "starttls") {
    await wire.command(
      ["STARTTLS"],
      () => new ImapError("tls", `The IMAP server ${cfg.host} refused STARTTLS; the operator's TOOLSHED_IMAP_TLS=starttls does not match the server.`),
    );
    wire.upgrade(cfg.host);
  }
  if (!/^\* PREAUTH/i.test(hello.text)) {
    await wire.command(["LOGIN ", astring(cfg.user), " ", astring(cfg.password)], (status, text) =>
      status === "NO"
        ? new ImapError(
            "auth",
            `The IMAP server refused the operator's login (${stripCode(text)}). The configured user name or password is wrong; ask the operator to fix it.`,
          )
        : new ImapError("auth", "The IMAP server rejected the LOGIN command (it may require TLS first). Ask the operator to check TOOLSHED_IMAP_TLS."),
    );
  }
  await wire.command(
    ["EXAMINE ", folder],
    (_s, text) => new ImapError("folder", `The folder ${folder} cannot be opened (${stripCode(text)}). Check the name (e.g. INBOX) and try again.`),
  );
  const found = await wire.command(
    ["UID SEARCH ", query],
    (_s, text) =>
      new ImapError("query", `The IMAP server rejected the search query (${stripCode(text)}). Use IMAP SEARCH syntax, e.g. FROM alice@example.com SINCE 1-Jan-2024.`),
  );
  const uids = found.untagged.flatMap((r) => (/^\* SEARCH\b/i.test(r.text) ? r.text.slice(8).trim().split(/\s+/).filter(Boolean).map(Number) : []));
  // UIDs grow with arrival, so the highest are the newest; they are then ordered by date.
  const chosen = uids.sort((a, b) => a - b).slice(-req.maxResults);
  if (chosen.length === 0) return { total: 0, messages: [] };
  const fetched = await wire.command(
    ["UID FETCH ", chosen.join(","), ` (UID INTERNALDATE BODY.PEEK[]<0.${limits.fetchBytes}>)`],
    (_s, text) => new ImapError("protocol", `The IMAP server could not fetch the messages (${stripCode(text)}).`),
  );
  const raws = fetched.untagged.filter((r) => /^\* \d+ FETCH\b/i.test(r.text));
  const messages = await Promise.all(raws.map((r) => decode(r, limits)));
  messages.sort((a, b) => b.sortKey - a.sortKey);
  return { total: uids.length, messages: messages.map(({ sortKey: _, ...m }) => m) };
}

async function decode(r: ImapResponse, limits: SearchLimits): Promise<MailMessage & { sortKey: number }> {
  const raw = r.literals[r.literals.length - 1] ?? new Uint8Array(0);
  const internal = /INTERNALDATE "([^"]+)"/i.exec(r.text)?.[1];
  const mail = await PostalMime.parse(raw);
  const when = parseDate(mail.date) ?? parseDate(internal);
  let body = mail.text?.trim() ?? "";
  if (!body && mail.html) body = (await htmlToMarkdown(mail.html, "about:blank", limits.bodyChars)).markdown.trim();
  const cut = body.length > limits.bodyChars || raw.length >= limits.fetchBytes;
  if (body.length > limits.bodyChars) body = body.slice(0, limits.bodyChars);
  return {
    subject: mail.subject ?? "",
    from: mail.from ? (mail.from.name ? `${mail.from.name} <${mail.from.address ?? ""}>` : (mail.from.address ?? "")) : "",
    date: when ? new Date(when).toISOString() : "",
    body: cut ? `${body}\n[... body truncated]` : body,
    sortKey: when ?? 0,
  };
}

function parseDate(s: string | undefined): number | undefined {
  if (!s) return undefined;
  // IMAP's INTERNALDATE is "15-Jan-2024 10:30:00 +0000".
  const t = Date.parse(s.replace(/^(\d{1,2})-(\w{3})-(\d{4})/, "$1 $2 $3"));
  return Number.isNaN(t) ? undefined : t;
}

/** A user name or password as an IMAP astring: quoted when ASCII, a literal otherwise. */
function astring(s: string): string | Literal {
  return /^[\x20-\x7e]*$/.test(s) ? quoted(s) : new Literal(new TextEncoder().encode(s));
}

/** `[AUTHENTICATIONFAILED] Authentication failed.` -> `Authentication failed.` */
function stripCode(text: string): string {
  return text.replace(/^\[[^\]]*\]\s*/, "").slice(0, 200) || "no reason given";
}
