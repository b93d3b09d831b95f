// Linux signal numbering (x86-64), shared by kill, trap listings and compgen -A signal.
export const SIGNAL_NAMES = [
  "HUP",
  "INT",
  "QUIT",
  "ILL",
  "TRAP",
  "ABRT",
  "BUS",
  "FPE",
  "KILL",
  "USR1",
  "SEGV",
  "USR2",
  "PIPE",
  "ALRM",
  "TERM",
  "STKFLT",
  "CHLD",
  "CONT",
  "STOP",
  "TSTP",
  "TTIN",
  "TTOU",
  "URG",
  "XCPU",
  "XFSZ",
  "VTALRM",
  "PROF",
  "WINCH",
  "IO",
  "PWR",
  "SYS",
];

/** Number for a signal name (case-insensitive, optional SIG prefix, IOT/POLL/CLD aliases) or decimal string. */
export function signalNumber(spec: string): number | null {
  if (/^\d+$/.test(spec)) {
    const n = Number(spec);
    return n <= 64 ? n : null;
  }
  const s = spec.toUpperCase().replace(/^SIG/, "");
  const alias: Record<string, string> = { IOT: "ABRT", POLL: "IO", CLD: "CHLD" };
  const i = SIGNAL_NAMES.indexOf(alias[s] ?? s);
  if (i >= 0) return i + 1;
  const rt = /^RTM(IN|AX)([+-]\d+)?$/.exec(s);
  if (rt) {
    const n = (rt[1] === "IN" ? 34 : 64) + Number(rt[2] ?? 0);
    return n >= 34 && n <= 64 ? n : null;
  }
  return s === "EXIT" ? 0 : null;
}

/** Name without the SIG prefix for a signal number, or null. */
export function signalName(n: number): string | null {
  if (n === 0) return "EXIT";
  if (n >= 1 && n <= SIGNAL_NAMES.length) return SIGNAL_NAMES[n - 1];
  if (n === 34) return "RTMIN";
  if (n === 64) return "RTMAX";
  if (n > 34 && n < 64) return n <= 49 ? `RTMIN+${n - 34}` : `RTMAX-${64 - n}`;
  return null;
}

/** `kill -l` table: five "NN) SIGNAME" cells per line, like bash. */
export function signalTable(): string {
  const cells: string[] = [];
  for (let n = 1; n <= 64; n++) {
    const name = signalName(n);
    if (name && !(n > 31 && n < 34)) cells.push(`${String(n).padStart(2)}) SIG${name}`);
  }
  // bash ends a full row with a newline and every other cell with a tab (so the short last row
  // keeps a tab before its newline)
  let s = "";
  cells.forEach((c, i) => {
    s += c + (i % 5 === 4 ? "\n" : "\t");
  });
  return cells.length % 5 ? s + "\n" : s;
}
