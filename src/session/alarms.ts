import { LIMITS } from "../limits";

/**
 * A Durable Object has one alarm; this shares it. Work due later is a row (kind, due time,
 * payload) in the object's SQLite, the alarm is kept at the earliest due row, and each kind
 * has a handler. A feature schedules its own kind (a sub-agent run, a browser idle close, an
 * upload clean-up) without knowing the others.
 *
 * A job stays in the table until its handler returns: while it runs its due time is pushed
 * LEASE_MS ahead, so if the object is evicted or crashes mid-run the alarm fires again then
 * and the handler is called again (handlers must therefore be safe to call twice).
 */

const ALARM_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS alarm_jobs (
     id      TEXT PRIMARY KEY,
     kind    TEXT NOT NULL,
     due     INTEGER NOT NULL,
     payload TEXT NOT NULL
   )`,
];

/** How long a started job may go without finishing before the alarm runs it again. */
export const LEASE_MS = LIMITS.alarmLeaseMs;

export interface AlarmJob {
  id: string;
  kind: string;
  due: number;
  payload: unknown;
}

export type AlarmHandler = (payload: unknown, job: AlarmJob) => Promise<void>;

interface JobRow {
  id: string;
  kind: string;
  due: number;
  payload: string;
  [key: string]: SqlStorageValue;
}

export class AlarmScheduler {
  constructor(private readonly storage: DurableObjectStorage) {
    for (const stmt of ALARM_SCHEMA) storage.sql.exec(stmt);
  }

  /** Schedules (or moves) job `id` of `kind` at `due` (epoch ms). */
  async schedule(kind: string, id: string, due: number, payload: unknown): Promise<void> {
    this.storage.sql.exec(`INSERT OR REPLACE INTO alarm_jobs (id, kind, due, payload) VALUES (?, ?, ?, ?)`, id, kind, due, JSON.stringify(payload));
    await this.rearm();
  }

  async cancel(id: string): Promise<void> {
    this.storage.sql.exec(`DELETE FROM alarm_jobs WHERE id = ?`, id);
    await this.rearm();
  }

  jobs(): AlarmJob[] {
    return this.storage.sql
      .exec<JobRow>(`SELECT id, kind, due, payload FROM alarm_jobs ORDER BY due`)
      .toArray()
      .map((r) => ({ id: r.id, kind: r.kind, due: r.due, payload: JSON.parse(r.payload) as unknown }));
  }

  /**
   * The alarm handler: runs every due job side by side with its kind's handler and waits for
   * them all (an alarm being handled keeps the object alive). A job of an unknown kind is dropped
   * with a log line; a handler that throws keeps its job for the next lease.
   */
  async run(handlers: Readonly<Record<string, AlarmHandler>>, now = Date.now()): Promise<void> {
    const due = this.jobs().filter((j) => j.due <= now);
    for (const j of due) this.storage.sql.exec(`UPDATE alarm_jobs SET due = ? WHERE id = ?`, now + LEASE_MS, j.id);
    await this.rearm();
    await Promise.all(
      due.map(async (job) => {
        const handler = handlers[job.kind];
        if (!handler) {
          console.error(`alarm job ${job.id}: no handler for kind '${job.kind}'; dropped`);
          this.storage.sql.exec(`DELETE FROM alarm_jobs WHERE id = ?`, job.id);
          return;
        }
        try {
          await handler(job.payload, job);
          this.storage.sql.exec(`DELETE FROM alarm_jobs WHERE id = ? AND due = ?`, job.id, now + LEASE_MS);
        } catch (e) {
          console.error(`alarm job ${job.id} (${job.kind}) failed; it runs again after its lease`, e);
        }
      }),
    );
    await this.rearm();
  }

  /** Keeps the one alarm at the earliest job (or none). */
  private async rearm(): Promise<void> {
    const next = this.storage.sql.exec<{ due: number | null }>(`SELECT MIN(due) AS due FROM alarm_jobs`).one().due;
    if (next === null) await this.storage.deleteAlarm();
    else if ((await this.storage.getAlarm()) !== next) await this.storage.setAlarm(next);
  }
}
