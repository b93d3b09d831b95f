import { DurableObject } from "cloudflare:workers";
import { LIMITS } from "../src/limits";

/** Most sessions one listing returns. */
export const MAX_LISTED = LIMITS.listedSessions;

/**
 * The index of one tenant's sessions (named by the tenant), so the inspector can list them:
 * a session object knows only itself. Sessions are added when created and removed when
 * deleted; sessions created before this index existed are not in it.
 */
export class TenantDO extends DurableObject<Env> {
  private ready = false;

  private sql(): SqlStorage {
    const sql = this.ctx.storage.sql;
    if (!this.ready) {
      sql.exec(`CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, created INTEGER NOT NULL)`);
      this.ready = true;
    }
    return sql;
  }

  async add(id: string, created: number): Promise<void> {
    this.sql().exec(`INSERT OR IGNORE INTO sessions (id, created) VALUES (?, ?)`, id, created);
  }

  async remove(id: string): Promise<void> {
    this.sql().exec(`DELETE FROM sessions WHERE id = ?`, id);
  }

  /** Session ids, newest first. */
  async list(limit: number): Promise<string[]> {
    return this.sql()
      .exec<{ id: string }>(`SELECT id FROM sessions ORDER BY created DESC, id LIMIT ?`, Math.min(limit, MAX_LISTED))
      .toArray()
      .map((r) => r.id);
  }
}
