// printf and echo.
import type { Fd, Shell } from "../interp/shell";
import { dynamicKey, quoteBackslash } from "../expand/word";
import { berr, out, parseOpts, NAME_RE } from "./io";
import { byteChar, decode, encode, joinBytes } from "../bytes";

/** Backslash escapes for echo -e and printf %b; returns [text, stop] where stop means \c. */
function backslashEscapes(s: string, printfB: boolean): [string, boolean] {
  let o = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== "\\" || i + 1 >= s.length) {
      o += c;
      continue;
    }
    const n = s[++i];
    switch (n) {
      case "n":
        o += "\n";
        break;
      case "t":
        o += "\t";
        break;
      case "r":
        o += "\r";
        break;
      case "a":
        o += "\x07";
        break;
      case "b":
        o += "\b";
        break;
      case "f":
        o += "\f";
        break;
      case "v":
        o += "\v";
        break;
      case "e":
      case "E":
        o += "\x1b";
        break;
      case "\\":
        o += "\\";
        break;
      case "c":
        return [joinBytes(o), true];
      case "0": {
        const m = /^[0-7]{0,3}/.exec(s.slice(i + 1))![0];
        o += byteChar(parseInt(m || "0", 8) & 255);
        i += m.length;
        break;
      }
      case "x": {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m) {
          o += byteChar(parseInt(m[0], 16));
          i += m[0].length;
        } else o += "\\x";
        break;
      }
      case "u":
      case "U": {
        const m = (n === "u" ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 1));
        if (m) {
          o += String.fromCodePoint(parseInt(m[0], 16));
          i += m[0].length;
        } else o += "\\" + n;
        break;
      }
      default:
        if (printfB && /[1-7]/.test(n)) {
          const m = /^[0-7]{1,3}/.exec(s.slice(i))![0];
          o += byteChar(parseInt(m, 8) & 255);
          i += m.length - 1;
        } else o += "\\" + n;
    }
  }
  return [joinBytes(o), false];
}

export async function echo(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let i = 1;
  let nl = true;
  let esc = sh.shopts.xpg_echo;
  while (i < argv.length && /^-[neE]+$/.test(argv[i])) {
    for (const c of argv[i].slice(1)) {
      if (c === "n") nl = false;
      else if (c === "e") esc = true;
      else esc = false;
    }
    i++;
  }
  let s = argv.slice(i).join(" ");
  if (esc) {
    const [t, stop] = backslashEscapes(s, false);
    s = t;
    if (stop) {
      await out(fds, s);
      return 0;
    }
  }
  await out(fds, nl ? s + "\n" : s);
  return 0;
}

