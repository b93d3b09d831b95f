import ipaddr from "ipaddr.js";

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidr = (s: string): Cidr => ipaddr.parseCIDR(s);

/**
 * IPv4 ranges no tool may reach, named for the refusal. ipaddr.js parses and matches; the
 * table is ours so that a relabelled range in a library update cannot open a door.
 */
const REFUSED_V4: [string, Cidr[]][] = [
  ["cloud metadata address", ["169.254.169.254/32", "169.254.170.2/32", "169.254.169.253/32", "100.100.100.200/32", "192.0.0.192/32"].map(cidr)],
  ["'this network' (0.0.0.0/8)", [cidr("0.0.0.0/8")]],
  ["loopback", [cidr("127.0.0.0/8")]],
  ["private network (RFC 1918)", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map(cidr)],
  ["link-local", [cidr("169.254.0.0/16")]],
  ["carrier-grade NAT (RFC 6598)", [cidr("100.64.0.0/10")]],
  ["IETF protocol assignments", [cidr("192.0.0.0/24")]],
  ["documentation range", ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"].map(cidr)],
  ["benchmarking range (RFC 2544)", [cidr("198.18.0.0/15")]],
  ["6to4 relay anycast", [cidr("192.88.99.0/24")]],
  ["AS112 / AMT infrastructure", ["192.31.196.0/24", "192.52.193.0/24", "192.175.48.0/24"].map(cidr)],
  ["multicast", [cidr("224.0.0.0/4")]],
  ["reserved (240.0.0.0/4) or broadcast", [cidr("240.0.0.0/4")]],
];

/** IPv6 ranges refused outright, before the global-unicast test. */
const REFUSED_V6: [string, Cidr[]][] = [
  ["cloud metadata address", [cidr("fd00:ec2::254/128")]],
  ["Teredo tunnel (2001::/32), whose client address cannot be judged", [cidr("2001::/32")]],
  ["benchmarking range (2001:2::/48)", [cidr("2001:2::/48")]],
  ["ORCHID / drone identifiers (2001:10::/28 .. 2001:30::/28)", ["2001:10::/28", "2001:20::/28", "2001:30::/28"].map(cidr)],
  ["documentation range", ["2001:db8::/32", "3fff::/20"].map(cidr)],
  ["IETF protocol assignments (2001::/23)", [cidr("2001::/23")]],
  ["segment-routing SIDs (5f00::/16)", [cidr("5f00::/16")]],
];

const GLOBAL_UNICAST_V6 = cidr("2000::/3");

function match(addr: ipaddr.IPv4 | ipaddr.IPv6, table: [string, Cidr[]][]): string | null {
  for (const [label, ranges] of table) {
    for (const [net, bits] of ranges) {
      if (net.kind() === addr.kind() && addr.match(net, bits)) return label;
    }
  }
  return null;
}

const v4 = (b: number[], at: number): ipaddr.IPv4 => new ipaddr.IPv4([b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!]);

/**
 * The IPv4 addresses an IPv6 address carries, for the forms a router or the OS may translate
 * back to IPv4: mapped and translated (::ffff:0:0/96, ::ffff:0:0:0/96), IPv4-compatible
 * (::/96), NAT64 (64:ff9b::/96; 64:ff9b:1::/48 in each RFC 6052 layout it allows) and 6to4
 * (2002::/16). Null when it embeds none.
 */
function embeddedIpv4(a: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const b = a.toByteArray();
  const s = a.parts;
  const zeros = (from: number, to: number) => s.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (s[5] === 0xffff || s[5] === 0)) return [v4(b, 12)];
  if (zeros(0, 4) && s[4] === 0xffff && s[5] === 0) return [v4(b, 12)];
  if (s[0] === 0x64 && s[1] === 0xff9b && zeros(2, 6)) return [v4(b, 12)];
  if (s[0] === 0x64 && s[1] === 0xff9b && s[2] === 1) return localNat64(b);
  if (s[0] === 0x2002) return [v4(b, 2)];
  return null;
}

/**
 * RFC 6052's layouts for the prefix lengths the local-use NAT64 block 64:ff9b:1::/48 (RFC 8215)
 * allows: which bytes hold the IPv4 address. Byte 8 (bits 64-71) is always zero, and so is
 * everything after the address.
 */
const NAT64_LAYOUTS: number[][] = [
  [6, 7, 9, 10], // /48
  [7, 9, 10, 11], // /56
  [9, 10, 11, 12], // /64
  [12, 13, 14, 15], // /96
];

/**
 * The IPv4 addresses a 64:ff9b:1::/48 address can carry: one per layout whose reserved byte and
 * suffix are zero (a translator configured with that prefix length would read it that way). Each
 * is judged, so one public and one refused reading is refused; none at all leaves the address to
 * the IPv6 rules (which refuse it: it is outside 2000::/3).
 */
function localNat64(b: number[]): ipaddr.IPv4[] | null {
  const found: ipaddr.IPv4[] = [];
  for (const at of NAT64_LAYOUTS) {
    const last = at[3]!;
    if (last !== 15 && b[8] !== 0) continue;
    if (b.slice(last + 1).some((x) => x !== 0)) continue;
    found.push(new ipaddr.IPv4(at.map((i) => b[i]!)));
  }
  // 0.0.0.0 is what the /96 reading gives for every shorter layout (its 32 bits are the zero
  // suffix): a translator has nothing to reach there, so it only counts when it is the one reading.
  const real = found.filter((a) => a.toString() !== "0.0.0.0");
  return real.length ? real : found.length ? found : null;
}

function v4Denial(a: ipaddr.IPv4): string | null {
  const label = match(a, REFUSED_V4);
  if (label) return label;
  // Belt and braces: anything the library does not call plain unicast is refused too.
  const range = a.range();
  return range === "unicast" ? null : `special-purpose range (${range})`;
}

/**
 * Why an address may not be reached, or null when it is plainly public unicast. `text` is an
 * address as the URL parser or a DNS answer gives it (IPv6 without brackets or zone).
 */
export function addressDenial(text: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // The family is known from the text; ipaddr.parse would try both, throwing on the way.
    addr = text.includes(":") ? ipaddr.IPv6.parse(text) : ipaddr.IPv4.parse(text);
  } catch {
    return "not a valid IP address";
  }
  if (addr.kind() === "ipv4") return v4Denial(addr as ipaddr.IPv4);
  const a6 = addr as ipaddr.IPv6;
  if (a6.zoneId) return "IPv6 address with a zone id (link-local scope)";
  const range6 = a6.range();
  if (range6 === "loopback" || range6 === "unspecified") return range6 === "loopback" ? "loopback" : "unspecified address (::)";
  const embedded = embeddedIpv4(a6);
  if (embedded) {
    for (const e of embedded) {
      const why = v4Denial(e);
      if (why) return `IPv6 form of ${e.toString()} (${why})`;
    }
    return null;
  }
  const label = match(a6, REFUSED_V6);
  if (label) return label;
  if (range6 !== "unicast") return `special-purpose range (${range6})`;
  return a6.match(GLOBAL_UNICAST_V6) ? null : "outside global unicast (2000::/3)";
}
