// The history list and $HISTFILE: the runner records lines (interactive shells), the `history`
// and `fc` builtins read and edit them, and prompt expansion (\!) reads the next number through
// the expansion context. It needs only these parts of a shell, so it imports no runner.
import type { ShellHost } from "../host";
import { decode, encode } from "../bytes";

export interface HistoryShell {
  builtinState: Map<string, unknown>;
  vars: { get(name: string): string | undefined };
  cwd: string;
  host: ShellHost;
  shopts: Record<string, boolean>;
}

// fileLines: lines of the history file already read or written (bash keeps one count, not per file)
interface Hist {
  lines: string[];
  base: number;
  appended: number;
  fileLines: number;
}

export function state(sh: HistoryShell): Hist {
  const h = sh.builtinState.get("history") as Hist | undefined;
  return h ?? { lines: [], base: 1, appended: 0, fileLines: 0 };
}
export function save(sh: HistoryShell, h: Hist): void {
  // HISTSIZE caps the list (bash applies it when the variable changes; reading it here
  // gives the same visible result)
  const max = Number(sh.vars.get("HISTSIZE") ?? "500");
  if (Number.isInteger(max) && max >= 0 && h.lines.length > max) {
    const drop = h.lines.length - max;
    h = { ...h, lines: h.lines.slice(drop), base: h.base + drop, appended: Math.max(0, h.appended - drop) };
  }
  sh.builtinState.set("history", h);
}

export function histFile(sh: HistoryShell): string | undefined {
  const f = sh.vars.get("HISTFILE");
  return f === undefined || f === "" ? undefined : f;
}

export function readLines(sh: HistoryShell, path: string): string[] | null {
  try {
    const abs = sh.host.resolvePath(sh.cwd, path);
    if (sh.host.fs.stat(abs)?.type !== "file") return null;
    const text = decode(sh.host.fs.readFile(abs));
    return text.split("\n").filter((l, i, a) => !(i === a.length - 1 && l === ""));
  } catch {
    return null;
  }
}

export function writeLines(sh: HistoryShell, path: string, lines: string[], append: boolean): boolean {
  try {
    const abs = sh.host.resolvePath(sh.cwd, path);
    sh.host.fs.writeFile(abs, encode(lines.map((l) => l + "\n").join("")), { append });
    return true;
  } catch {
    return false;
  }
}

/** Records one command line (interactive shells, with `set -o history`). */
export function addHistory(sh: HistoryShell, line: string): void {
  const h = state(sh);
  save(sh, { ...h, lines: [...h.lines, line] });
}

/** Loads $HISTFILE into the list at interactive startup; missing files are fine. */
export function loadHistoryFile(sh: HistoryShell): void {
  const file = histFile(sh);
  const lines = file === undefined ? null : readLines(sh, file);
  if (!lines) return;
  const h = state(sh);
  save(sh, { ...h, lines: [...h.lines, ...lines], fileLines: lines.length, appended: h.lines.length + lines.length });
}

/** Saves the list to $HISTFILE when an interactive shell exits (histappend: only new lines). */
export function saveHistoryFile(sh: HistoryShell): void {
  const file = histFile(sh);
  if (file === undefined) return;
  const h = state(sh);
  if (sh.shopts.histappend) writeLines(sh, file, h.lines.slice(h.appended), true);
  else writeLines(sh, file, h.lines, false);
}

/** The history list and the number of its first entry. */
export function historyList(sh: HistoryShell): { lines: readonly string[]; base: number } {
  const h = state(sh);
  return { lines: h.lines, base: h.base };
}