function num(s: string | undefined, bad: (s: string) => void): bigint {
  if (s === undefined || s === "") return 0n;
  // leading blanks are accepted, trailing ones make the number invalid (like strtoimax)
  const t = s.replace(/^[ \t\n]+/, "");
  if (/^['"]/.test(t)) return BigInt(t.length > 1 ? t.codePointAt(1)! : 0);
  let m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(t);
  if (!m) {
    bad(s);
    return 0n;
  }
  if (m[0].length !== t.length) bad(s);
  let v: bigint;
  const d = m[2];
  if (/^0[xX]/.test(d)) v = BigInt(d);
  else if (d.length > 1 && d[0] === "0") v = BigInt("0o" + d.slice(1));
  else v = BigInt(d);
  void (m = null);
  return t[0] === "-" ? -v : v;
}

function formatPrintf(sh: Shell, fmt: string, args: string[], errors: string[]): { text: string; stop: boolean } {
  let o = "";
  let ai = 0;
  let stop = false;
  const next = () => args[ai++];
  const bad = (s: string) => errors.push(`${s}: invalid number`);
  do {
    const startAi = ai;
    for (let i = 0; i < fmt.length; i++) {
      const c = fmt[i];
      if (c === "\\") {
        // in the format, \NNN is octal without a leading 0
        const m = /^\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|.?)/s.exec(fmt.slice(i))!;
        if (/^[0-7]/.test(m[1])) o += byteChar(parseInt(m[1], 8) & 255);
        else {
          const [t, st] = backslashEscapes(m[0], true);
          o += t;
          if (st) return { text: o, stop: true };
        }
        i += m[0].length - 1;
        continue;
      }
      if (c !== "%") {
        o += c;
        continue;
      }
      if (fmt[i + 1] === "%") {
        o += "%";
        i++;
        continue;
      }
      const m = /^%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?(?:hh|h|ll|l|L|q|j|z|t)?([diouxXcsbqfFeEgGaA(])/.exec(fmt.slice(i));
      if (!m) {
        errors.push(`\`${fmt.slice(i + 1, i + 2)}': invalid format character`);
        return { text: o, stop: true };
      }
      i += m[0].length - 1;
      const flags = m[1];
      let width = m[2] === "*" ? Number(num(next(), bad)) : m[2] ? parseInt(m[2], 10) : undefined;
      let prec = m[3] === "*" ? Number(num(next(), bad)) : m[3] !== undefined ? (m[3] === "" ? 0 : parseInt(m[3], 10)) : undefined;
      let leftAlign = flags.includes("-");
      if (width !== undefined && width < 0) {
        leftAlign = true;
        width = -width;
      }
      if (prec !== undefined && prec < 0) prec = undefined;
      const conv = m[4];
      let s: string;
      if (conv === "(") {
        // %(fmt)T: time formatting
        const close = fmt.indexOf(")T", i);
        const tf = fmt.slice(i + 1, close);
        i = close + 1;
        const arg = next();
        const t = arg === undefined || arg === "-1" || arg === "" ? sh.host.now() : Number(arg) * 1000;
        s = strftime(tf, new Date(t), exportedTz(sh));
        // bash formats into a 128-byte buffer and prints nothing when it overflows
        if (s.length >= 128) s = "";
        if (prec !== undefined) s = bytePrefix(s, prec);
      } else if (conv === "s") {
        s = next() ?? "";
        if (prec !== undefined) s = bytePrefix(s, prec);
      } else if (conv === "b") {
        const [t, st] = backslashEscapes(next() ?? "", true);
        s = t;
        if (st) {
          o += pad(s, width, leftAlign, false);
          return { text: o, stop: true };
        }
        if (prec !== undefined) s = bytePrefix(s, prec);
      } else if (conv === "q") {
        s = quoteBackslash(next() ?? "");
      } else if (conv === "c") {
        s = [...(next() ?? "")][0] ?? "";
      } else if ("diouxX".includes(conv)) {
        const arg = next();
        let v = num(arg, bad);
        if (conv === "d" || conv === "i") {
          // out-of-range values saturate, as strtoimax does
          if (v > I64_MAX) v = I64_MAX;
          else if (v < -I64_MAX - 1n) v = -I64_MAX - 1n;
          s = (v < 0n ? -v : v).toString();
          if (prec !== undefined) s = s.padStart(prec, "0");
          const sign = v < 0n ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
          if (flags.includes("0") && !leftAlign && width !== undefined && prec === undefined) s = s.padStart(width - sign.length, "0");
          s = sign + s;
        } else {
          if (v > U64_MAX || v < -U64_MAX) v = U64_MAX;
          else if (v < 0n) v = BigInt.asUintN(64, v);
          s = v.toString(conv === "o" ? 8 : conv === "u" ? 10 : 16);
          if (conv === "X") s = s.toUpperCase();
          if (prec !== undefined) s = s.padStart(prec, "0");
          if (flags.includes("#") && v !== 0n) s = (conv === "o" ? "0" : conv === "x" ? "0x" : conv === "X" ? "0X" : "") + s;
          if (flags.includes("0") && !leftAlign && width !== undefined && prec === undefined) s = s.padStart(width, "0");
        }
      } else {
        const arg = next();
        let v = arg === undefined || arg === "" ? 0 : Number(arg);
        // an argument that is not a number prints as 0 after the message, as strtold leaves it
        if (arg !== undefined && arg !== "" && isNaN(v)) {
          bad(arg);
          v = 0;
        }
        const p = prec ?? 6;
        if (conv === "f" || conv === "F") s = fixedEven(v, p) + (p === 0 && flags.includes("#") ? "." : "");
        else if (conv === "e" || conv === "E") s = fixExp(v.toExponential(p));
        else s = fmtG(v, p, flags.includes("#"));
        if (conv === "E" || conv === "G") s = s.toUpperCase();
        if (flags.includes("+") && v >= 0) s = "+" + s;
        if (flags.includes("0") && !leftAlign && width !== undefined) {
          const neg = s[0] === "-" || s[0] === "+";
          s = neg ? s[0] + s.slice(1).padStart(width - 1, "0") : s.padStart(width, "0");
        }
      }
      o += pad(s, width, leftAlign, false);
    }
    if (ai === startAi) break;
  } while (ai < args.length && !stop);
  return { text: o, stop };
}

const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

/** TZ only affects %()T when exported, since strftime reads it from the environment. */
function exportedTz(sh: Shell): string | undefined {
  return sh.vars.exported()["TZ"] || undefined;
}

/**
 * %.Nf as glibc prints it: the exact value rounded, a tie to the even digit (42.25 → 42.2);
 * toFixed takes a tie up. (The `'` flag groups thousands only in locales that have a separator,
 * and C.UTF-8 has none.)
 */
function fixedEven(v: number, p: number): string {
  const s = v.toFixed(p);
  if (!Number.isFinite(v) || p > 70) return s;
  const more = 25;
  const long = Math.abs(v).toFixed(p + more);
  if (long.slice(long.length - more) !== "5" + "0".repeat(more - 1)) return s;
  let kept = long.slice(0, long.length - more);
  if (kept.endsWith(".")) kept = kept.slice(0, -1);
  if (Number(kept[kept.length - 1]) % 2 === 1) return s;
  return (v < 0 || Object.is(v, -0) ? "-" : "") + kept;
}

function fixExp(s: string): string {
  return s.replace(/e([+-])(\d)$/, "e$10$2");
}
function fmtG(v: number, p: number, alt: boolean): string {
  if (p === 0) p = 1;
  if (v === 0) return "0";
  const exp = Math.floor(Math.log10(Math.abs(v)));
  let s: string;
  if (exp < -4 || exp >= p) s = fixExp(v.toExponential(p - 1));
  else s = v.toFixed(Math.max(0, p - 1 - exp));
  if (!alt && s.includes(".")) s = s.replace(/\.?0+(e|$)/, "$1");
  return s;
}
/** The first n bytes of s: bash 5.2's printf counts width and precision in bytes, not characters. */
function bytePrefix(s: string, n: number): string {
  const b = encode(s);
  return b.length <= n ? s : decode(b.subarray(0, n));
}
function pad(s: string, width: number | undefined, left: boolean, _z: boolean): string {
  if (width === undefined) return s;
  const len = encode(s).length;
  if (len >= width) return s;
  return left ? s + " ".repeat(width - len) : " ".repeat(width - len) + s;
}

/** Shifts d so its UTC fields read as wall-clock time in tz (falls back to UTC for unknown zones). */
function inZone(d: Date, tz: string | undefined): Date {
  if (!tz) return d;
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    }).formatToParts(d);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
    return new Date(Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")));
  } catch {
    return d;
  }
}

