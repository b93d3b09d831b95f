// The URL table of issue 8: URLs every network path must refuse, and URLs it must let
// through. `C` is the canary server's port (it listens on every local address, so a refused
// loopback URL that got out would be counted there); `S` is the allowed site's port.

/** Hosts of loopback in every encoding a URL parser, an OS or a proxy might accept. */
const LOOPBACK_HOSTS = [
  "127.0.0.1", "127.1", "127.0.1", "127.000.000.001", "2130706433", "0x7f000001", "0X7F000001", "0x7f.0x0.0x0.0x1",
  "0x7f.1", "0177.0.0.1", "0177.0000.0000.0001", "017700000001", "0177.1", "127.0.0.1.", "127.0.0.2", "127.255.255.254",
  "127.127.127.127", "0", "0.0.0.0", "0x0", "00", "0.0.0.0.", "0.0.0.1",
  "１２７.０.０.１", "127。0。0。1", "127．0．0．1", "127｡0｡0｡1", "①②⑦.⓪.⓪.①", "１２７。０。０。１",
  "%31%32%37.0.0.1", "127%2E0%2E0%2E1", "%30x7f000001", "%32%31%33%30%37%30%36%34%33%33",
  "[::1]", "[0:0:0:0:0:0:0:1]", "[::]", "[0::1]", "[::0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]",
  "[::127.0.0.1]", "[::7f00:1]", "[::ffff:0:127.0.0.1]", "[64:ff9b::127.0.0.1]", "[64:ff9b::7f00:1]", "[64:ff9b:1::7f00:1]",
  "[64:ff9b:1:7f00:0:100::]", "[64:ff9b:1:808:8:800:7f00:1]", "[2002:7f00:1::]", "[2002:7f00:0001:0:0:0:0:1]", "[::ffff:0.0.0.0]", "[::0.0.0.0]",
  "localhost", "LOCALHOST", "localhost.", "LocalHost.", "foo.localhost", "a.b.c.localhost", "localhost.localdomain",
  "ip6-localhost", "ｌｏｃａｌｈｏｓｔ", "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ", "local%68ost", "foo。localhost",
];

/** Private, special and metadata addresses (IPv4 and IPv6), in plain and encoded forms. */
const PRIVATE_HOSTS = [
  "10.0.0.1", "10.255.255.255", "10.1", "167772161", "012.0.0.1", "0xa.0.0.1", "0x0a000001",
  "172.16.0.1", "172.31.255.255", "172.20.1", "2886729729",
  "192.168.0.1", "192.168.255.255", "192.168.257", "3232235777", "0xc0a80101", "0300.0250.1.1",
  "169.254.0.1", "169.254.169.254", "169.254.170.2", "169.254.169.253", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376",
  "169.254.43518", "0xa9.0xfe.0xa9.0xfe", "①⑥⑨.②⑤④.①⑥⑨.②⑤④", "169。254。169。254",
  "100.64.0.1", "100.127.255.255", "100.100.100.200", "192.0.0.192", "192.0.0.1", "192.0.2.1", "198.51.100.1",
  "203.0.113.1", "198.18.0.1", "198.19.255.255", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
  "192.88.99.1", "0.1.2.3", "192.31.196.1", "192.52.193.1", "192.175.48.1",
  "[fe80::1]", "[febf::1]", "[fc00::1]", "[fd00::1]", "[fd12:3456:789a::1]", "[fd00:ec2::254]", "[ff02::1]", "[ff05::2]",
  "[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", "[::ffff:10.0.0.1]", "[::ffff:192.168.1.1]", "[::ffff:100.64.0.1]",
  "[::169.254.169.254]", "[::a9fe:a9fe]", "[64:ff9b::169.254.169.254]", "[64:ff9b::a00:1]", "[64:ff9b:1::a9fe:a9fe]", "[64:ff9b:1:0:a:0:100:0]",
  "[2002:a9fe:a9fe::]", "[2002:c0a8:101::1]", "[2002:a00:1::]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[2001::1]",
  "[2001:db8::1]", "[2001:db8:85a3::8a2e:370:7334]", "[3fff::1]", "[100::1]", "[fec0::1]", "[2001:2::1]", "[2001:10::1]",
  "[2001:20::1]", "[5f00::1]", "[::ffff:0:a9fe:a9fe]", "[::ffff:0:10.0.0.1]",
];

