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
  let buf: Uint8Array;
  try {
    buf = new Uint8Array(await repo.fs.promises.readFile(`${repo.gitdir}/index`));
  } catch {
    return [];
  }
  if (buf.length < 12 || String.fromCharCode(...buf.subarray(0, 4)) !== "DIRC") return [];
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) return [];
  const count = view.getUint32(8);
  const out: string[] = [];
  let off = 12;
  const dec = new TextDecoder();
  for (let i = 0; i < count && off + 62 <= buf.length; i++) {
    const flags = view.getUint16(off + 60);
    const extended = (flags & 0x4000) !== 0 && version === 3;
    const nameStart = off + 62 + (extended ? 2 : 0);
    let end = nameStart;
    while (end < buf.length && buf[end] !== 0) end++;
    const stage = (flags >> 12) & 3;
    if (stage > 0) out.push(dec.decode(buf.subarray(nameStart, end)));
    const entryLen = end - off;
    off += Math.ceil((entryLen + 1) / 8) * 8;
  }
  return out;
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

/** The index's stage-0 entries by path (undefined when the index is missing or not v2/v3). */
export async function readIndex(repo: Repo): Promise<Map<string, IndexEntry> | undefined> {
  let buf: Uint8Array;
  try {
    buf = new Uint8Array(await repo.fs.promises.readFile(`${repo.gitdir}/index`));
  } catch {
    return new Map();
  }
  if (buf.length < 12 || String.fromCharCode(...buf.subarray(0, 4)) !== "DIRC") return undefined;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = view.getUint32(8);
  const out = new Map<string, IndexEntry>();
  const dec = new TextDecoder();
  const hex = (a: Uint8Array) => Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  let off = 12;
  for (let i = 0; i < count && off + 62 <= buf.length; i++) {
    const flags = view.getUint16(off + 60);
    const extended = (flags & 0x4000) !== 0 && version === 3;
    const nameStart = off + 62 + (extended ? 2 : 0);
    let end = nameStart;
    while (end < buf.length && buf[end] !== 0) end++;
    if (((flags >> 12) & 3) === 0) {
      const path = dec.decode(buf.subarray(nameStart, end));
      out.set(path, {
        path,
        oid: hex(buf.subarray(off + 40, off + 60)),
        mode: view.getUint32(off + 24),
        mtimeSeconds: view.getUint32(off + 8),
        size: view.getUint32(off + 36),
        ino: view.getUint32(off + 20),
      });
    }
    off += Math.ceil((end - off + 1) / 8) * 8;
  }
  return out;
}