function strftime(f: string, d0: Date, tz?: string): string {
  const d = inZone(d0, tz);
  const p2 = (n: number) => String(n).padStart(2, "0");
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return f.replace(/%([a-zA-Z%])/g, (_, c: string) => {
    switch (c) {
      case "Y":
        return String(d.getUTCFullYear());
      case "m":
        return p2(d.getUTCMonth() + 1);
      case "d":
        return p2(d.getUTCDate());
      case "H":
        return p2(d.getUTCHours());
      case "M":
        return p2(d.getUTCMinutes());
      case "S":
        return p2(d.getUTCSeconds());
      case "s":
        return String(Math.floor(d0.getTime() / 1000));
      case "a":
        return days[d.getUTCDay()];
      case "b":
        return months[d.getUTCMonth()];
      case "y":
        return p2(d.getUTCFullYear() % 100);
      case "j":
        return String(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 864e5) + 1).padStart(3, "0");
      case "F":
        return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
      case "T":
        return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
      case "%":
        return "%";
    }
    return "%" + c;
  });
}

export async function printf(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const parsed = await parseOpts(sh, fds, argv, "v:", "printf [-v var] format [arguments]");
  if (!parsed) return 2;
  const i = parsed.i;
  const varName = parsed.opts.at(-1)?.[1];
  if (varName !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/.test(varName)) {
    await berr(sh, fds, "printf", `\`${varName}': not a valid identifier`);
    return 2;
  }
  const fmt = argv[i];
  if (fmt === undefined) {
    await berr(sh, fds, "printf", "usage: printf [-v var] format [arguments]");
    return 2;
  }
  const errors: string[] = [];
  const { text } = formatPrintf(sh, fmt, argv.slice(i + 1), errors);
  for (const e of errors) await berr(sh, fds, "printf", e);
  if (varName) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/.exec(varName);
    if (m) sh.vars.setIndex(m[1], await dynamicKey(sh, m[1], m[2]), text);
    else if (NAME_RE.test(varName)) sh.vars.set(varName, text);
  } else await out(fds, text);
  return errors.length ? 1 : 0;
}
