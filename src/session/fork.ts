import { FORK_CLEANUP_MS } from "../checkpoints/limits";
import { importTree } from "../checkpoints/stream";
import type { CreateOptions } from "./types";
import { ROOT } from "../vfs/paths";
import { Workspace, type Quotas } from "../vfs/workspace";
import { SessionStore } from "./state";

/**
 * The new session's side of a fork. The tree streams in first (content into uncommitted blobs);
 * the session's settings, rows and blobs then appear in one transaction. Until that commits the
 * object is no session at all (404), and an alarm set at the start erases whatever a cut-off
 * fork left, so a dead fork leaves neither a half tree nor orphaned content.
 */
export async function importFork(storage: DurableObjectStorage, opts: CreateOptions, body: ReadableStream<Uint8Array>, quotas: Quotas): Promise<void> {
  const sql = storage.sql;
  if (SessionStore.exists(sql)) throw new Error("this session already exists; a fork needs a new id");
  await storage.setAlarm(Date.now() + FORK_CLEANUP_MS);
  try {
    Workspace.initialize(storage);
    const finish = await importTree(storage, body, quotas.maxFiles);
    finish(() => {
      SessionStore.create(sql, opts);
    });
    const cwd = opts.cwd ?? ROOT;
    if (sql.exec(`SELECT 1 FROM vfs_nodes WHERE path = ? AND kind = 2`, cwd).toArray().length === 0) new SessionStore(sql).set("cwd", ROOT);
    const usage = sql.exec<{ bytes: number; files: number }>(`SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) AS files FROM vfs_nodes`).one();
    if (usage.bytes > quotas.maxBytes || usage.files > quotas.maxFiles + 3) throw new Error("the forked workspace passes this deployment's quota");
    await storage.deleteAlarm();
  } catch (e) {
    await storage.deleteAll();
    throw e;
  }
}

/** The alarm of an object that is no session: a fork cut off mid-way. Erases it. */
export async function cleanupHalfFork(storage: DurableObjectStorage): Promise<void> {
  if (!SessionStore.exists(storage.sql)) await storage.deleteAll();
}
