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
