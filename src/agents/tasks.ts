import type { AgentState, SubAgentOutcome } from "./loop";

/**
 * Background sub-agent tasks (spawn), one row each in the session's SQLite. The conversation
 * is saved after every model turn and every tool result, so a run cut off by an eviction
 * resumes from its last saved step.
 */
const TASK_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS subagent_tasks (
     id        TEXT PRIMARY KEY,
     spawner   TEXT NOT NULL,
     label     TEXT NOT NULL,
     status    TEXT NOT NULL,
     spec      TEXT NOT NULL,
     state     TEXT NOT NULL,
     report    TEXT,
     created   INTEGER NOT NULL,
     deadline  INTEGER NOT NULL,
     finished  INTEGER,
     delivered INTEGER NOT NULL DEFAULT 0
   )`,
];

export type TaskStatus = "running" | "done" | "failed" | "timeout";

/** What a background run needs to start or resume. */
export interface TaskSpec {
  prompt: string;
  tools: string[];
  maxTurns: number;
  timeoutSeconds: number;
  /** The persona (system prompt) that replaces the default; the reporting footer is added anyway. */
  system?: string;
}

export interface TaskRecord {
  id: string;
  /** Who spawned it: "" for the session's own caller, else the sub-agent task id. */
  spawner: string;
  label: string;
  status: TaskStatus;
  spec: TaskSpec;
  state: AgentState;
  report: string | null;
  created: number;
  deadline: number;
  finished: number | null;
  delivered: boolean;
}

/** A task as the tasks endpoints and pending messages show it. */
export interface TaskView {
  [field: string]: string | number | boolean | null | string[];
  task: string;
  label: string;
  status: TaskStatus;
  report: string | null;
  tools: string[];
  turns: number;
  tool_calls: number;
  created_at: string;
  deadline_at: string;
  finished_at: string | null;
}

interface TaskRow {
  id: string;
  spawner: string;
  label: string;
  status: string;
  spec: string;
  state: string;
  report: string | null;
  created: number;
  deadline: number;
  finished: number | null;
  delivered: number;
  [key: string]: SqlStorageValue;
}

const fromRow = (r: TaskRow): TaskRecord => ({
  id: r.id,
  spawner: r.spawner,
  label: r.label,
  status: r.status as TaskStatus,
  spec: JSON.parse(r.spec) as TaskSpec,
  state: JSON.parse(r.state) as AgentState,
  report: r.report,
  created: r.created,
  deadline: r.deadline,
  finished: r.finished,
  delivered: r.delivered === 1,
});

export const viewOf = (t: TaskRecord): TaskView => ({
  task: t.id,
  label: t.label,
  status: t.status,
  report: t.report,
  tools: t.spec.tools,
  turns: t.state.turns,
  tool_calls: t.state.toolCalls,
  created_at: new Date(t.created).toISOString(),
  deadline_at: new Date(t.deadline).toISOString(),
  finished_at: t.finished === null ? null : new Date(t.finished).toISOString(),
});

export class TaskStore {
  /**
   * False only when no finished task waits to be delivered. Every call asks (takeUndelivered)
   * and almost always none does; `finish` is the only way one appears, so the question is put
   * to SQLite only after a finish, or once after the object starts.
   */
  private mayHaveUndelivered = true;

  constructor(private readonly sql: SqlStorage) {
    for (const stmt of TASK_SCHEMA) sql.exec(stmt);
  }

  insert(t: { id: string; spawner: string; label: string; spec: TaskSpec; state: AgentState; created: number; deadline: number }): void {
    this.sql.exec(
      `INSERT INTO subagent_tasks (id, spawner, label, status, spec, state, created, deadline) VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
      t.id,
      t.spawner,
      t.label,
      JSON.stringify(t.spec),
      JSON.stringify(t.state),
      t.created,
      t.deadline,
    );
  }

  get(id: string): TaskRecord | null {
    const row = this.sql.exec<TaskRow>(`SELECT * FROM subagent_tasks WHERE id = ?`, id).toArray()[0];
    return row ? fromRow(row) : null;
  }

  list(): TaskRecord[] {
    return this.sql.exec<TaskRow>(`SELECT * FROM subagent_tasks ORDER BY created DESC, id`).toArray().map(fromRow);
  }

  running(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM subagent_tasks WHERE status = 'running'`).one().n;
  }

  saveState(id: string, state: AgentState): void {
    this.sql.exec(`UPDATE subagent_tasks SET state = ? WHERE id = ? AND status = 'running'`, JSON.stringify(state), id);
  }

  finish(id: string, outcome: SubAgentOutcome, status: TaskStatus, now = Date.now()): void {
    this.sql.exec(
      `UPDATE subagent_tasks SET status = ?, report = ?, finished = ?, state = json_set(state, '$.turns', ?, '$.toolCalls', ?) WHERE id = ? AND status = 'running'`,
      status,
      outcome.report,
      now,
      outcome.turns,
      outcome.toolCalls,
      id,
    );
    this.mayHaveUndelivered = true;
  }

  /** Finished tasks of `spawner` not yet delivered, oldest first; marked delivered in the same step. */
  takeUndelivered(spawner: string): TaskRecord[] {
    if (!this.mayHaveUndelivered) return [];
    const rows = this.sql
      .exec<TaskRow>(`SELECT * FROM subagent_tasks WHERE spawner = ? AND status != 'running' AND delivered = 0 ORDER BY finished, id`, spawner)
      .toArray();
    if (rows.length) this.sql.exec(`UPDATE subagent_tasks SET delivered = 1 WHERE spawner = ? AND status != 'running' AND delivered = 0`, spawner);
    // Others' finished tasks (another spawner's) may still wait.
    this.mayHaveUndelivered = this.sql.exec(`SELECT 1 FROM subagent_tasks WHERE status != 'running' AND delivered = 0 LIMIT 1`).toArray().length > 0;
    return rows.map(fromRow);
  }
}
