import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { PolicyDenied } from "../../src/policy/denied";
import { addressDenial } from "../../src/policy/urls/addresses";
import { judgeUrl, judgeUrlSyntax, urlPolicyFromEnv, dohResolver, type UrlPolicy } from "../../src/policy/urls";
import { PUBLIC_URLS, allowedUrls, refusedUrls } from "./url-table";

const { site, canary } = inject("netPorts");
const policy = urlPolicyFromEnv(env);
const resolve = dohResolver(policy.dohUrl);

async function verdict(url: string, p: UrlPolicy = policy): Promise<string> {
  try {
    await judgeUrl(url, p, resolve);
    return "allowed";
  } catch (e) {
    if (e instanceof PolicyDenied) return e.rule;
    throw e;
  }
}

describe("URL policy table", () => {
  const refused = refusedUrls(canary, site).filter((r) => !r.viaRedirect);

  it(`refuses every URL of the table (${refused.length} URLs, one hop each)`, async () => {
    expect(refused.length).toBeGreaterThanOrEqual(250);
    const let_through: string[] = [];
    for (const { url } of refused) {
      const v = await verdict(url);
      if (!v.startsWith("url.")) let_through.push(`${url} → ${v}`);
    }
    expect(let_through).toEqual([]);
  });

  it(`lets public addresses and names through (${PUBLIC_URLS.length} URLs) and the allowed origin in every form`, async () => {
    const refusedPublic: string[] = [];
    for (const url of [...PUBLIC_URLS, ...allowedUrls(site)]) {
      const v = await verdict(url);
      if (v !== "allowed") refusedPublic.push(`${url} → ${v}`);
    }
    expect(refusedPublic).toEqual([]);
  });

  it("names the rule that refused", async () => {
    const cases: [string, string][] = [
      ["ftp://example.com/", "url.scheme"],
      ["http://[::1", "url.syntax"],
      ["http://127.0.0.1/", "url.private_address"],
      ["http://0x7f000001/", "url.private_address"],
      ["http://169.254.169.254/", "url.metadata"],
      ["http://[fd00:ec2::254]/", "url.metadata"],
      ["http://[::ffff:a9fe:a9fe]/", "url.metadata"],
      ["http://metadata.google.internal/", "url.metadata"],
      ["http://foo.localhost/", "url.localhost"],
      ["http://127.0.0.1.nip.io/", "url.rebinding_name"],
      ["http://db.internal/", "url.internal_name"],
      ["http://loop.toolshed.test/", "url.dns_private"],
      ["http://meta.toolshed.test/", "url.metadata"],
      ["http://mixed.toolshed.test/", "url.dns_private"],
      ["http://x.denied-by-operator.test/", "url.deny_list"],
      [`http://127.0.0.1:${canary}/`, "url.private_address"],
    ];
    for (const [url, rule] of cases) expect(await verdict(url), url).toBe(rule);
  });

  it("does not trust ipaddr.js's label for IPv4-compatible and translated forms", () => {
    for (const a of ["::7f00:1", "::127.0.0.1", "::ffff:0:7f00:1", "64:ff9b::7f00:1", "64:ff9b:1:7f00:0:100::", "2002:7f00:1::1"]) {
      expect(addressDenial(a), a).toMatch(/loopback/);
    }
    expect(addressDenial("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toMatch(/Teredo/);
    expect(addressDenial("2606:4700:4700::1111")).toBeNull();
    expect(addressDenial("2002:808:808::1")).toBeNull();
  });
});

describe("operator and session host lists", () => {
  const base = { TOOLSHED_DOH_URL: env.TOOLSHED_DOH_URL, TOOLSHED_ALLOWED_ORIGINS: env.TOOLSHED_ALLOWED_ORIGINS };

  it("deny beats allow; allow lists apply only when set; the session narrows, never widens", async () => {
    const op = urlPolicyFromEnv({ ...base, TOOLSHED_URL_ALLOW: "*.toolshed.test,93.184.215.14", TOOLSHED_URL_DENY: "mixed*.toolshed.test" });
    expect(await verdict("http://public.toolshed.test/", op)).toBe("allowed");
    expect(await verdict("http://93.184.215.14/", op)).toBe("allowed");
    expect(await verdict("http://1.1.1.1/", op)).toBe("url.allow_list");
    expect(await verdict("http://mixed.toolshed.test/", op)).toBe("url.deny_list");
    // The session's allow list intersects the operator's; it cannot add 1.1.1.1.
    const narrowed = urlPolicyFromEnv({ ...base, TOOLSHED_URL_ALLOW: "*.toolshed.test,93.184.215.14" }, { allow: ["1.1.1.1", "public.toolshed.test"] });
    expect(await verdict("http://1.1.1.1/", narrowed)).toBe("url.allow_list");
    expect(await verdict("http://public.toolshed.test/", narrowed)).toBe("allowed");
    expect(await verdict("http://93.184.215.14/", narrowed)).toBe("url.allow_list");
    const sessionDeny = urlPolicyFromEnv(base, { deny: ["public.toolshed.test"] });
    expect(await verdict("http://public.toolshed.test/", sessionDeny)).toBe("url.deny_list");
    // A session's allow list cannot exempt a private address.
    const sessionAllowLoop = urlPolicyFromEnv(base, { allow: ["127.0.0.1", "localhost"] });
    expect(await verdict("http://127.0.0.1/", sessionAllowLoop)).toBe("url.private_address");
    expect(await verdict("http://localhost/", sessionAllowLoop)).toBe("url.localhost");
  });

  it("exempts exactly the allowed origins", () => {
    expect(judgeUrlSyntax(`http://127.0.0.1:${site}/x`, policy).exempt).toBe(true);
    for (const other of [`https://127.0.0.1:${site}/`, `http://127.0.0.1:${site + 1}/`, `http://localhost:${site}/`, `http://[::1]:${site}/`]) {
      expect(() => judgeUrlSyntax(other, policy), other).toThrow(PolicyDenied);
    }
    const none = urlPolicyFromEnv({ TOOLSHED_DOH_URL: env.TOOLSHED_DOH_URL });
    expect(() => judgeUrlSyntax(`http://127.0.0.1:${site}/`, none)).toThrow(PolicyDenied);
  });

  it("fails closed when the resolver is unreachable or answers garbage", async () => {
    const failing = dohResolver(`http://127.0.0.1:${site}/status?code=500`);
    await expect(judgeUrl("http://public.toolshed.test/", policy, failing)).rejects.toThrow("the DNS resolver answered HTTP 500");
    const garbage = dohResolver(`http://127.0.0.1:${site}/hello.txt`);
    await expect(judgeUrl("http://public.toolshed.test/", policy, garbage)).rejects.toThrow("not dns-json");
  });
});
