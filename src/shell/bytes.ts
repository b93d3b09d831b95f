// Bytes and shell strings. Shell strings are JS strings; a byte that is not part of valid UTF-8
// is kept as the lone surrogate U+DC80..U+DCFF (Python's "surrogateescape"), so `printf '\xff' > f`,
// `$'\xff'` and binary data through pipes come back out as the same bytes while valid text stays
// plain. A leaf: the parser, expansion and the runner all use it.

const enc = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF as bytes, as bash does
const dec = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const LONE_LOW = /[\ud800-\udfff]/;

/** One byte as a shell string character (raw above 0x7f). */
export const byteChar = (b: number): string => String.fromCharCode(b < 0x80 ? b : 0xdc00 + b);

export function encode(s: string): Uint8Array {
  if (!LONE_LOW.test(s)) return enc.encode(s);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    const prev = i > 0 ? s.charCodeAt(i - 1) : 0;
    if (prev >= 0xd800 && prev <= 0xdbff) continue; // the low half of a real pair
    parts.push(enc.encode(s.slice(start, i)), Uint8Array.of(c - 0xdc00));
    start = i + 1;
  }
  parts.push(enc.encode(s.slice(start)));
  return concat(
    parts,
    parts.reduce((n, p) => n + p.length, 0),
  );
}

export function decode(b: Uint8Array): string {
  try {
    return strict.decode(b);
  } catch {
    return decodeLossless(b);
  }
}

/** Joins raw bytes that form valid UTF-8 into characters (after `\xc3\xa9`-style escapes). */
export const joinBytes = (s: string): string => (/[\udc80-\udcff]/.test(s) ? decode(encode(s)) : s);

/** Length of the valid UTF-8 sequence starting at b[i], or 0. */
function utf8Len(b: Uint8Array, i: number): number {
  const x = b[i];
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (x < 0x80) return 1;
  if (x >= 0xc2 && x <= 0xdf) return cont(1) ? 2 : 0;
  if (x >= 0xe0 && x <= 0xef) {
    const [lo, hi] = x === 0xe0 ? [0xa0, 0xbf] : x === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (x >= 0xf0 && x <= 0xf4) {
    const [lo, hi] = x === 0xf0 ? [0x90, 0xbf] : x === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

function decodeLossless(b: Uint8Array): string {
  let out = "";
  let start = 0;
  let i = 0;
  while (i < b.length) {
    const n = utf8Len(b, i);
    if (n) {
      i += n;
      continue;
    }
    out += dec.decode(b.subarray(start, i)) + byteChar(b[i]);
    start = ++i;
  }
  return out + dec.decode(b.subarray(start));
}

export function concat(parts: Uint8Array[], total?: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const n = total ?? parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