/** Names refused before any lookup: metadata, private-use and rebinding-by-design names. */
const NAME_HOSTS = [
  "metadata.google.internal", "metadata.google.internal.", "METADATA.GOOGLE.INTERNAL", "metadata", "metadata.goog",
  "instance-data", "instance-data.ec2.internal", "metadata.azure.internal", "kubernetes.default.svc", "metadata.tencentyun.com",
  "foo.internal", "db.local", "printer.lan", "router.home.arpa", "intranet", "nas.localdomain", "wiki.corp",
  "127.0.0.1.nip.io", "10.0.0.1.nip.io", "app.127.0.0.1.nip.io", "nip.io", "127-0-0-1.sslip.io", "169.254.169.254.sslip.io",
  "sslip.io", "localtest.me", "foo.localtest.me", "lvh.me", "a.lvh.me", "deep.a.lvh.me", "vcap.me", "x.vcap.me",
  "lacolhost.com", "www.lacolhost.com", "1u.ms", "make-127.0.0.1-rr.1u.ms", "7f000001.c0a80001.rbndr.us", "xip.io",
  "127.0.0.1.xip.io", "traefik.me", "10.0.0.1.traefik.me", "localh.st", "fuf.me", "LVH.ME", "ｌｖｈ.ｍｅ", "lvh。me",
  "x.denied-by-operator.test",
];

/** Public-looking names the local DoH server answers with private addresses. */
const DNS_HOSTS = [
  "loop.toolshed.test", "loop6.toolshed.test", "mapped.toolshed.test", "nat64.toolshed.test", "private.toolshed.test",
  "mixed.toolshed.test", "mixed6.toolshed.test", "meta.toolshed.test", "alibaba.toolshed.test", "cgnat.toolshed.test",
  "linklocal6.toolshed.test", "zero.toolshed.test", "teredo.toolshed.test", "sixtofour.toolshed.test", "LOOP.toolshed.test.",
];

const SCHEMES = [
  "file:///etc/passwd", "file://localhost/etc/passwd", "ftp://127.0.0.1:C/", "gopher://127.0.0.1:C/_GET%20/", "dict://127.0.0.1:C/info",
  "ldap://127.0.0.1:C/", "data:text/plain,hello", "javascript:alert(1)", "ws://127.0.0.1:C/", "wss://127.0.0.1:C/",
  "view-source:http://127.0.0.1:C/", "blob:http://127.0.0.1:C/x", "about:blank", "sftp://127.0.0.1:C/", "tftp://127.0.0.1:C/x",
  "telnet://127.0.0.1:C/", "jar:http://127.0.0.1:C/x.jar!/", "mailto:a@127.0.0.1", "http://[fe80::1%25eth0]:C/", "http://[::1%251]:C/",
];

/** Ways of wrapping a host that parsers disagree on: userinfo, backslashes, missing slashes. */
const WRAPPERS = [
  (h: string) => `http://good@${h}:C/`,
  (h: string) => `http://user:pass@${h}:C/x`,
  (h: string) => `http://example.com@${h}:C/`,
  (h: string) => `http://${h}:C\\@example.com/`,
  (h: string) => `http:\\\\${h}:C\\`,
  (h: string) => `http:/${h}:C/`,
  (h: string) => `http:${h}:C/`,
  (h: string) => `https://${h}:C/`,
];

const port = (u: string, c: number) => u.replace(/:C\b/g, `:${c}`);

export interface RefusedUrl {
  url: string;
  /** A redirect from the allowed site (first hop allowed, a later one refused). */
  viaRedirect?: boolean;
}

