import * as git from "isomorphic-git";
import type { FileChange, FileSide } from "./diff";
import { blobBytes, hashBytes, indexFiles, matches, readWorktree, treeFiles, type Entry, type Repo } from "./repo";

/** One side of a comparison: a commit's tree, the index, or the work tree (tracked files). */
export type Side = { kind: "tree"; oid: string | undefined } | { kind: "index" } | { kind: "worktree" };

/** statusMatrix rows: [path, head, workdir, stage], see isomorphic-git's statusMatrix. */
export type Row = [string, 0 | 1, 0 | 1 | 2, 0 | 1 | 2 | 3];

export async function statusRows(repo: Repo, filepaths?: string[]): Promise<Row[]> {
  return (await git.statusMatrix({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache, filepaths })) as Row[];
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
