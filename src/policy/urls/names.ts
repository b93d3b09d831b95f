/**
 * Host names refused before any lookup. Suffix rules match the name itself and every name
 * under it ("lvh.me" also refuses "a.b.lvh.me").
 */

/** Names that mean this machine. */
const LOCAL_NAMES = ["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"];

/** Private-use and link-local suffixes: never public, resolved only by local resolvers. */
const INTERNAL_SUFFIXES = ["localhost", "local", "localdomain", "internal", "intranet", "home.arpa", "lan", "corp", "in-addr.arpa", "ip6.arpa"];

/** Cloud metadata services reached by name. */
const METADATA_NAMES = [
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.com",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
  "metadata.packet.net",
  "kubernetes.default",
  "kubernetes.default.svc",
];

/**
 * Public domains whose whole purpose is to resolve onto any address, private ones included
 * (wildcard IP-in-name services and DNS-rebinding test services).
 */
const REBINDING_SUFFIXES = [
  "nip.io",
  "sslip.io",
  "xip.io",
  "xip.name",
  "nip.direct",
  "localtest.me",
  "lvh.me",
  "vcap.me",
  "lacolhost.com",
  "fuf.me",
  "localh.st",
  "traefik.me",
  "backname.io",
  "1u.ms",
  "rbndr.us",
  "rebind.network",
  "rebind.it",
  "lock.cmpxchg8b.com",
  "ip.addr.tools",
  "local.gd",
  "localhost.run",
  "127-0-0-1.org.uk",
  "yoogle.com",
  "readme.localtest.me",
  "domaincontrol.localhost",
];

const underSuffix = (host: string, suffix: string): boolean => host.endsWith(suffix) && (host.length === suffix.length || host[host.length - suffix.length - 1] === ".");

/** The rule and reason refusing a host name (not an IP literal), or null. */
export function nameDenial(host: string): { rule: string; reason: string } | null {
  if (LOCAL_NAMES.includes(host) || underSuffix(host, "localhost")) {
    return { rule: "url.localhost", reason: `${host} is this machine (localhost)` };
  }
  if (METADATA_NAMES.includes(host)) {
    return { rule: "url.metadata", reason: `${host} is a cloud metadata service` };
  }
  const rebinding = REBINDING_SUFFIXES.find((s) => underSuffix(host, s));
  if (rebinding) {
    return { rule: "url.rebinding_name", reason: `${host} is under ${rebinding}, a public name made to resolve onto private addresses` };
  }
  const internal = INTERNAL_SUFFIXES.find((s) => underSuffix(host, s));
  if (internal) return { rule: "url.internal_name", reason: `${host} is under .${internal}, a private-use name` };
  if (!host.includes(".")) {
    return { rule: "url.internal_name", reason: `${host} is a single-label name, which only a local network resolves` };
  }
  return null;
}
