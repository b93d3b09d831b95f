// Prompt-string decoding for ${x@P} (bash's decode_prompt_string, then promptvars expansion).
// Backslash escapes are decoded first; values they insert (\w, \u ...) are protected with
// backslashes so the second pass -- expansion as if inside double quotes -- does not
// re-expand them. Values that need the runner (clock, job table) are read from the Shell
// when the expansion context is one (duck-typed, so this module stays independent of it).
import type { ExpandCtx } from "./word";
import { expandString } from "./word";
import { Parser, ParseError } from "../syntax/parser";
import { ShellError } from "../interp/vars";
import { ArithError } from "./arith";

interface RunnerBits {
  host?: { now(): number };
  shared?: { jobs: Map<number, unknown> };
  builtinState?: Map<string, unknown>;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const p2 = (n: number) => String(n).padStart(2, "0");

/** A strftime subset (the clock is UTC on the platform). */
function strftime(fmt: string, d: Date): string {
  const h12 = d.getUTCHours() % 12 || 12;
  return fmt.replace(/%([a-zA-Z%])/g, (m, c: string) => {
    switch (c) {
      case "a":
        return DAYS[d.getUTCDay()];
      case "b":
      case "h":
        return MONTHS[d.getUTCMonth()];
      case "d":
        return p2(d.getUTCDate());
      case "e":
        return String(d.getUTCDate()).padStart(2);
      case "H":
        return p2(d.getUTCHours());
      case "I":
        return p2(h12);
      case "M":
        return p2(d.getUTCMinutes());
      case "S":
        return p2(d.getUTCSeconds());
      case "m":
        return p2(d.getUTCMonth() + 1);
      case "y":
        return p2(d.getUTCFullYear() % 100);
      case "Y":
        return String(d.getUTCFullYear());
      case "p":
        return d.getUTCHours() < 12 ? "AM" : "PM";
      case "T":
      case "X":
        return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
      case "R":
        return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`;
      case "D":
      case "x":
        return `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${p2(d.getUTCFullYear() % 100)}`;
      case "F":
        return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
      case "j":
        return String(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1).padStart(3, "0");
      case "s":
        return String(Math.floor(d.getTime() / 1000));
      case "Z":
        return "UTC";
      case "z":
        return "+0000";
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "%":
        return "%";
      default:
        return m;
    }
  });
}

/** Backslash-quotes text for the double-quote expansion pass. */
const protect = (s: string) => s.replace(/[\\$`]/g, "\\$&");

function decodePrompt(ctx: ExpandCtx, s: string): string {
  const bits = ctx as unknown as RunnerBits;
  const now = new Date(bits.host?.now() ?? 0);
  const v = (n: string) => ctx.vars.get(n) ?? "";
  let r = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== "\\" || i + 1 >= s.length) {
      r += c;
      continue;
    }
    const e = s[++i];
    const oct = /^[0-7]{1,3}/.exec(s.slice(i, i + 3));
    if (oct) {
      r += protect(String.fromCharCode(parseInt(oct[0], 8) & 0xff));
      i += oct[0].length - 1;
      continue;
    }
    switch (e) {
      case "a":
        r += "\x07";
        break;
      case "e":
        r += "\x1b";
        break;
      case "r":
        r += "\r";
        break;
      case "n":
        r += "\n";
        break;
      case "\\":
        r += "\\";
        break;
      case "[":
      case "]":
        break; // readline's non-printing markers: nothing outside readline
      case "$":
        r += "\\$";
        break; // never root here; the second pass turns \$ into $
      case "u":
        r += protect(v("USER") || v("LOGNAME"));
        break;
      case "h":
        r += protect(v("HOSTNAME").split(".")[0]);
        break;
      case "H":
        r += protect(v("HOSTNAME"));
        break;
      case "w":
      case "W": {
        const pwd = v("PWD");
        const home = v("HOME");
        let w = pwd;
        if (home && (pwd === home || pwd.startsWith(home.endsWith("/") ? home : home + "/"))) w = "~" + pwd.slice(home.length);
        if (e === "W" && w !== "~" && pwd !== "/") w = pwd.replace(/\/+$/, "").replace(/^.*\//, "");
        r += protect(w);
        break;
      }
      case "s":
        r += protect(ctx.special("0").replace(/^.*\//, ""));
        break;
      case "v":
        r += v("BASH_VERSION").match(/^\d+\.\d+/)?.[0] ?? "";
        break;
      case "V":
        r += v("BASH_VERSION").match(/^\d+\.\d+\.\d+/)?.[0] ?? "";
        break;
      case "t":
        r += strftime("%H:%M:%S", now);
        break;
      case "T":
        r += strftime("%I:%M:%S", now);
        break;
      case "@":
        r += strftime("%I:%M %p", now);
        break;
      case "A":
        r += strftime("%H:%M", now);
        break;
      case "d":
        r += strftime("%a %b %d", now);
        break;
      case "D": {
        const end = s[i + 1] === "{" ? s.indexOf("}", i + 2) : -1;
        if (end < 0) {
          r += "\\D";
          break;
        }
        const fmt = s.slice(i + 2, end);
        r += protect(strftime(fmt || "%X", now));
        i = end;
        break;
      }
      case "j":
        r += String(bits.shared?.jobs.size ?? 0);
        break;
      case "l":
        r += "tty";
        break; // no terminal: bash prints "tty" when ttyname fails
      case "!": {
        // the current command's history number: it is already recorded when history is on
        r += String(ctx.historyNumber?.() ?? 1);
        break;
      }
      case "#":
        r += String((bits.builtinState?.get("cmdnum") as number | undefined) ?? 1);
        break;
      default:
        r += "\\" + e;
    }
  }
  return r;
}

/** ${x@P}: decode escapes, then expand parameters/commands as in double quotes. */
export async function expandPrompt(ctx: ExpandCtx, s: string): Promise<string> {
  const decoded = decodePrompt(ctx, s);
  if (!ctx.opt("promptvars")) return decoded.replace(/\\([\\$`])/g, "$1");
  const w = new Parser(decoded).subWord(decoded, "heredoc", 0);
  return expandString(ctx, w);
}

/** Errors a prompt expansion may report and survive (bad substitution, arithmetic, syntax);
 * anything else -- step/output limits, exit -- must keep propagating. */
export function isPromptError(e: unknown): boolean {
  return e instanceof ShellError || e instanceof ArithError || e instanceof ParseError;
}
