import { initializeCheckpoints } from "../checkpoints/schema";
import { Checkpoints, type CheckpointInfo } from "../checkpoints/store";
import { DEFAULT_RETENTION, parseRetention, type RetentionRule } from "../checkpoints/retention";
import { renderDiff, type DiffReport } from "../checkpoints/diff/render";
import { exportTree } from "../checkpoints/stream";
import { PolicyDenied } from "../policy/denied";
import { isVfsError } from "../vfs/errors";
import type { GuardedFs } from "../policy/guarded-fs";
import { ROOT, relativeToRoot } from "../vfs/paths";

/**
 * The session object's side of checkpoints (durable-objects/session.ts calls in here): the
 * operations behind the HTTP routes, RPC methods and the `checkpoint` tool, the automatic
 * checkpoint before each file-changing call, and retention.
 */

/** Canonical tools that change files: each call of one is preceded by a checkpoint. */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set(["bash", "exec", "write_file", "edit_file"]);

export type CheckpointRequest =
  | { op: "create"; label?: string }
  | { op: "list" }
  | { op: "delete"; id: number }
  | { op: "restore"; id: number; paths?: string[] }
  | { op: "diff"; from: number; to: number | null }
  | { op: "undo"; calls: number };

export type CheckpointAnswer =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: "checkpoint_not_found" | "invalid_arguments" | "fs" | "denied"; code?: string; message: string };

/** What the operations need of a session. */
export interface CheckpointSession {
  fs: GuardedFs;
  cwd: string;
  /** Checkpoint ids the last `n` calls link to, newest call first. */
  linkedCheckpoints(n: number): (number | null)[];
}

const cache = new WeakMap<object, Checkpoints>();

/** The session's checkpoints, tables created on first use. */
export function checkpointsOf(fs: GuardedFs): Checkpoints {
  let c = cache.get(fs.ws);
  if (!c) {
    initializeCheckpoints({ sql: fs.ws.sql, transactionSync: (fn) => fs.ws.transaction(fn) });
    c = new Checkpoints(fs.ws);
    cache.set(fs.ws, c);
  }
  return c;
}

/**
 * The operator's rule. A malformed setting must not break every call (nor lose history), so the
 * defaults apply and the listing says why (`history.config_error`), as does the Worker's log.
 */
export function retentionOf(env: { TOOLSHED_CHECKPOINTS?: string }): RetentionRule & { error?: string } {
  const r = parseRetention(env.TOOLSHED_CHECKPOINTS);
  if (!("error" in r)) return r;
  console.error(r.error);
  return { ...DEFAULT_RETENTION, error: r.error };
}

/** Takes (or reuses) the checkpoint before a file-changing call; null when automatic checkpoints are off. */
export function beforeCall(fs: GuardedFs, rule: RetentionRule): number | null {
  return rule.auto ? checkpointsOf(fs).beforeCall() : null;
}

/**
 * Measuring history's bytes reads every saved row, so after calls it is done at most this often
 * per session instance (and on every list); the rule's counts are applied after every call.
 */
const BYTE_CHECK_INTERVAL_MS = 60_000;
const lastByteCheck = new WeakMap<object, number>();

/** Deletes what the retention rule no longer keeps; cheap when nothing is due. */
export function applyRetention(s: CheckpointSession, rule: RetentionRule, force = false): { deleted: number[]; freedBytes: number } {
  const linked = new Set(s.linkedCheckpoints(rule.calls).filter((c): c is number => c !== null));
  const now = Date.now();
  const checkBytes = force || now - (lastByteCheck.get(s.fs.ws) ?? 0) >= BYTE_CHECK_INTERVAL_MS;
  if (checkBytes) lastByteCheck.set(s.fs.ws, now);
  return checkpointsOf(s.fs).prune(rule, linked, { checkBytes });
}

const notFound = (id: number): CheckpointAnswer => ({
  ok: false,
  error: "checkpoint_not_found",
  message: `This session has no checkpoint ${id}; list them with GET /v1/sessions/:id/checkpoints.`,
});

export async function runCheckpointOp(s: CheckpointSession, req: CheckpointRequest, rule: RetentionRule & { error?: string }): Promise<CheckpointAnswer> {
  const cps = checkpointsOf(s.fs);
  const known = (id: number | null) => id === null || cps.exists(id);
  try {
    switch (req.op) {
      case "create":
        return { ok: true, value: { ...cps.create(req.label ?? null, "manual") } };
      case "list":
        applyRetention(s, rule, true);
        return {
          ok: true,
          value: {
            checkpoints: cps.list().map(view),
            history: { bytes: cps.historyBytes(), max_bytes: rule.maxHistoryBytes, freed_bytes: cps.freedTotal(), ...(rule.error ? { config_error: rule.error } : {}) },
          },
        };
      case "delete":
        if (!known(req.id)) return notFound(req.id);
        return { ok: true, value: { deleted: req.id, freed_bytes: cps.delete(req.id) } };
      case "restore": {
        if (!known(req.id)) return notFound(req.id);
        const paths = req.paths?.map((p) => s.fs.resolve(s.cwd, p, false));
        if (paths?.includes(ROOT)) paths.length = 0;
        const r = cps.restore(req.id, paths?.length ? paths : undefined);
        return { ok: true, value: { restored: req.id, changed: r.changed, undo: r.undo ? view(r.undo) : null, paths: paths?.map(relativeToRoot) ?? null } };
      }
      case "diff": {
        if (!known(req.from)) return notFound(req.from);
        if (!known(req.to)) return notFound(req.to!);
        const report: DiffReport = await renderDiff(
          cps.changes(req.from, req.to),
          (blob, size) => s.fs.ws.readBlob(blob, size, 0, size),
          (path) => readable(s.fs, path),
        );
        return { ok: true, value: { from: req.from, to: req.to ?? "now", ...report } };
      }
      case "undo": {
        const linked = s.linkedCheckpoints(req.calls).filter((c): c is number => c !== null && cps.exists(c));
        if (linked.length === 0)
          return {
            ok: true,
            value: { restored: null, changed: 0, undo: null, message: "None of the last calls changed files (or their checkpoints are gone): nothing to undo." },
          };
        const target = Math.min(...linked);
        const r = cps.restore(target);
        return { ok: true, value: { restored: target, changed: r.changed, undo: r.undo ? view(r.undo) : null } };
      }
    }
  } catch (e) {
    if (e instanceof PolicyDenied) return { ok: false, error: "denied", message: e.message };
    if (isVfsError(e)) return { ok: false, error: "fs", code: e.code, message: e.message.slice(e.path.length + 2) };
    throw e;
  }
}

/** The public shape of a checkpoint (the API's snake_case). */
function view(c: CheckpointInfo): Record<string, unknown> {
  return { id: c.id, label: c.label, created_at: c.created_at, kind: c.kind, files: c.files, size: c.size, bytes: c.bytes };
}

/** Sensitive files (the policy's read rule) are named in a diff, their contents never shown. */
function readable(fs: GuardedFs, path: string): boolean {
  try {
    fs.rules.checkRead(path);
    return true;
  } catch {
    return false;
  }
}

/** A checkpoint's tree as a stream for a fork: the given checkpoint, or one taken now. */
export function exportForFork(fs: GuardedFs, id: number | undefined): { ok: true; body: ReadableStream<Uint8Array>; checkpoint: number } | CheckpointAnswer {
  const cps = checkpointsOf(fs);
  if (id !== undefined && !cps.exists(id)) return notFound(id);
  const cp = id ?? cps.create("fork", "manual").id;
  return { ok: true, body: exportTree(fs.ws, cps, cp), checkpoint: cp };
}
