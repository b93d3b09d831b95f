import { KIND_DIR, KIND_SYMLINK } from "../../vfs/schema";
import { relativeToRoot } from "../../vfs/paths";
import { MAX_DIFF_FILE_BYTES, MAX_DIFF_PATHS, MAX_DIFF_TEXT } from "../limits";
import { modeOf, type Change, type TreeRow } from "../store";
import { hunks, records } from "../../lib/xdiff";

/**
 * A diff between two trees: the paths added, removed, changed and whose mode changed, and the
 * patch text `git diff --no-index OLD NEW` prints for them (paths relative to /workspace, with
 * git's a/ and b/ prefixes; exact renames as git finds them). Directories are not listed (git
 * has none); binary files (a NUL in the first 8000 bytes, git's test) are named, not printed.
 */
export interface DiffReport {
  added: string[];
  removed: string[];
  changed: string[];
  mode_changed: string[];
  binary: string[];
  /** Paths withheld by the sensitive-file rule: named, contents never shown. */
  withheld: string[];
  truncated: boolean;
  diff: string;
}

type Read = (blob: number | null, size: number) => Uint8Array;

const gitMode = (r: TreeRow): string => (r.kind === KIND_SYMLINK ? "120000" : modeOf(r) & 0o111 ? "100755" : "100644");

/** Git orders a no-index walk by name within each directory ("a/x" before "a.txt"). */
function gitOrder(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

const latin1 = (bytes: Uint8Array): string => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};

async function gitHash(bytes: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const all = new Uint8Array(head.length + bytes.length);
  all.set(head);
  all.set(bytes, head.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const isBinary = (bytes: Uint8Array): boolean => bytes.subarray(0, 8000).includes(0);

interface Side {
  path: string;
  row: TreeRow;
  bytes: Uint8Array;
  hash: string;
}

export async function renderDiff(changes: Change[], read: Read, readable: (path: string) => boolean): Promise<DiffReport> {
  const report: DiffReport = { added: [], removed: [], changed: [], mode_changed: [], binary: [], withheld: [], truncated: false, diff: "" };
  const contentOf = async (path: string, r: TreeRow): Promise<Side> => {
    const bytes = r.kind === KIND_SYMLINK ? new TextEncoder().encode(r.target ?? "") : r.size > MAX_DIFF_FILE_BYTES ? new Uint8Array(0) : read(r.blob, r.size);
    return { path, row: r, bytes, hash: await gitHash(bytes) };
  };
  const olds: Side[] = [];
  const news: Side[] = [];
  const pairs: { from: Side | null; to: Side | null }[] = [];
  let listed = 0;
  for (const c of changes) {
    // A directory is no entry of git's; a node that turned from file to directory is a removal.
    const before = c.before && c.before.kind !== KIND_DIR ? c.before : null;
    const after = c.after && c.after.kind !== KIND_DIR ? c.after : null;
    if (!before && !after) continue;
    if (++listed > MAX_DIFF_PATHS) {
      report.truncated = true;
      break;
    }
    const rel = relativeToRoot(c.path);
    if (!readable(c.path)) {
      report.withheld.push(rel);
      continue;
    }
    if (before && after) {
      const from = await contentOf(rel, before);
      const to = await contentOf(rel, after);
      // Times or a rewrite with the same bytes: nothing git would show.
      if (from.hash === to.hash && gitMode(before) === gitMode(after)) continue;
      pairs.push({ from, to });
    } else if (before) olds.push(await contentOf(rel, before));
    else news.push(await contentOf(rel, after!));
  }
  // Exact renames: a removed file whose bytes an added one has (git's first pass).
  const byHash = new Map<string, Side[]>();
  for (const o of olds) byHash.set(o.hash, [...(byHash.get(o.hash) ?? []), o]);
  const renamed = new Set<Side>();
  for (const n of news) {
    const candidates = byHash.get(n.hash)?.filter((o) => !renamed.has(o) && (o.row.kind === KIND_SYMLINK) === (n.row.kind === KIND_SYMLINK));
    const o = candidates?.find((c) => c.path.slice(c.path.lastIndexOf("/")) === n.path.slice(n.path.lastIndexOf("/"))) ?? candidates?.[0];
    if (o) {
      renamed.add(o);
      pairs.push({ from: o, to: n });
    } else pairs.push({ from: null, to: n });
  }
  for (const o of olds) if (!renamed.has(o)) pairs.push({ from: o, to: null });
  pairs.sort((p, q) => gitOrder((p.to ?? p.from)!.path, (q.to ?? q.from)!.path));

  let text = "";
  for (const { from, to } of pairs) {
    const path = (to ?? from)!.path;
    if (from && to && from.path === to.path) {
      if (from.hash !== to.hash || from.row.kind !== to.row.kind) report.changed.push(path);
      if (gitMode(from.row) !== gitMode(to.row)) report.mode_changed.push(path);
    } else if (from && to) {
      report.removed.push(from.path);
      report.added.push(to.path);
    } else if (to) report.added.push(path);
    else report.removed.push(path);
    if (text.length < MAX_DIFF_TEXT) text += patch(from, to, report);
    else report.truncated = true;
  }
  report.diff = new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0)));
  for (const list of [report.added, report.removed, report.changed, report.mode_changed]) list.sort();
  return report;
}

/** One file's part of the patch, as git prints it (bytes as a latin1 string). */
function patch(from: Side | null, to: Side | null, report: DiffReport): string {
  const enc = (s: string) => latin1(new TextEncoder().encode(s));
  const a = `a/${enc((from ?? to)!.path)}`;
  const b = `b/${enc((to ?? from)!.path)}`;
  let out = `diff --git ${a} ${b}\n`;
  const short = (s: Side | null) => (s ? s.hash.slice(0, 7) : "0000000");
  if (!from) out += `new file mode ${gitMode(to!.row)}\n`;
  else if (!to) out += `deleted file mode ${gitMode(from.row)}\n`;
  else if (gitMode(from.row) !== gitMode(to.row)) out += `old mode ${gitMode(from.row)}\nnew mode ${gitMode(to.row)}\n`;
  if (from && to && from.path !== to.path) {
    out += `similarity index 100%\nrename from ${enc(from.path)}\nrename to ${enc(to.path)}\n`;
    return out;
  }
  if (from && to && from.hash === to.hash) return out;
  const sameMode = from && to && gitMode(from.row) === gitMode(to.row);
  out += `index ${short(from)}..${short(to)}${sameMode ? ` ${gitMode(from!.row)}` : ""}\n`;
  const oldBytes = from?.bytes ?? new Uint8Array(0);
  const newBytes = to?.bytes ?? new Uint8Array(0);
  const binary = isBinary(oldBytes) || isBinary(newBytes);
  if (binary) {
    report.binary.push((to ?? from)!.path);
    return out + `Binary files ${from ? a : "/dev/null"} and ${to ? b : "/dev/null"} differ\n`;
  }
  if (oldBytes.length === 0 && newBytes.length === 0) return out;
  out += `--- ${from ? a : "/dev/null"}\n+++ ${to ? b : "/dev/null"}\n`;
  // git's 3 lines of context; a latin1 string has one character per byte, so 80 characters are 80 bytes.
  return out + hunks(records(latin1(oldBytes)), records(latin1(newBytes)), 3, (rec) => rec.slice(0, 80)).text;
}
