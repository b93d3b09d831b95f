import * as git from "isomorphic-git";
import type { FileChange, FileSide } from "./diff";
import type { NodeInfo } from "../../vfs/workspace";
import { readIndex } from "./commands/merge-state";
import { blobBytes, hashBytes, headOid, indexFiles, matches, readWorktree, treeFiles, type Entry, type Repo } from "./repo";

/** One side of a comparison: a commit's tree, the index, or the work tree (tracked files). */
export type Side = { kind: "tree"; oid: string | undefined } | { kind: "index" } | { kind: "worktree" };

/** statusMatrix rows: [path, head, workdir, stage], see isomorphic-git's statusMatrix. */
export type Row = [string, 0 | 1, 0 | 1 | 2, 0 | 1 | 2 | 3];

/**
 * statusMatrix's rows, computed here in one pass: the work tree from a single listing of the
 * workspace (GuardedFs.walk, metadata only), the index parsed directly, HEAD's tree flattened;
 * a file is read and hashed only when its size, mtime or inode differ from its index entry, as
 * git does. Untracked files are asked about .gitignore. Same values as isomorphic-git's
 * statusMatrix, several times faster on large trees.
 */
export async function statusRows(repo: Repo, filepaths?: string[]): Promise<Row[]> {
  const index = await readIndex(repo);
  if (!index) return (await git.statusMatrix({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache, filepaths })) as Row[];
  const head = await treeFiles(repo, await headOid(repo));
  const prefix = `${repo.dir === "/" ? "" : repo.dir}/`;
  const work = new Map<string, NodeInfo>();
  for (const node of repo.ctx.fs.walk(repo.dir)) {
    if (node.kind === "dir") continue;
    const rel = node.path.slice(prefix.length);
    if (rel === ".git" || rel.startsWith(".git/") || rel.includes("/.git/")) continue;
    work.set(rel, node);
  }
  // "Racy git": a file changed in the same second the index was written may keep its size and
  // mtime second; such entries are checked by content, as git checks them.
  const indexTime = repo.ctx.fs.stat(`${repo.gitdir}/index`)?.mtimeMs ?? Infinity;
  const racyFrom = Math.floor(indexTime / 1000) * 1000;
  const paths = [...new Set([...head.keys(), ...index.keys(), ...work.keys()])].sort();
  const rows: Row[] = [];
  for (const path of paths) {
    if (filepaths && !filepaths.some((f) => path === f || path.startsWith(`${f}/`))) continue;
    const h = head.get(path)?.oid;
    const i = index.get(path);
    const w = work.get(path);
    if (!h && !i) {
      if (!w || (await git.isIgnored({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: path }))) continue;
      rows.push([path, 0, 2, 0]);
      continue;
    }
    let wOid: string | undefined;
    if (w) {
      const same =
        i &&
        i.size === w.size &&
        i.mtimeSeconds === Math.floor(w.mtimeMs / 1000) % 2 ** 32 &&
        i.ino === w.ino % 2 ** 32 &&
        (w.kind === "symlink") === ((i.mode & 0o170000) === 0o120000);
      if (same && (w.mtimeMs < racyFrom || !readable(repo, w.path))) wOid = i.oid;
      else if (!readable(repo, w.path)) wOid = "unreadable";
      else {
        const file = await readWorktree(repo, path);
        wOid = file ? await hashBytes(file.bytes) : undefined;
      }
    }
    const slot = (v: string | undefined): number => (v === undefined ? 0 : v === h ? 1 : v === wOid ? 2 : 3);
    rows.push([path, h ? 1 : 0, (wOid === undefined ? 0 : wOid === h ? 1 : 2) as 0 | 1 | 2, slot(i?.oid) as 0 | 1 | 2 | 3]);
  }
  return rows;
}

/** Whether the read rule lets a file's contents be hashed (a protected file is judged by its stat data only). */
function readable(repo: Repo, path: string): boolean {
  try {
    repo.ctx.fs.rules.checkRead(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a row's work-tree file differs from its index entry. */
export const worktreeDiffers = ([, head, wd, stage]: Row) => stage !== 0 && (stage === 3 || (stage === 1 && wd !== 1) || (stage === 2 && head === 0 && wd === 0));

interface Loaded extends Entry {
  bytes?: Uint8Array;
}

async function entries(repo: Repo, side: Side): Promise<Map<string, Loaded>> {
  if (side.kind === "tree") return treeFiles(repo, side.oid);
  const index = await indexFiles(repo);
  if (side.kind === "index") return index;
  // The work tree: tracked files only; those the index already matches keep the index's id.
  const rows = await statusRows(repo);
  const out = new Map<string, Loaded>();
  for (const row of rows) {
    const [path] = row;
    const idx = index.get(path);
    if (!idx) continue;
    if (!worktreeDiffers(row)) {
      out.set(path, idx);
      continue;
    }
    const file = await readWorktree(repo, path);
    if (file) out.set(path, { oid: await hashBytes(file.bytes), mode: file.mode, bytes: file.bytes });
  }
  // Mode-only changes (chmod +x) are invisible to statusMatrix's content test: compare modes too.
  for (const [path, idx] of index) {
    const cur = out.get(path);
    if (!cur || cur.bytes) continue;
    const file = await readWorktree(repo, path);
    if (!file) out.delete(path);
    else if (file.mode !== idx.mode) out.set(path, { oid: idx.oid, mode: file.mode, bytes: file.bytes });
  }
  return out;
}

async function side(repo: Repo, path: string, e: Loaded): Promise<FileSide> {
  return { path, oid: e.oid, mode: e.mode, bytes: e.bytes ?? (await blobBytes(repo, e.oid)) };
}

/** The changed files between two sides, exact renames paired, sorted by path as git lists them. */
export async function changesBetween(repo: Repo, from: Side, to: Side, specs: string[] = [], opts: { renames?: boolean; load?: boolean } = {}): Promise<FileChange[]> {
  const [a, b] = await Promise.all([entries(repo, from), entries(repo, to)]);
  const paths = new Set([...a.keys(), ...b.keys()]);
  const raw: { path: string; old?: Loaded; neu?: Loaded }[] = [];
  for (const path of paths) {
    if (!matches(specs, path)) continue;
    const x = a.get(path);
    const y = b.get(path);
    if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
    raw.push({ path, old: x, neu: y });
  }
  const out: (FileChange & { key: string })[] = [];
  const deleted = raw.filter((r) => r.old && !r.neu);
  const added = raw.filter((r) => !r.old && r.neu);
  const paired = new Set<object>();
  if (opts.renames !== false) {
    for (const d of deleted) {
      const match = added.find((n) => !paired.has(n) && n.neu!.oid === d.old!.oid);
      if (!match) continue;
      paired.add(match).add(d);
      out.push({ key: match.path, old: await side(repo, d.path, d.old!), neu: await side(repo, match.path, match.neu!), renamed: true });
    }
  }
  for (const r of raw) {
    if (paired.has(r)) continue;
    out.push({ key: r.path, old: r.old && (await side(repo, r.path, r.old)), neu: r.neu && (await side(repo, r.path, r.neu)) });
  }
  out.sort((p, q) => (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));
  return out;
}
