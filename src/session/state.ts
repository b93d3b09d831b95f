import type { Denial } from "../policy/denied";
import { ROOT } from "../vfs/paths";
import type { CreateOptions } from "./types";

/** The session's own tables, beside the workspace's: settings and the tool-call log. */
const SESSION_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS session_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tool_calls (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     tool        TEXT NOT NULL,
     started     INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL,
     outcome     TEXT NOT NULL,
     rule        TEXT,
     detail      TEXT,
     task        TEXT
   )`,
  // Files read or written in this session, for profiles with a read-first-then-edit guard.
  `CREATE TABLE IF NOT EXISTS read_paths (path TEXT PRIMARY KEY)`,
];

export interface SessionMeta {
  id: string;
  tenant: string;
  profile: string;
  /** The tools this session serves, fixed at creation; undefined for sessions made before the list existed. */
  tools: string[] | undefined;
  cwd: string;
  status: string;
  env: Record<string, string>;
  /** The session's own URL host rules; they only narrow the operator's. */
  urlRules: { allow?: string[]; deny?: string[] };
  /** Remote MCP servers attached at creation (names the operator configured); their tools are deferred. */
  mcpServers: string[];
  createdAt: number;
  lastUsedAt: number;
}

type Outcome = "ok" | "error" | "denied";

export interface ToolCallRecord {
  id: number;
  tool: string;
  started: number;
  durationMs: number;
  outcome: Outcome;
  denied?: Denial;
  detail?: string;
  /** The sub-agent task that made the call (delegate); absent for the session's own calls. */
  task?: string;
  /** The checkpoint taken before the call (src/checkpoints/); absent for calls that change no file. */
  checkpoint?: number;
}

/** Key-value settings of one session, kept in SQLite so they survive eviction and restarts. */
export class SessionStore {
  private hasCheckpointColumn = false;
  /**
   * The settings' rows as last read or written. Every call reads the settings, and a statement
   * costs; while this object lives it is their only writer (a new session, a fork and a reset
   * each get a new one), so after the first read they are answered from here.
   */
  private rows: Map<string, string> | null = null;

  constructor(private readonly sql: SqlStorage) {}

  static exists(sql: SqlStorage): boolean {
    return (
      sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_meta'`).toArray().length > 0 &&
      sql.exec(`SELECT 1 FROM session_meta WHERE key = 'id'`).toArray().length > 0
    );
  }

  static initialize(sql: SqlStorage): void {
    for (const stmt of SESSION_SCHEMA) sql.exec(stmt);
    // Logs made before sub-agents existed lack the task column.
    const columns = sql.exec<{ name: string }>(`PRAGMA table_info(tool_calls)`).toArray();
    if (!columns.some((c) => c.name === "task")) sql.exec(`ALTER TABLE tool_calls ADD COLUMN task TEXT`);
  }

  /** Makes the tables and writes a new session's settings (creation and fork share it). */
  static create(sql: SqlStorage, opts: CreateOptions): SessionStore {
    SessionStore.initialize(sql);
    const store = new SessionStore(sql);
    const now = Date.now();
    store.set("id", opts.id);
    store.set("tenant", opts.tenant);
    store.set("profile", opts.profile);
    store.set("tools", opts.tools);
    store.set("cwd", opts.cwd ?? ROOT);
    store.set("status", "");
    store.set("env", opts.env ?? {});
    store.set("urlRules", opts.urlRules ?? {});
    store.set("mcpServers", opts.mcpServers ?? []);
    store.set("createdAt", now);
    store.set("lastUsedAt", now);
    return store;
  }

  read(): SessionMeta {
    let m = this.rows;
    if (!m) {
      m = new Map<string, string>();
      for (const r of this.sql.exec<{ key: string; value: string }>(`SELECT key, value FROM session_meta`)) m.set(r.key, r.value);
      this.rows = m;
    }
    // Parsed afresh each time: a caller may change what it was given.
    return {
      id: m.get("id") ?? "",
      tenant: m.get("tenant") ?? "",
      profile: m.get("profile") ?? "toolshed",
      tools: m.has("tools") ? (JSON.parse(m.get("tools")!) as string[]) : undefined,
      cwd: m.get("cwd") ?? "/workspace",
      status: m.get("status") ?? "",
      env: JSON.parse(m.get("env") ?? "{}") as Record<string, string>,
      urlRules: JSON.parse(m.get("urlRules") ?? "{}") as SessionMeta["urlRules"],
      mcpServers: JSON.parse(m.get("mcpServers") ?? "[]") as string[],
      createdAt: Number(m.get("createdAt") ?? 0),
      lastUsedAt: Number(m.get("lastUsedAt") ?? 0),
    };
  }

  set(key: keyof SessionMeta, value: string | number | Record<string, string> | string[] | SessionMeta["urlRules"]): void {
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    this.sql.exec(`INSERT OR REPLACE INTO session_meta (key, value) VALUES (?, ?)`, key, text);
    this.rows?.set(key, text);
  }

  logCall(rec: Omit<ToolCallRecord, "id">): void {
    const values: SqlStorageValue[] = [
      rec.tool,
      rec.started,
      rec.durationMs,
      rec.outcome,
      rec.denied ? JSON.stringify(rec.denied) : null,
      rec.detail ?? null,
      rec.task ?? null,
    ];
    // The checkpoint column comes with checkpoints (src/checkpoints/schema.ts), which a linked call implies.
    const linked = rec.checkpoint !== undefined;
    if (linked) values.push(rec.checkpoint!);
    this.sql.exec(
      `INSERT INTO tool_calls (tool, started, duration_ms, outcome, rule, detail, task${linked ? ", checkpoint" : ""}) VALUES (?, ?, ?, ?, ?, ?, ?${linked ? ", ?" : ""})`,
      ...values,
    );
  }

  calls(limit: number): ToolCallRecord[] {
    return this.sql
      .exec<{
        id: number;
        tool: string;
        started: number;
        duration_ms: number;
        outcome: string;
        rule: string | null;
        detail: string | null;
        task: string | null;
        checkpoint?: number | null;
      }>(`SELECT * FROM tool_calls ORDER BY id DESC LIMIT ?`, limit)
      .toArray()
      .map((r) => ({
        id: r.id,
        tool: r.tool,
        started: r.started,
        durationMs: r.duration_ms,
        outcome: r.outcome as Outcome,
        ...(r.rule ? { denied: JSON.parse(r.rule) as Denial } : {}),
        ...(r.detail ? { detail: r.detail } : {}),
        ...(r.task ? { task: r.task } : {}),
        ...(typeof r.checkpoint === "number" ? { checkpoint: r.checkpoint } : {}),
      }));
  }

  wasRead(path: string): boolean {
    return this.sql.exec(`SELECT 1 FROM read_paths WHERE path = ?`, path).toArray().length > 0;
  }

  markRead(path: string): void {
    this.sql.exec(`INSERT OR IGNORE INTO read_paths (path) VALUES (?)`, path);
  }

  /** A value the browser tool keeps (src/tools/browser/session.ts), or null. */
  browserValue<T>(key: "browser" | "browser_refs"): T | null {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM session_meta WHERE key = ?`, key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  setBrowserValue(key: "browser" | "browser_refs", value: unknown): void {
    if (value === null) this.sql.exec(`DELETE FROM session_meta WHERE key = ?`, key);
    else this.sql.exec(`INSERT OR REPLACE INTO session_meta (key, value) VALUES (?, ?)`, key, JSON.stringify(value));
  }

  /** The checkpoints the last `n` calls link to, newest call first (null for a call with none). */
  linkedCheckpoints(n: number): (number | null)[] {
    // Asked after every file-changing call: once the column is there it stays, so it is looked up until then only.
    this.hasCheckpointColumn ||= this.sql
      .exec<{ name: string }>(`PRAGMA table_info(tool_calls)`)
      .toArray()
      .some((c) => c.name === "checkpoint");
    if (!this.hasCheckpointColumn) return [];
    return this.sql
      .exec<{ checkpoint: number | null }>(`SELECT checkpoint FROM tool_calls ORDER BY id DESC LIMIT ?`, n)
      .toArray()
      .map((r) => r.checkpoint);
  }

  callCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM tool_calls`).one().n;
  }
}
