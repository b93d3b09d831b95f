import { VfsError } from "../vfs/errors";
import { faultPoint } from "../vfs/faults";
import { STORED_ROOTS, parentOf } from "../vfs/paths";
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, KIND_DIR, KIND_SYMLINK } from "../vfs/schema";
import type { Workspace } from "../vfs/workspace";
import { MAX_CHECKPOINTS, MAX_LABEL_CHARS } from "./limits";
import type { RetentionRule } from "./retention";
import { ROW_COLUMNS } from "./schema";

/** Why a checkpoint exists: asked for, taken before a call, or taken before a restore (its undo). */
export type CheckpointKind = "manual" | "auto" | "restore";

export interface CheckpointInfo {
  id: number;
  label: string | null;
  created_at: string;
  kind: CheckpointKind;
  /** Files, directories and links in its tree (the stored roots not counted). */
  files: number;
  /** Logical size of its tree's files. */
  size: number;
  /** Stored bytes only this checkpoint holds: what deleting it frees. */
  bytes: number;
}

/** A tree row as checkpoints keep it (the columns of vfs_nodes that make a node what it is). */
export interface TreeRow extends Record<string, SqlStorageValue> {
  path: string;
  parent: string;
  kind: number;
  size: number;
  mtime: number;
  atime: number | null;
  mode: number | null;
  blob: number | null;
  target: string | null;
}

/** One path that differs between two trees (null: absent on that side). */
export interface Change {
  path: string;
  before: TreeRow | null;
  after: TreeRow | null;
}

interface CpRow extends Record<string, SqlStorageValue> {
  id: number;
  label: string | null;
  created: number;
  kind: string;
  files: number;
  size: number;
}

/** Effective permission bits of a row (null stores the kind's default). */
export const modeOf = (r: TreeRow): number => r.mode ?? (r.kind === KIND_DIR ? DEFAULT_DIR_MODE : r.kind === KIND_SYMLINK ? 0o777 : DEFAULT_FILE_MODE);

/** Whether two rows are the same node (content by blob: a committed blob never changes). */
const sameRow = (a: TreeRow, b: TreeRow): boolean =>
  a.kind === b.kind &&
  a.size === b.size &&
  a.mtime === b.mtime &&
  (a.atime ?? a.mtime) === (b.atime ?? b.mtime) &&
  modeOf(a) === modeOf(b) &&
  a.blob === b.blob &&
  a.target === b.target;

/** The oldest saved row of each path at or after checkpoint `k` (a path's state at k when it changed since). */
const savedAt = (k: string) => `SELECT MIN(e.cp) FROM cp_delta e WHERE e.path = d.path AND e.cp >= ${k}`;

/**
 * A session's checkpoints over its workspace (see schema.ts for how they are kept). Every
 * method runs synchronously in one transaction, so a cut-off call leaves no trace.
 */
export class Checkpoints {
  constructor(
    private readonly ws: Workspace,
    private readonly clock: () => number = Date.now,
  ) {}

  private get sql(): SqlStorage {
    return this.ws.sql;
  }

  latest(): number | null {
    return this.sql.exec<{ id: number | null }>(`SELECT MAX(id) AS id FROM cp_checkpoints`).one().id;
  }

  exists(id: number): boolean {
    return this.sql.exec(`SELECT 1 FROM cp_checkpoints WHERE id = ?`, id).toArray().length > 0;
  }

