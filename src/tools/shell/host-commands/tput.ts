import type { ProgramIo } from "../../../shell/host";
import type { HostCommand } from "./index";

/**
 * tput as ncurses 6.4's (Debian 12) answers it: no terminal is ever attached here, so sizes come
 * from $COLUMNS/$LINES or the terminal's description; the session's TERM is `dumb`, which has no
 * colours (`tput setaf 2` exits 1 and prints nothing). The descriptions are Debian's terminfo
 * entries (`infocmp -1 -x`) for the terminals scripts name, the capabilities scripts use.
 */

const XTERM_COMMON =
  "am, it#8, cols#80, lines#24, bel=^G, blink=\\E[5m, bold=\\E[1m, civis=\\E[?25l, clear=\\E[H\\E[2J, cnorm=\\E[?12l\\E[?25h, cr=\\r, cub=\\E[%p1%dD, cub1=^H, cud=\\E[%p1%dB, cud1=\\n, cuf=\\E[%p1%dC, cuf1=\\E[C, cup=\\E[%i%p1%d;%p2%dH, cuu=\\E[%p1%dA, cuu1=\\E[A, dim=\\E[2m, ed=\\E[J, el=\\E[K, el1=\\E[1K, home=\\E[H, hpa=\\E[%i%p1%dG, ind=\\n, invis=\\E[8m, op=\\E[39;49m, rc=\\E8, rev=\\E[7m, ri=\\EM, ritm=\\E[23m, rmcup=\\E[?1049l\\E[23;0;0t, rmso=\\E[27m, rmul=\\E[24m, sc=\\E7, sgr0=\\E(B\\E[m, sitm=\\E[3m, smcup=\\E[?1049h\\E[22;0;0t, smso=\\E[7m, smul=\\E[4m, vpa=\\E[%i%p1%dd, E3=\\E[3J, bce";
const SCREEN_COMMON =
  "am, it#8, cols#80, lines#24, bel=^G, blink=\\E[5m, bold=\\E[1m, civis=\\E[?25l, clear=\\E[H\\E[J, cnorm=\\E[34h\\E[?25h, cr=\\r, cub=\\E[%p1%dD, cub1=^H, cud=\\E[%p1%dB, cud1=\\n, cuf=\\E[%p1%dC, cuf1=\\E[C, cup=\\E[%i%p1%d;%p2%dH, cuu=\\E[%p1%dA, cuu1=\\EM, dim=\\E[2m, ed=\\E[J, el=\\E[K, el1=\\E[1K, home=\\E[H, hpa=\\E[%i%p1%dG, ind=\\n, op=\\E[39;49m, rc=\\E8, rev=\\E[7m, ri=\\EM, rmcup=\\E[?1049l, rmul=\\E[24m, sc=\\E7, sgr0=\\E[m\\017, smcup=\\E[?1049h, smul=\\E[4m, vpa=\\E[%i%p1%dd";
const SET8 = "colors#8, pairs#64, setab=\\E[4%p1%dm, setaf=\\E[3%p1%dm";
const SET256 =
  "colors#0x100, pairs#0x10000, setab=\\E[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m, setaf=\\E[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m";

const ENTRIES: Record<string, { longname: string; caps: string }> = {
  xterm: { longname: "xterm terminal emulator (X Window System)", caps: `${XTERM_COMMON}, ${SET8}` },
  "xterm-256color": { longname: "xterm with 256 colors", caps: `${XTERM_COMMON}, ${SET256}` },
  screen: { longname: "VT 100/ANSI X3.64 virtual terminal", caps: `${SCREEN_COMMON}, rmso=\\E[23m, smso=\\E[3m, ${SET8}` },
  "screen-256color": { longname: "GNU Screen with 256 colors", caps: `${SCREEN_COMMON}, rmso=\\E[23m, smso=\\E[3m, ${SET256}` },
  "tmux-256color": {
    longname: "tmux with 256 colors",
    caps: `${SCREEN_COMMON}, hs, invis=\\E[8m, ritm=\\E[23m, sitm=\\E[3m, rmso=\\E[27m, smso=\\E[7m, E3=\\E[3J, ${SET256}`,
  },
  dumb: { longname: "80-column dumb tty", caps: "am, cols#80, bel=^G, cr=\\r, cud1=\\n, ind=\\n" },
};

