import { hunks, type Hunks } from "../../lib/xdiff";
import { GIT_MAX_DIFF_LINES, GIT_MAX_TEXT_BYTES } from "./limits";
import { plural, quotePath } from "./format";

/**
 * Unified diffs as git prints them, over the one port of git's xdiff (src/lib/xdiff.ts: Myers,
 * compaction and the indent heuristic): hunks grouped the way xdiff groups them (3 lines of
 * context, changes at most 6 lines apart share a hunk), hunk headers with git's default function
 * line (the nearest earlier line starting with a letter, `_` or `$`), "\ No newline at end of
 * file", "Binary files ... differ".
 */

export interface FileSide {
  path: string;
  oid: string;
  mode: string;
  bytes: Uint8Array;
}

/** One changed path: `old`/`neu` undefined for an added/deleted file. */
export interface FileChange {
  old?: FileSide;
  neu?: FileSide;
  /** Set for a rename found by equal contents. */
  renamed?: boolean;
}

const ZERO = "0000000000000000000000000000000000000000";
const dec = new TextDecoder();

function isBinary(bytes: Uint8Array): boolean {
  if (bytes.length > GIT_MAX_TEXT_BYTES) return true;
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Lines with their terminators kept, so a missing final newline is a difference, as in git. */
function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return lines;
}

/** Lines added and deleted, for --stat. */
export type LineCounts = Omit<Hunks, "text">;

/** Cuts a line to its first 80 UTF-8 bytes, as git cuts a hunk header's function line. */
function cut80(line: string): string {
  const bytes = new TextEncoder().encode(line);
  return bytes.length > 80 ? new TextDecoder().decode(bytes.slice(0, 80)) : line;
}

/** The hunks of a text diff (without file headers), and the counts for --stat. */
function unifiedHunks(a: string, b: string, context = 3): Hunks {
  const la = splitLines(a);
  const lb = splitLines(b);
  if (la.length > GIT_MAX_DIFF_LINES || lb.length > GIT_MAX_DIFF_LINES) {
    return { text: `(files of more than ${GIT_MAX_DIFF_LINES} lines are not compared here)\n`, added: lb.length, deleted: la.length };
  }
  return hunks(la, lb, context, cut80);
}

const short = (oid: string | undefined) => (oid ?? ZERO).slice(0, 7);
const aPath = (p: string) => quotePath(`a/${p}`);
const bPath = (p: string) => quotePath(`b/${p}`);

export interface PatchOptions {
  context: number;
}

/** The full patch text of one file change, headers included, and its line counts. */
export function filePatch(ch: FileChange, opts: PatchOptions): { text: string; binary: boolean } & LineCounts {
  const oldPath = ch.old?.path ?? ch.neu!.path;
  const newPath = ch.neu?.path ?? ch.old!.path;
  let head = `diff --git ${aPath(oldPath)} ${bPath(newPath)}\n`;
  if (!ch.old) head += `new file mode ${ch.neu!.mode}\n`;
  else if (!ch.neu) head += `deleted file mode ${ch.old.mode}\n`;
  else if (ch.old.mode !== ch.neu.mode) head += `old mode ${ch.old.mode}\nnew mode ${ch.neu.mode}\n`;
  if (ch.renamed) {
    head += `similarity index 100%\nrename from ${quotePath(oldPath)}\nrename to ${quotePath(newPath)}\n`;
    if (ch.old!.oid === ch.neu!.oid) return { text: head, binary: false, added: 0, deleted: 0 };
  }
  const sameMode = ch.old && ch.neu && ch.old.mode === ch.neu.mode;
  if (ch.old && ch.neu && ch.old.oid === ch.neu.oid) return { text: head, binary: false, added: 0, deleted: 0 };
  head += `index ${short(ch.old?.oid)}..${short(ch.neu?.oid)}${sameMode ? ` ${ch.old!.mode}` : ""}\n`;
  const a = ch.old?.bytes ?? new Uint8Array(0);
  const b = ch.neu?.bytes ?? new Uint8Array(0);
  const from = ch.old ? aPath(oldPath) : "/dev/null";
  const to = ch.neu ? bPath(newPath) : "/dev/null";
  // git ends a ---/+++ name holding a space with a tab, so patch tools find where it ends.
  const tab = (name: string) => (name.includes(" ") && !name.startsWith('"') ? `${name}\t` : name);
  if (isBinary(a) || isBinary(b)) {
    return { text: `${head}Binary files ${from} and ${to} differ\n`, binary: true, added: 0, deleted: 0 };
  }
  const hunks = unifiedHunks(dec.decode(a), dec.decode(b), opts.context);
  return { text: `${head}--- ${tab(from)}\n+++ ${tab(to)}\n${hunks.text}`, binary: false, added: hunks.added, deleted: hunks.deleted };
}