  /** Takes a checkpoint: one row, whatever the workspace's size. */
  create(label: string | null, kind: CheckpointKind = "manual"): CheckpointInfo {
    if (label !== null && label.length > MAX_LABEL_CHARS) label = label.slice(0, MAX_LABEL_CHARS);
    if (kind === "manual") {
      const n = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM cp_checkpoints WHERE kind = 'manual'`).one().n;
      if (n >= MAX_CHECKPOINTS) {
        throw new VfsError("EDQUOT", "/workspace", `this session already keeps ${n} named checkpoints (the most allowed); delete some first`);
      }
    }
    const u = this.ws.usage();
    const id = this.sql
      .exec<{ id: number }>(
        `INSERT INTO cp_checkpoints (label, created, kind, files, size) VALUES (?, ?, ?, ?, ?) RETURNING id`,
        label,
        this.clock(),
        kind,
        u.files,
        u.bytes,
      )
      .one().id;
    return this.info(id)!;
  }

  /**
   * The checkpoint a file-changing call links to: the newest one when nothing changed since it
   * (a run of calls that change nothing costs nothing), else a new automatic one.
   */
  beforeCall(): number {
    // One statement, not two: every file-changing call asks this (and each statement costs).
    const { last, changed } = this.sql
      .exec<{ last: number | null; changed: number }>(
        `SELECT MAX(id) AS last, EXISTS (SELECT 1 FROM cp_delta WHERE cp = (SELECT MAX(id) FROM cp_checkpoints)) AS changed FROM cp_checkpoints`,
      )
      .one();
    if (last !== null && !changed) return last;
    return this.create(null, "auto").id;
  }

  info(id: number): CheckpointInfo | null {
    const r = this.sql.exec<CpRow>(`SELECT id, label, created, kind, files, size FROM cp_checkpoints WHERE id = ?`, id).toArray()[0];
    return r ? this.describe(r) : null;
  }

  /** Oldest first. */
  list(): CheckpointInfo[] {
    return this.sql
      .exec<CpRow>(`SELECT id, label, created, kind, files, size FROM cp_checkpoints ORDER BY id`)
      .toArray()
      .map((r) => this.describe(r));
  }

  private describe(r: CpRow): CheckpointInfo {
    return {
      id: r.id,
      label: r.label,
      created_at: new Date(r.created).toISOString(),
      kind: r.kind as CheckpointKind,
      files: r.files,
      size: r.size,
      bytes: this.uniqueBytes(r.id),
    };
  }

  private previous(id: number): number | null {
    return this.sql.exec<{ id: number | null }>(`SELECT MAX(id) AS id FROM cp_checkpoints WHERE id < ?`, id).one().id;
  }

  /** Rows of `id` that deleting it would drop (the rest move to the checkpoint before it). */
  private droppedRows(id: number): { where: string; params: SqlStorageValue[] } {
    const prev = this.previous(id);
    if (prev === null) return { where: `d.cp = ?`, params: [id] };
    return { where: `d.cp = ? AND EXISTS (SELECT 1 FROM cp_delta e WHERE e.path = d.path AND e.cp = ?)`, params: [id, prev] };
  }

  /** Stored bytes whose every reference is a row that deleting `id` drops. */
  private uniqueBytes(id: number): number {
    const { where, params } = this.droppedRows(id);
    return this.sql
      .exec<{ bytes: number }>(
        `SELECT COALESCE(SUM(length(c.data)), 0) AS bytes FROM vfs_chunks c WHERE c.blob IN (
           SELECT g.blob FROM (SELECT d.blob, COUNT(*) AS n FROM cp_delta d WHERE ${where} AND d.blob IS NOT NULL GROUP BY d.blob) g
             JOIN vfs_blobs b ON b.id = g.blob WHERE b.refs = g.n)`,
        ...params,
      )
      .one().bytes;
  }

  /** Stored bytes only history holds (no live file, no outbox entry uses them): what the history quota counts. */
  historyBytes(): number {
    return this.sql
      .exec<{ bytes: number }>(
        `SELECT COALESCE(SUM(length(c.data)), 0) AS bytes FROM vfs_chunks c WHERE c.blob IN (
           SELECT g.blob FROM (SELECT blob, COUNT(*) AS n FROM cp_delta WHERE blob IS NOT NULL GROUP BY blob) g
             JOIN vfs_blobs b ON b.id = g.blob WHERE b.refs = g.n)`,
      )
      .one().bytes;
  }

  /** Deletes a checkpoint; the ones before it keep their trees. Returns the stored bytes freed. */
  delete(id: number): number {
    if (!this.exists(id)) throw new VfsError("ENOENT", "/workspace", `no checkpoint ${id}`);
    return this.ws.transaction(() => {
      const prev = this.previous(id);
      if (prev !== null) {
        this.sql.exec(`UPDATE cp_delta SET cp = ? WHERE cp = ? AND path NOT IN (SELECT path FROM cp_delta WHERE cp = ?)`, prev, id, prev);
      }
      this.ws.stageReleases(`SELECT blob FROM cp_delta WHERE cp = ?`, id);
      this.sql.exec(`DELETE FROM cp_delta WHERE cp = ?`, id);
      this.sql.exec(`DELETE FROM cp_checkpoints WHERE id = ?`, id);
      const freed = this.ws.applyReleases();
      this.sql.exec(`INSERT INTO cp_stats (key, value) VALUES ('freed_bytes', ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value`, freed);
      return freed;
    });
  }

  /** Stored bytes freed by deleting checkpoints since the session began. */
  freedTotal(): number {
    return this.sql.exec<{ value: number }>(`SELECT value FROM cp_stats WHERE key = 'freed_bytes'`).toArray()[0]?.value ?? 0;
  }

  /**
   * Checkpoint `id`'s whole tree, in path order, as a cursor (rows are read as they are used,
   * so a fork of a big tree never holds it all). The stored roots are included.
   */
  tree(id: number): Iterable<TreeRow> {
    if (!this.exists(id)) throw new VfsError("ENOENT", "/workspace", `no checkpoint ${id}`);
    return this.sql.exec<TreeRow>(
      `SELECT ${ROW_COLUMNS} FROM vfs_nodes n WHERE NOT EXISTS (SELECT 1 FROM cp_delta d WHERE d.path = n.path AND d.cp >= ?1)
       UNION ALL
       SELECT ${ROW_COLUMNS} FROM cp_delta d WHERE d.cp >= ?1 AND d.present = 1 AND d.cp = (${savedAt("?1")})
       ORDER BY path`,
      id,
    ) as unknown as Iterable<TreeRow>;
  }

  /** Up to `limit` rows of checkpoint `id`'s tree after path `after`, in path order (a fork reads it page by page). */
  treePage(id: number, after: string, limit: number): TreeRow[] {
    if (!this.exists(id)) throw new VfsError("ENOENT", "/workspace", `checkpoint ${id} was deleted while it was being read`);
    return this.sql
      .exec<TreeRow>(
        `SELECT * FROM (
           SELECT ${ROW_COLUMNS} FROM vfs_nodes n WHERE n.path > ?2 AND NOT EXISTS (SELECT 1 FROM cp_delta d WHERE d.path = n.path AND d.cp >= ?1)
           UNION ALL
           SELECT ${ROW_COLUMNS} FROM cp_delta d WHERE d.path > ?2 AND d.cp >= ?1 AND d.present = 1 AND d.cp = (${savedAt("?1")}))
         ORDER BY path LIMIT ?3`,
        id,
        after,
        limit,
      )
      .toArray();
  }

  /**
   * Paths that differ between checkpoint `from` and checkpoint `to` (null: the live tree), in
   * path order. Only paths changed after the older one are looked at.
   */
  changes(from: number, to: number | null): Change[] {
    for (const id of [from, to]) if (id !== null && !this.exists(id)) throw new VfsError("ENOENT", "/workspace", `no checkpoint ${id}`);
    const forward = to === null || from <= to;
    const lo = forward ? from : to!;
    const hi = forward ? to : from;
    const cols = (t: string) =>
      ROW_COLUMNS.split(", ")
        .map((c) => `${t}.${c} AS ${t}_${c}`)
        .join(", ");
    const rows = this.sql
      .exec(
        `WITH c AS (SELECT path, MIN(cp) AS acp FROM cp_delta WHERE cp >= ?1 AND cp < ?2 GROUP BY path),
              l AS (SELECT path, MIN(cp) AS bcp FROM cp_delta WHERE cp >= ?2 AND path IN (SELECT path FROM c) GROUP BY path),
              x AS (
                SELECT c.path AS path, a.present AS a_present, ${cols("a")},
                       CASE WHEN l.bcp IS NOT NULL THEN b.present ELSE n.path IS NOT NULL END AS b_present,
                       ${ROW_COLUMNS.split(", ")
                         .map((col) => `CASE WHEN l.bcp IS NOT NULL THEN b.${col} ELSE n.${col} END AS b_${col}`)
                         .join(", ")}
                  FROM c
                  JOIN cp_delta a ON a.path = c.path AND a.cp = c.acp
                  LEFT JOIN l ON l.path = c.path
                  LEFT JOIN cp_delta b ON b.path = c.path AND b.cp = l.bcp
                  LEFT JOIN vfs_nodes n ON n.path = c.path)
         -- Rows equal on both sides (a path changed and changed back, or rewritten alike) drop out here.
         SELECT * FROM x
          WHERE NOT (a_present = 0 AND b_present = 0)
            AND NOT (a_present = 1 AND b_present = 1 AND a_kind = b_kind AND a_size = b_size AND a_mtime = b_mtime
                     AND a_atime IS b_atime AND a_mode IS b_mode AND a_blob IS b_blob AND a_target IS b_target)
          ORDER BY path`,
        lo,
        hi ?? Number.MAX_SAFE_INTEGER,
      )
      .toArray();
    const pick = (r: Record<string, SqlStorageValue>, t: string): TreeRow => Object.fromEntries(ROW_COLUMNS.split(", ").map((c) => [c, r[`${t}_${c}`]])) as TreeRow;
    const out: Change[] = [];
    for (const r of rows) {
      const older = r["a_present"] === 1 ? pick(r, "a") : null;
      const newer = r["b_present"] === 1 ? pick(r, "b") : null;
      if (older === null && newer === null) continue;
      if (older !== null && newer !== null && sameRow(older, newer)) continue;
      const path = r["path"] as string;
      out.push(forward ? { path, before: older, after: newer } : { path, before: newer, after: older });
    }
    return out;
  }

  /**
   * Puts the workspace (or only `paths`, absolute, with their subtrees) back as checkpoint `id`
   * had it, in one transaction. A checkpoint is taken first, so the restore can be undone;
   * null when nothing differed (nothing was written).
   */
  restore(id: number, paths?: string[]): { undo: CheckpointInfo | null; changed: number } {
    if (!this.exists(id)) throw new VfsError("ENOENT", "/workspace", `no checkpoint ${id}`);
    return this.ws.transaction(() => {
      const filter: string[] = [];
      const params: SqlStorageValue[] = [id];
      const ancestors = new Set<string>();
      for (const p of paths ?? []) {
        filter.push(`d.path = ? OR (d.path >= ? AND d.path < ?)`);
        params.push(p, `${p}/`, `${p}0`);
        for (let a = parentOf(p); a && !STORED_ROOTS.includes(a); a = parentOf(a)) ancestors.add(a);
      }
      if (ancestors.size > 0) {
        // A missing (or no longer directory) parent comes back too, else the path would hang in the air.
        filter.push(`(d.path IN (${[...ancestors].map(() => "?").join(", ")}) AND d.present = 1 AND d.kind = ${KIND_DIR}
          AND NOT EXISTS (SELECT 1 FROM vfs_nodes n WHERE n.path = d.path AND n.kind = ${KIND_DIR}))`);
        params.push(...ancestors);
      }
      this.sql.exec(
        `INSERT INTO cp_scratch (present, ${ROW_COLUMNS}) SELECT d.present, ${ROW_COLUMNS.split(", ")
          .map((c) => `d.${c}`)
          .join(", ")}
           FROM cp_delta d WHERE d.cp >= ?1 AND d.cp = (${savedAt("?1")}) ${filter.length ? `AND (${filter.join(" OR ")})` : ""}`,
        ...params,
      );
      // What is already as it was needs no write.
      this.sql.exec(
        `DELETE FROM cp_scratch WHERE (present = 0 AND NOT EXISTS (SELECT 1 FROM vfs_nodes n WHERE n.path = cp_scratch.path))
            OR (present = 1 AND EXISTS (SELECT 1 FROM vfs_nodes n WHERE n.path = cp_scratch.path AND n.kind = cp_scratch.kind
                AND n.size = cp_scratch.size AND n.mtime = cp_scratch.mtime AND n.atime IS cp_scratch.atime AND n.mode IS cp_scratch.mode
                AND n.blob IS cp_scratch.blob AND n.target IS cp_scratch.target))`,
      );
      const changed = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM cp_scratch`).one().n;
      if (changed === 0) return { undo: null, changed: 0 };
      const undo = this.create(`before restore to checkpoint ${id}`, "restore");
      this.ws.retainBlobs(`SELECT blob FROM cp_scratch WHERE present = 1`);
      this.ws.stageReleases(`SELECT n.blob FROM vfs_nodes n JOIN cp_scratch s ON s.path = n.path`);
      this.sql.exec(`DELETE FROM vfs_nodes WHERE path IN (SELECT path FROM cp_scratch)`);
      faultPoint("restore-applied");
      this.sql.exec(`INSERT INTO vfs_nodes (${ROW_COLUMNS}) SELECT ${ROW_COLUMNS} FROM cp_scratch WHERE present = 1`);
      this.ws.applyReleases();
      this.sql.exec(`DELETE FROM cp_scratch`);
      this.ws.invalidate();
      const u = this.ws.usage();
      if (u.bytes > this.ws.quotas.maxBytes || u.files > this.ws.quotas.maxFiles) {
        throw new VfsError("EDQUOT", "/workspace", `the restored workspace would pass its quota (${u.bytes} bytes, ${u.files} files); delete files first`);
      }
      return { undo, changed };
    });
  }

  /**
   * Deletes automatic checkpoints past the retention rule, then more (oldest first) while
   * history holds more than the rule's byte cap. Named checkpoints stay until deleted.
   * `linked`: checkpoint ids the last `rule.calls` calls link to.
   */
  prune(rule: RetentionRule, linked: Set<number>, opts: { checkBytes?: boolean } = {}): { deleted: number[]; freedBytes: number } {
    const now = this.clock();
    const all = this.sql.exec<CpRow>(`SELECT id, label, created, kind, files, size FROM cp_checkpoints ORDER BY id DESC`).toArray();
    const keep = new Set<number>();
    const hours = new Set<number>();
    for (const c of all) {
      if (c.kind === "manual" || linked.has(c.id)) keep.add(c.id);
      const hour = Math.floor(c.created / 3_600_000);
      if (c.kind !== "manual" && now - c.created < rule.hours * 3_600_000 && !hours.has(hour)) {
        hours.add(hour);
        keep.add(c.id);
      }
    }
    let kept = 0;
    const deleted: number[] = [];
    let freedBytes = 0;
    for (const c of all) {
      const over = c.kind !== "manual" && ++kept > MAX_CHECKPOINTS;
      if (keep.has(c.id) && !over) continue;
      freedBytes += this.delete(c.id);
      deleted.push(c.id);
    }
    // Over the byte cap: the oldest unnamed ones go first, even those the rule kept.
    const unnamed = all.filter((c) => c.kind !== "manual" && !deleted.includes(c.id)).reverse();
    while (opts.checkBytes !== false && unnamed.length > 0 && this.historyBytes() > rule.maxHistoryBytes) {
      const c = unnamed.shift()!;
      freedBytes += this.delete(c.id);
      deleted.push(c.id);
    }
    return { deleted, freedBytes };
  }
}
