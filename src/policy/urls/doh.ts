import { LIMITS } from "../../limits";

/** Looks a host name up; the addresses it has (IPv4 and IPv6), empty when it has none. */
export type Resolver = (host: string) => Promise<string[]>;

/** The resolver could not answer (unreachable, error status, malformed answer). */
export class DnsError extends Error {
  override name = "DnsError";
}

const TYPES = { A: 1, AAAA: 28 } as const;
const NXDOMAIN = 3;
const LOOKUP_TIMEOUT_MS = LIMITS.dnsTimeoutMs;

interface DnsJson {
  Status: number;
  Answer?: { name: string; type: number; data: string }[];
}

/**
 * A resolver over DNS over HTTPS with the application/dns-json API (Cloudflare's and Google's
 * `?name=&type=` form). A and AAAA are asked side by side; every address answered is returned,
 * so the caller can refuse a name with any private answer.
 */
export function dohResolver(endpoint: string, fetcher: typeof fetch = fetch): Resolver {
  const ask = async (host: string, type: keyof typeof TYPES): Promise<string[]> => {
    const url = new URL(endpoint);
    url.searchParams.set("name", host);
    url.searchParams.set("type", type);
    let res: Response;
    try {
      res = await fetcher(url.href, { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
    } catch (e) {
      throw new DnsError(`the DNS resolver did not answer (${e instanceof Error ? e.name : "error"})`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new DnsError(`the DNS resolver answered HTTP ${res.status}`);
    }
    let body: DnsJson;
    try {
      body = (await res.json()) as DnsJson;
    } catch {
      throw new DnsError("the DNS resolver's answer was not dns-json");
    }
    if (body.Status === NXDOMAIN) return [];
    if (body.Status !== 0) throw new DnsError(`the DNS resolver answered status ${body.Status}`);
    return (body.Answer ?? []).filter((a) => a.type === TYPES[type]).map((a) => a.data);
  };
  return async (host) => {
    const [a, aaaa] = await Promise.all([ask(host, "A"), ask(host, "AAAA")]);
    return [...a, ...aaaa];
  };
}