export interface StatRow {
  name: string;
  added: number;
  deleted: number;
  binary?: { from: number; to: number };
}

/** A change's line counts without the patch text. */
export function countLines(ch: FileChange): StatRow {
  const name = ch.renamed ? renameName(ch.old!.path, ch.neu!.path) : (ch.neu ?? ch.old)!.path;
  const a = ch.old?.bytes ?? new Uint8Array(0);
  const b = ch.neu?.bytes ?? new Uint8Array(0);
  if (ch.old && ch.neu && ch.old.oid === ch.neu.oid) return { name, added: 0, deleted: 0 };
  if (isBinary(a) || isBinary(b)) return { name, added: 0, deleted: 0, binary: { from: a.length, to: b.length } };
  const h = unifiedHunks(dec.decode(a), dec.decode(b), 0);
  return { name, added: h.added, deleted: h.deleted };
}

/** `a => b`, or `dir/{a => b}` for a shared prefix/suffix, as git's stat names renames. */
function renameName(a: string, b: string): string {
  let pre = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) break;
    if (a[i] === "/") pre = i + 1;
  }
  let suf = 0;
  for (let i = 1; i <= Math.min(a.length, b.length) - pre; i++) {
    if (a[a.length - i] !== b[b.length - i]) break;
    if (a[a.length - i] === "/") suf = i;
  }
  if (!pre && !suf) return `${a} => ${b}`;
  return `${a.slice(0, pre)}{${a.slice(pre, a.length - suf)} => ${b.slice(pre, b.length - suf)}}${a.slice(a.length - suf)}`;
}

/** The summary line: ` 2 files changed, 3 insertions(+), 1 deletion(-)`. */
export function statSummary(rows: StatRow[]): string {
  const add = rows.reduce((s, r) => s + r.added, 0);
  const del = rows.reduce((s, r) => s + r.deleted, 0);
  let line = ` ${plural(rows.length, "file changed", "files changed")}`;
  if (add || !del) line += `, ${plural(add, "insertion(+)", "insertions(+)")}`;
  if (del || !add) line += `, ${plural(del, "deletion(-)", "deletions(-)")}`;
  // git leaves out both counts when nothing changed in lines (a mode change, a pure rename)
  if (!add && !del) line = ` ${plural(rows.length, "file changed", "files changed")}, 0 insertions(+), 0 deletions(-)`;
  return `${line}\n`;
}

/** `--stat` as git prints it for an 80-column width (diff.c show_stats). */
export function statText(rows: StatRow[], width = 80): string {
  if (!rows.length) return "";
  const names = rows.map((r) => quotePath(r.name));
  const maxLen = Math.max(...names.map((n) => n.length));
  let maxChange = 0;
  for (const r of rows) if (!r.binary) maxChange = Math.max(maxChange, r.added + r.deleted);
  let numberWidth = String(maxChange).length;
  if (rows.some((r) => r.binary)) numberWidth = Math.max(numberWidth, 3);
  let graphWidth = maxChange;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6) {
      graphWidth = Math.floor((width * 3) / 8) - numberWidth - 6;
      if (graphWidth < 6) graphWidth = 6;
    }
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth;
    else graphWidth = width - numberWidth - 6 - nameWidth;
  }
  const scale = (n: number) => (n === 0 ? 0 : 1 + Math.floor((n * (graphWidth - 1)) / maxChange));
  let out = "";
  rows.forEach((r, i) => {
    let name = names[i]!;
    if (name.length > nameWidth) {
      name = `...${name.slice(name.length - (nameWidth - 3))}`;
      const slash = name.indexOf("/");
      if (slash >= 0) name = `...${name.slice(slash)}`;
    }
    if (r.binary) {
      out += ` ${name.padEnd(nameWidth)} | ${"Bin".padStart(numberWidth)} ${r.binary.from} -> ${r.binary.to} bytes\n`;
      return;
    }
    const total = r.added + r.deleted;
    let add = r.added;
    let del = r.deleted;
    if (graphWidth <= maxChange) {
      let t = scale(total);
      if (t < 2 && add && del) t = 2;
      if (add < del) {
        add = scale(add);
        del = t - add;
      } else {
        del = scale(del);
        add = t - del;
      }
    }
    out += ` ${name.padEnd(nameWidth)} | ${String(total).padStart(numberWidth)}${add + del ? ` ${"+".repeat(add)}${"-".repeat(del)}` : ""}\n`;
  });
  return out + statSummary(rows);
}