/** Capabilities ncurses knows by name, beyond those some entry above has (absent: exit 1). */
const OTHER_CAPS = [
  "smam",
  "rmam",
  "flash",
  "kbs",
  "kcuu1",
  "kcud1",
  "kcub1",
  "kcuf1",
  "dch1",
  "il1",
  "dl1",
  "ich1",
  "smir",
  "rmir",
  "tsl",
  "fsl",
  "xenl",
  "km",
  "mir",
  "msgr",
  "npc",
  "ncv",
];
/** How many parameters a capability takes (the rest take none). */
const PARAMS: Record<string, number> = { setaf: 1, setab: 1, cub: 1, cud: 1, cuf: 1, cuu: 1, hpa: 1, vpa: 1, cup: 2 };

type Cap = boolean | number | string;

function decodeCap(s: string): string {
  return s.replace(/\\E|\\e|\\r|\\n|\\t|\\[0-7]{3}|\\\\|\\,|\^[@-_?]/g, (m) => {
    if (m === "\\E" || m === "\\e") return "\x1b";
    if (m === "\\r") return "\r";
    if (m === "\\n") return "\n";
    if (m === "\\t") return "\t";
    if (m === "\\\\" || m === "\\,") return m[1];
    if (m[0] === "^") return m === "^?" ? "\x7f" : String.fromCharCode(m.charCodeAt(1) - 64);
    return String.fromCharCode(parseInt(m.slice(1), 8));
  });
}

const parsed = new Map<string, Map<string, Cap>>();
function entry(term: string): Map<string, Cap> | undefined {
  const e = ENTRIES[term];
  if (!e) return undefined;
  let caps = parsed.get(term);
  if (!caps) {
    caps = new Map();
    for (const field of e.caps.split(/,\s*/)) {
      const eq = field.indexOf("=");
      const hash = field.indexOf("#");
      if (eq > 0) caps.set(field.slice(0, eq), decodeCap(field.slice(eq + 1)));
      else if (hash > 0) caps.set(field.slice(0, hash), Number(field.slice(hash + 1)));
      else caps.set(field, true);
    }
    parsed.set(term, caps);
  }
  return caps;
}

