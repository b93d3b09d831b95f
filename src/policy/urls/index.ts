import { PolicyDenied, type Denial } from "../denied";
import { addressDenial } from "./addresses";
import { hostMatches, originOf, type UrlPolicy } from "./config";
import type { Resolver } from "./doh";
import { nameDenial } from "./names";

export { urlPolicyFromEnv, type HostRules, type UrlPolicy, type UrlPolicyEnv } from "./config";
export { DnsError, dohResolver, type Resolver } from "./doh";

/** A URL the policy let through, parsed once: fetch exactly `url.href`, nothing re-parsed. */
export interface AllowedUrl {
  url: URL;
  /** The host as judged: lower case, no trailing dot, IPv6 without brackets. */
  host: string;
  /** The origin is one of TOOLSHED_ALLOWED_ORIGINS, so the address rules were skipped. */
  exempt: boolean;
  /** An IP literal, or a name that still needs `resolveAndJudge`. */
  kind: "ip" | "name";
}

/**
 * A refusal is an expected answer, judged for every hop of every request: its stack trace
 * is never read, and capturing one costs more than the rest of the judgement.
 */
function refusal(denial: Denial): PolicyDenied {
  const E = Error as { stackTraceLimit?: number };
  const limit = E.stackTraceLimit;
  E.stackTraceLimit = 0;
  try {
    return new PolicyDenied(denial);
  } finally {
    E.stackTraceLimit = limit;
  }
}
const denied = (rule: string, reason: string): PolicyDenied => refusal({ rule, reason });
const DO_INSTEAD = "Only public http(s) addresses can be fetched.";
/** The schemes a URL may have unless the caller names others (the mail client judges `imap:`). */
const WEB_SCHEMES = ["http:", "https:"];

function addressRefusal(host: string, why: string, shown: string): Denial {
  const rule = why.includes("metadata") ? "url.metadata" : "url.private_address";
  return { rule, reason: `${shown} is a ${why} address, which no tool may reach. ${DO_INSTEAD}` };
}

/**
 * Judges a URL without looking anything up (one hop). The order is fixed and documented in
 * docs/policy.md: syntax and scheme; deny lists (operator, then session); allow lists (operator,
 * then session; each applies only when non-empty); allowed origins (exempt from what
 * follows); IP-literal address rules; host-name rules. A name then still needs
 * `resolveAndJudge` before anything is sent.
 */
export function judgeUrlSyntax(input: string | URL, policy: UrlPolicy, schemes: readonly string[] = WEB_SCHEMES): AllowedUrl {
  let url: URL;
  try {
    // The WHATWG parser normalises the host as fetch will: IPv4 in decimal, octal, hex and
    // short forms, percent-escapes, IDNA (fullwidth digits, ideographic full stops),
    // backslashes, userinfo split off.
    url = new URL(String(input));
  } catch {
    throw denied("url.syntax", `'${String(input).slice(0, 200)}' is not a valid absolute URL. Give a full http:// or https:// URL.`);
  }
  if (!schemes.includes(url.protocol)) {
    throw denied("url.scheme", `The scheme '${url.protocol.slice(0, -1)}' is not allowed. ${DO_INSTEAD}`);
  }
  const bracketed = url.hostname.replace(/\.+$/, "");
  if (!bracketed) throw denied("url.syntax", "The URL has no host. Give a full http:// or https:// URL.");
  const isV6 = bracketed.startsWith("[");
  const host = isV6 ? bracketed.slice(1, -1) : bracketed;

  for (const [who, rules] of [
    ["operator", policy.operator],
    ["session", policy.session],
  ] as const) {
    const hit = rules.deny.find((g) => hostMatches(bracketed, g));
    if (hit) throw denied("url.deny_list", `${bracketed} matches the ${who}'s deny list (${hit}).`);
  }
  for (const [who, rules] of [
    ["operator", policy.operator],
    ["session", policy.session],
  ] as const) {
    if (rules.allow.length && !rules.allow.some((g) => hostMatches(bracketed, g))) {
      throw denied("url.allow_list", `${bracketed} is not on the ${who}'s allow list (${rules.allow.join(", ")}).`);
    }
  }
  if (policy.allowedOrigins.has(originOf(url))) return { url, host, exempt: true, kind: isV6 ? "ip" : "name" };

  const isV4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  if (isV6 || isV4) {
    const why = addressDenial(host);
    if (why) throw refusal(addressRefusal(host, why, bracketed));
    return { url, host, exempt: false, kind: "ip" };
  }
  const byName = nameDenial(host);
  if (byName) throw denied(byName.rule, `${byName.reason}; no tool may reach it. ${DO_INSTEAD}`);
  return { url, host, exempt: false, kind: "name" };
}

/**
 * Resolves a judged name and refuses it when any address it has is not public: a name
 * pointing at 127.0.0.1, or a rebinding name answering a private address among public ones.
 * Exempt origins and IP literals need no lookup.
 */
export async function resolveAndJudge(allowed: AllowedUrl, resolve: Resolver): Promise<string[]> {
  if (allowed.exempt || allowed.kind === "ip") return [allowed.host];
  const addresses = await resolve(allowed.host);
  for (const a of addresses) {
    const why = addressDenial(a);
    if (why) {
      const r = addressRefusal(allowed.host, why, a);
      throw denied(r.rule === "url.metadata" ? "url.metadata" : "url.dns_private", `${allowed.host} resolves to ${r.reason}`);
    }
  }
  return addresses;
}

/** The whole judgement of one hop: syntax, lists, names, then every DNS answer. */
export async function judgeUrl(input: string | URL, policy: UrlPolicy, resolve: Resolver): Promise<AllowedUrl & { addresses: string[] }> {
  const allowed = judgeUrlSyntax(input, policy);
  return { ...allowed, addresses: await resolveAndJudge(allowed, resolve) };
}
