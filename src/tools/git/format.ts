/** Text forms git prints: dates, quoted paths, abbreviated hashes, plurals. */

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** isomorphic-git's timezoneOffset is minutes *behind* UTC (as Date#getTimezoneOffset): +0100 is -60. */
export function tzText(offsetMinutes: number): string {
  const east = -offsetMinutes;
  const sign = east < 0 ? "-" : "+";
  const a = Math.abs(east);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}${String(a % 60).padStart(2, "0")}`;
}

function local(seconds: number, offsetMinutes: number): Date {
  return new Date((seconds - offsetMinutes * 60) * 1000);
}

const p2 = (n: number) => String(n).padStart(2, "0");

/** git's default date: `Sat Nov 28 10:00:00 2026 +0000` (day of month unpadded). */
export function gitDate(seconds: number, offsetMinutes: number): string {
  const d = local(seconds, offsetMinutes);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCFullYear()} ${tzText(offsetMinutes)}`;
}

/** `%ai`/`--date=iso`: `2026-11-28 10:00:00 +0000`. */
export function isoDate(seconds: number, offsetMinutes: number): string {
  const d = local(seconds, offsetMinutes);
  return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${tzText(offsetMinutes)}`;
}

/** `%aI`: strict ISO 8601. */
export function strictIsoDate(seconds: number, offsetMinutes: number): string {
  const t = tzText(offsetMinutes);
  return isoDate(seconds, offsetMinutes)
    .replace(" ", "T")
    .replace(/ [+-]\d{4}$/, `${t.slice(0, 3)}:${t.slice(3)}`);
}

/** `%ar`: relative to now, in git's coarse words. */
export function relativeDate(seconds: number, nowSeconds: number): string {
  const diff = Math.max(0, nowSeconds - seconds);
  const unit = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"} ago`;
  if (diff < 90) return unit(diff, "second");
  if (diff < 90 * 60) return unit(Math.round(diff / 60), "minute");
  if (diff < 36 * 3600) return unit(Math.round(diff / 3600), "hour");
  if (diff < 14 * 86400) return unit(Math.round(diff / 86400), "day");
  if (diff < 70 * 86400) return unit(Math.round(diff / (7 * 86400)), "week");
  if (diff < 365 * 86400) return unit(Math.round(diff / (30 * 86400)), "month");
  return unit(Math.round(diff / (365 * 86400)), "year");
}

/**
 * A date as git reads GIT_AUTHOR_DATE: `@<epoch> <tz>`, `<epoch> <tz>`, or ISO 8601
 * (`2005-04-07T22:13:13+0200`, `2005-04-07 22:13:13 +02:00`). Null when unreadable.
 */
export function parseGitDate(text: string): { seconds: number; offset: number } | null {
  const s = text.trim();
  let m = /^@?(\d+)(?:\s+([+-])(\d\d):?(\d\d))?$/.exec(s);
  if (m) {
    const east = m[2] ? (m[2] === "-" ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4])) : 0;
    return { seconds: Number(m[1]), offset: east === 0 ? 0 : -east };
  }
  m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?\s*(Z|([+-])(\d\d):?(\d\d))?$/.exec(s);
  if (m) {
    const east = m[7] && m[7] !== "Z" ? (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
    const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)) / 1000 - east * 60;
    return { seconds: utc, offset: east === 0 ? 0 : -east };
  }
  return null;
}

/**
 * A path as git prints it with core.quotePath on: in double quotes with C escapes when it holds
 * a quote, backslash, control or non-ASCII byte (and a space, in the short status formats).
 */
export function quotePath(path: string, quoteSpace = false): string {
  const bytes = new TextEncoder().encode(path);
  let needs = false;
  for (const b of bytes) if (b < 0x20 || b >= 0x7f || b === 0x22 || b === 0x5c || (quoteSpace && b === 0x20)) needs = true;
  if (!needs) return path;
  const esc: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 0x22: '\\"', 0x5c: "\\\\" };
  let out = '"';
  for (const b of bytes) {
    if (esc[b]) out += esc[b];
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

export const abbrev = (oid: string, n = 7) => oid.slice(0, n);

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The first line of a message (a commit's subject, lines joined as git's %s does). */
export function subjectOf(message: string): string {
  const para = message.replace(/^\n+/, "").split(/\n\s*\n/)[0] ?? "";
  return para
    .split("\n")
    .map((l) => l.trim())
    .join(" ")
    .trim();
}

/** The message after the subject paragraph (%b). */
export function bodyOf(message: string): string {
  const m = message.replace(/^\n+/, "");
  const i = m.search(/\n\s*\n/);
  if (i < 0) return "";
  return m
    .slice(i)
    .replace(/^\n\s*\n/, "")
    .replace(/^\n+/, "");
}

/**
 * A commit message as `git commit -m` stores it (cleanup "whitespace"): trailing spaces cut,
 * runs of blank lines made one, leading and trailing blank lines removed, one final newline.
 */
export function cleanMessage(text: string): string {
  const lines = text.split("\n").map((l) => l.replace(/\s+$/, ""));
  const out: string[] = [];
  for (const l of lines) {
    if (l === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(l);
  }
  while (out.length && out[out.length - 1] === "") out.pop();
  return out.length ? `${out.join("\n")}\n` : "";
}