const KNOWN = new Set([...Object.values(ENTRIES).flatMap((e) => e.caps.split(/,\s*/).map((f) => f.split(/[=#]/)[0])), ...OTHER_CAPS, "longname"]);

/** terminfo's parameter language (tparm), the part the entries above use. */
function tparm(s: string, params: number[]): string {
  const p = params.slice();
  let out = "";
  const stack: number[] = [];
  const pop = () => stack.pop() ?? 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== "%") {
      out += s[i];
      continue;
    }
    const c = s[++i];
    if (c === "%") out += "%";
    else if (c === "d") out += String(pop());
    else if (c === "p") stack.push(p[Number(s[++i]) - 1] ?? 0);
    else if (c === "i") {
      p[0] = (p[0] ?? 0) + 1;
      p[1] = (p[1] ?? 0) + 1;
    } else if (c === "{") {
      const end = s.indexOf("}", i);
      stack.push(Number(s.slice(i + 1, end)));
      i = end;
    } else if ("+-*/<>=".includes(c)) {
      const b = pop();
      const a = pop();
      stack.push(
        c === "+" ? a + b : c === "-" ? a - b : c === "*" ? a * b : c === "/" ? (b ? Math.trunc(a / b) : 0) : c === "<" ? +(a < b) : c === ">" ? +(a > b) : +(a === b),
      );
    } else if (c === "t") {
      // %? cond %t then %e else %; : skip to the matching %e or %; when false
      if (!pop()) i = skip(s, i, true);
    } else if (c === "e") i = skip(s, i, false);
    // %? and %; mark places only
  }
  return out;
}

/** From a %t (or %e), the index of the %e/%; that ends the branch not taken. */
function skip(s: string, i: number, toElse: boolean): number {
  let depth = 0;
  for (i++; i < s.length; i++) {
    if (s[i] !== "%") continue;
    const c = s[++i];
    if (c === "?") depth++;
    else if (c === ";") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "e" && toElse && depth === 0) return i;
  }
  return i;
}

const USAGE =
  'Usage: tput [options] [command]\n\nOptions:\n  -S <<       read commands from standard input\n  -T TERM     use this instead of $TERM\n  -V          print curses-version\n  -x          do not try to clear scrollback\n\nCommands:\n  clear       clear the screen\n  init        initialize the terminal\n  reset       reinitialize the terminal\n  capname     unlike clear/init/reset, print value for capability "capname"\n';

export const tput: HostCommand = async (argv, io) => {
  const enc = new TextEncoder();
  const say = (t: string) => io.stdout.write(enc.encode(t));
  const complain = (t: string) => io.stderr.write(enc.encode(`tput: ${t}\n`)).catch(() => undefined);
  let term = io.env.TERM;
  let scrollback = true;
  let fromStdin = false;
  let i = 1;
  for (; i < argv.length && argv[i].startsWith("-") && argv[i] !== "-"; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-V") {
      await say("ncurses 6.4.20221231\n");
      return 0;
    }
    if (a === "-x") scrollback = false;
    else if (a === "-S") fromStdin = true;
    else if (a.startsWith("-T")) term = a.length > 2 ? a.slice(2) : argv[++i];
    else {
      await complain(`invalid option -- '${a[1]}'`);
      await io.stderr.write(enc.encode(USAGE)).catch(() => undefined);
      return 2;
    }
  }
  let words = argv.slice(i);
  if (fromStdin) words = await readWords(io);
  if (!words.length) {
    await io.stderr.write(enc.encode(USAGE)).catch(() => undefined);
    return 2;
  }
  if (!term) {
    await complain("No value for $TERM and no -T specified");
    return 2;
  }
  const caps = entry(term);
  if (!caps) {
    await complain(`unknown terminal "${term}"`);
    return 3;
  }
  let status = 0;
  for (let w = 0; w < words.length; w++) {
    const name = words[w];
    if (name === "longname") {
      await say(ENTRIES[term].longname);
      continue;
    }
    if (name === "init" || name === "reset") continue; // nothing to set up without a terminal
    const clearing = name === "clear";
    if (!KNOWN.has(name)) {
      await complain(`unknown terminfo capability '${name}'`);
      return 4;
    }
    const v = caps.get(name);
    if (name === "cols" || name === "lines") {
      const fromEnv = Number.parseInt(io.env[name === "cols" ? "COLUMNS" : "LINES"] ?? "", 10);
      await say(`${fromEnv > 0 ? fromEnv : typeof v === "number" ? v : name === "cols" ? 80 : 24}\n`);
      status = 0;
      continue;
    }
    const n = PARAMS[name] ?? 0;
    const given = words.slice(w + 1, w + 1 + n);
    w += given.length;
    if (v === undefined || v === false) {
      status = name === "clear" ? 2 : 1;
      if (typeof v !== "number" && ["colors", "pairs", "it"].includes(name)) {
        await say("-1\n");
        status = 0;
      }
      continue;
    }
    status = 0;
    if (typeof v === "number") await say(`${v}\n`);
    else if (typeof v === "string") {
      let text =
        n && given.length
          ? tparm(
              v,
              given.map((g) => Number.parseInt(g, 10) || 0),
            )
          : v;
      if (clearing && scrollback && typeof caps.get("E3") === "string") text += caps.get("E3");
      await say(text.replace(/\$<[\d.*/]+>/g, ""));
    }
  }
  return status;
};

async function readWords(io: ProgramIo): Promise<string[]> {
  const dec = new TextDecoder();
  let text = "";
  for (;;) {
    const c = await io.stdin.read();
    if (!c) break;
    text += dec.decode(c, { stream: true });
  }
  return text.split(/\s+/).filter((x) => x);
}
