import { STORED_ROOTS, parentOf } from "./paths";
import { CHUNK_SIZE, KIND_DIR, KIND_FILE, KIND_SYMLINK } from "./schema";

/**
 * The invariants the workspace tables keep between requests, checked with SQL: used by the
 * fault tests after an interrupted write, and cheap enough to run on a real session. Returns
 * one sentence per broken invariant (empty when consistent). Uncommitted blobs count as broken:
 * at rest none exist (pending uploads aside, which `allowUncommitted` excuses).
 */
export function checkConsistency(sql: SqlStorage, opts: { allowUncommitted?: number } = {}): string[] {
  const problems: string[] = [];
  const rows = <T extends Record<string, SqlStorageValue>>(query: string, ...params: SqlStorageValue[]): T[] => sql.exec<T>(query, ...params).toArray();

  for (const root of STORED_ROOTS) {
    const r = rows<{ kind: number }>(`SELECT kind FROM vfs_nodes WHERE path = ?`, root)[0];
    if (r?.kind !== KIND_DIR) problems.push(`stored root ${root} is missing or not a directory`);
  }

  const nodes = rows<{ path: string; parent: string; kind: number; size: number; blob: number | null }>(`SELECT path, parent, kind, size, blob FROM vfs_nodes`);
  const kinds = new Map(nodes.map((n) => [n.path, n.kind]));
  /** Who points at each blob (any one), and how many point at it: the `refs` it must record. */
  const owners = new Map<number, string>();
  const counted = new Map<number, number>();
  const own = (blob: number, owner: string) => {
    if (!owners.has(blob)) owners.set(blob, owner);
    counted.set(blob, (counted.get(blob) ?? 0) + 1);
  };
  for (const n of nodes) {
    if (n.kind !== KIND_FILE && n.kind !== KIND_DIR && n.kind !== KIND_SYMLINK) problems.push(`${n.path} has unknown kind ${n.kind}`);
    if (!STORED_ROOTS.includes(n.path)) {
      if (n.parent !== parentOf(n.path)) problems.push(`${n.path} records parent ${n.parent}, expected ${parentOf(n.path)}`);
      if (kinds.get(n.parent) !== KIND_DIR) problems.push(`${n.path}: parent directory ${n.parent} does not exist`);
    }
    if (n.kind === KIND_DIR && (n.blob !== null || n.size !== 0)) problems.push(`directory ${n.path} holds content (blob ${n.blob}, size ${n.size})`);
    if (n.kind === KIND_FILE && n.size < 0) problems.push(`${n.path} has negative size ${n.size}`);
    if (n.blob !== null) own(n.blob, n.path);
  }

  const hasOutbox = rows(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'vfs_outbox'`).length > 0;
  const sizes = new Map<number, { owner: string; size: number }>();
  for (const n of nodes) if (n.blob !== null && n.kind === KIND_FILE) sizes.set(n.blob, { owner: n.path, size: n.size });
  if (hasOutbox) {
    for (const o of rows<{ id: string; blob: number | null; size: number }>(`SELECT id, blob, size FROM vfs_outbox`)) {
      if (o.blob === null) continue;
      own(o.blob, `outbox entry ${o.id}`);
      sizes.set(o.blob, { owner: `outbox entry ${o.id}`, size: o.size });
    }
  }
  // Checkpoints (src/checkpoints/) keep earlier versions of rows, sharing their blobs.
  const hasHistory = rows(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'cp_delta'`).length > 0;
  if (hasHistory) {
    const ids = new Set(rows<{ id: number }>(`SELECT id FROM cp_checkpoints`).map((r) => r.id));
    for (const d of rows<{ path: string; cp: number; blob: number | null; size: number | null }>(`SELECT path, cp, blob, size FROM cp_delta`)) {
      if (!ids.has(d.cp)) problems.push(`history row ${d.path} of checkpoint ${d.cp}, which does not exist (orphaned)`);
      if (d.blob === null) continue;
      own(d.blob, `checkpoint ${d.cp}'s ${d.path}`);
      if (!sizes.has(d.blob)) sizes.set(d.blob, { owner: `checkpoint ${d.cp}'s ${d.path}`, size: d.size ?? 0 });
    }
  }

  const blobRows = rows<{ id: number; committed: number; refs: number }>(`SELECT id, committed, refs FROM vfs_blobs`);
  const blobs = new Map(blobRows.map((b) => [b.id, b.committed]));
  let uncommitted = 0;
  for (const { id, committed, refs } of blobRows) {
    if (committed === 0) uncommitted++;
    else if (!owners.has(id)) problems.push(`committed blob ${id} belongs to no file, checkpoint or outbox entry (leaked: an orphaned blob)`);
    else if (refs !== counted.get(id)) problems.push(`blob ${id} records ${refs} reference(s) but ${counted.get(id)} point at it`);
  }
  const pendingRelease = rows<{ n: number }>(`SELECT COUNT(*) AS n FROM vfs_release`)[0]?.n ?? 0;
  if (pendingRelease > 0) problems.push(`${pendingRelease} blob release(s) staged but never applied`);
  if (uncommitted > (opts.allowUncommitted ?? 0)) problems.push(`${uncommitted} uncommitted blob(s) left behind by unfinished writes`);
  for (const [id, owner] of owners) {
    if (blobs.get(id) !== 1) problems.push(`${owner} points at blob ${id}, which is ${blobs.has(id) ? "not committed" : "missing"}`);
  }

  // Chunks lie inside their file; a file may be shorter in chunks than in size (a sparse tail
  // from ftruncate), never longer.
  const stored = rows<{ blob: number; chunks: number; bytes: number; maxIdx: number; longest: number }>(
    `SELECT blob, COUNT(*) AS chunks, SUM(length(data)) AS bytes, MAX(idx) AS maxIdx, MAX(length(data)) AS longest
       FROM vfs_chunks GROUP BY blob`,
  );
  for (const c of stored) {
    if (!blobs.has(c.blob)) {
      problems.push(`${c.chunks} orphaned chunk row(s) of blob ${c.blob}, which does not exist`);
      continue;
    }
    const owner = sizes.get(c.blob);
    if (!owner) continue; // an uncommitted blob, counted above
    if (c.longest > CHUNK_SIZE) problems.push(`${owner.owner}: a chunk is longer than ${CHUNK_SIZE} bytes`);
    if (c.maxIdx * CHUNK_SIZE >= owner.size || c.bytes > owner.size) {
      problems.push(`${owner.owner}: chunks hold ${c.bytes} bytes up to chunk ${c.maxIdx}, beyond its size ${owner.size}`);
    }
  }
  const tails = rows<{ blob: number; idx: number; len: number }>(
    `SELECT c.blob, c.idx, length(c.data) AS len FROM vfs_chunks c
       JOIN vfs_nodes n ON n.blob = c.blob WHERE c.idx * ? + length(c.data) > n.size`,
    CHUNK_SIZE,
  );
  for (const t of tails) problems.push(`${sizes.get(t.blob)?.owner}: chunk ${t.idx} (${t.len} bytes) runs past the end of the file`);
  return problems;
}
