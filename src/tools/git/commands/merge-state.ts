import type { Repo } from "../repo";

/**
 * Paths with conflict stages in the index (read from `.git/index` itself: isomorphic-git keeps
 * them but does not list them), in index order.
 */
export async function conflictedPaths(repo: Repo): Promise<string[]> {
  return [...new Set(await conflictStages(repo))];
}

/** One path per conflict stage entry (a both-modified path three times), as `git diff --name-only` lists them. */
export async function conflictStages(repo: Repo): Promise<string[]> {
  const entries = await indexEntries(repo);
  return entries ? entries.filter((e) => e.stage > 0).map((e) => e.path) : [];
}

/** A stage-0 index entry with the stat data git compares to decide whether to re-read a file. */
export interface IndexEntry {
  path: string;
  oid: string;
  mode: number;
  mtimeSeconds: number;
  size: number;
  ino: number;
}

/** The index's stage-0 entries by path (empty when there is no index; undefined when it is not v2/v3). */
export async function readIndex(repo: Repo): Promise<Map<string, IndexEntry> | undefined> {
  const entries = await indexEntries(repo);
  if (!entries) return undefined;
  const out = new Map<string, IndexEntry>();
  for (const { stage, ...entry } of entries) if (stage === 0) out.set(entry.path, entry);
  return out;
}

/** Every entry of `.git/index` in order ([] when there is none; undefined when it is not a v2/v3 index). */
async function indexEntries(repo: Repo): Promise<(IndexEntry & { stage: number })[] | undefined> {
  let buf: Uint8Array;
  try {
    buf = new Uint8Array(await repo.fs.promises.readFile(`${repo.gitdir}/index`));
  } catch {
    return [];
  }
  if (buf.length < 12 || String.fromCharCode(...buf.subarray(0, 4)) !== "DIRC") return undefined;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = view.getUint32(8);
  const out: (IndexEntry & { stage: number })[] = [];
  const dec = new TextDecoder();
  const hex = (a: Uint8Array) => Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  let off = 12;
  for (let i = 0; i < count && off + 62 <= buf.length; i++) {
    const flags = view.getUint16(off + 60);
    const extended = (flags & 0x4000) !== 0 && version === 3;
    const nameStart = off + 62 + (extended ? 2 : 0);
    let end = nameStart;
    while (end < buf.length && buf[end] !== 0) end++;
    out.push({
      path: dec.decode(buf.subarray(nameStart, end)),
      stage: (flags >> 12) & 3,
      oid: hex(buf.subarray(off + 40, off + 60)),
      mode: view.getUint32(off + 24),
      mtimeSeconds: view.getUint32(off + 8),
      size: view.getUint32(off + 36),
      ino: view.getUint32(off + 20),
    });
    off += Math.ceil((end - off + 1) / 8) * 8;
  }
  return out;
}