export function refusedUrls(canary: number, site: number): RefusedUrl[] {
  const out: RefusedUrl[] = [];
  for (const h of [...LOOPBACK_HOSTS, ...PRIVATE_HOSTS, ...NAME_HOSTS, ...DNS_HOSTS]) out.push({ url: `http://${h}:${canary}/latest/meta-data/` });
  for (const s of SCHEMES) out.push({ url: port(s, canary) });
  for (const h of ["127.0.0.1", "0x7f000001", "[::1]", "localhost", "169.254.169.254", "loop.toolshed.test", "lvh.me"]) {
    for (const w of WRAPPERS) out.push({ url: port(w(h), canary) });
  }
  // Redirect chains from the allowed site that end on a private address.
  const redirectTargets = [
    "http://169.254.169.254/latest/meta-data/", `http://127.0.0.1:${canary}/`, `http://localhost:${canary}/`, `http://[::1]:${canary}/`,
    `http://0x7f000001:${canary}/`, `http://2130706433:${canary}/`, `http://loop.toolshed.test:${canary}/`, `http://127.0.0.1.nip.io:${canary}/`,
    `//127.0.0.1:${canary}/`, `http://[::ffff:127.0.0.1]:${canary}/`, "http://metadata.google.internal/computeMetadata/v1/", "http://10.0.0.1/",
    "file:///etc/passwd", `http://good@127.0.0.1:${canary}/`, `http:\\\\127.0.0.1:${canary}\\`,
  ];
  for (const to of redirectTargets) {
    for (const status of [301, 302, 303, 307, 308]) {
      out.push({ url: `http://127.0.0.1:${site}/redirect?status=${status}&to=${encodeURIComponent(to)}`, viaRedirect: true });
    }
  }
  // Two allowed hops, then a private one.
  out.push({ url: `http://127.0.0.1:${site}/redirect?to=${encodeURIComponent(`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${canary}/`)}`)}`, viaRedirect: true });
  return out;
}

/** URLs that must be fetched: the allowed origin, in forms that normalise to it, with many paths. */
export function allowedUrls(site: number): string[] {
  const o = `http://127.0.0.1:${site}`;
  const hosts = ["127.0.0.1", "2130706433", "0x7f000001", "127.1", "0177.0.0.1", "127.0.0.1.", "0x7f.1", "good@127.0.0.1", "u:p@127.0.0.1", "１２７.０.０.１"];
  const out = hosts.map((h, i) => `http://${h}:${site}/pass/host-${i}`);
  for (let i = 0; i < 20; i++) out.push(`${o}/pass/q?n=${i}`);
  out.push(
    `HTTP://127.0.0.1:${site}/pass/upper`, `${o}/pass/%7Euser`, `${o}/pass/caf%C3%A9`, `${o}/pass/frag#section`, `${o}/pass/a/../b`,
    `${o}/data.json`, `${o}/article.html`, `${o}/markdown`, `${o}/chain/1`, `${o}/chain/4`,
    `${o}/redirect?to=/pass/relative`, `${o}/redirect?status=301&to=${encodeURIComponent(`${o}/pass/absolute`)}`,
    `${o}/redirect?status=307&to=/pass/r307`, `${o}/redirect?status=308&to=/pass/r308`, `${o}/redirect?status=303&to=/pass/r303`,
    `${o}/pass/${"x".repeat(200)}`, `${o}/pass/semi;colon`, `${o}/pass/sp%20ace`, `${o}/pass/plus+sign`, `${o}/pass/q?a=1&b=2&c`,
    `${o}/pass/deep/a/b/c/d/e`, `${o}//pass/double`,
  );
  return out;
}

/** Public addresses and names that the policy lets through (judged only: nothing is fetched). */
export const PUBLIC_URLS = [
  "http://93.184.215.14/", "https://1.1.1.1/dns-query", "http://8.8.8.8:53/", "http://1.2.3.4/", "http://223.255.255.1/",
  "http://[2606:4700:4700::1111]/", "http://[2001:4860:4860::8888]/", "http://[::ffff:8.8.8.8]/", "http://[64:ff9b::808:808]/",
  "http://[2002:808:808::1]/", "http://public.toolshed.test/", "https://PUBLIC.toolshed.test./path?q=1",
  "http://134744072/", "http://0x08080808/", "http://010.010.010.010/", "http://100.63.255.255/", "http://100.128.0.1/",
  "http://172.15.255.255/", "http://172.32.0.1/", "http://192.167.255.255/", "http://192.169.0.1/", "http://169.253.255.255/",
  "http://169.255.0.1/", "http://198.17.255.255/", "http://198.20.0.1/", "http://11.0.0.1/", "http://126.255.255.255/",
  "http://128.0.0.1/", "http://223.255.255.254/", "http://[2a00:1450:4001::1]/", "http://[2c0f:fb50::1]/",
  // local-use NAT64 (64:ff9b:1::/48) carrying 8.8.8.8 / 93.184.215.14 in RFC 6052's /48, /64 and /96 layouts
  "http://[64:ff9b:1:808:8:800::]/", "http://[64:ff9b:1:5db8:d7:e00::]/", "http://[64:ff9b:1:0:8:808:800:0]/", "http://[64:ff9b:1::808:808]/",
];
