import { LIMITS } from "../limits";

const OUTBOX_MAX_FILES = LIMITS.outboxFiles;
const OUTBOX_MAX_BYTES = LIMITS.outboxBytes;
import { VfsError } from "./errors";
import { baseName, relativeToRoot } from "./paths";
import { CHUNK_SIZE } from "./schema";
import type { Workspace } from "./workspace";

const OUTBOX_SCHEMA = `CREATE TABLE IF NOT EXISTS vfs_outbox (
  id      TEXT PRIMARY KEY,
  name    TEXT NOT NULL,
  path    TEXT NOT NULL,
  size    INTEGER NOT NULL,
  blob    INTEGER,
  caption TEXT,
  created INTEGER NOT NULL,
  expires INTEGER NOT NULL
)`;

/** A file the agent sent to the user: a copy of its bytes at the time, kept until it expires. */
export interface OutboxEntry {
  id: string;
  name: string;
  /** Where it came from, relative to /workspace. */
  path: string;
  size: number;
  caption?: string;
  createdAt: number;
  expiresAt: number;
}

/** An outbox entry as the API and send_file show it: times as ISO strings, plus its signed link. */
export interface SentFile extends Omit<OutboxEntry, "createdAt" | "expiresAt"> {
  createdAt: string;
  expiresAt: string;
  url: string;
}

type Row = {
  id: string;
  name: string;
  path: string;
  size: number;
  blob: number | null;
  caption: string | null;
  created: number;
  expires: number;
};

/**
 * The session's outbox, beside the workspace in the same SQLite. Entries hold their own blob,
 * so editing or deleting the workspace file later does not change what the user downloads.
 * Expired entries are dropped (with their bytes) whenever the outbox is used.
 */
export class Outbox {
  constructor(
    private readonly ws: Workspace,
    /** Links are checked against the Worker's clock, so expiry here reads the same clock. */
    private readonly now: () => number = () => Date.now(),
  ) {
    ws.sql.exec(OUTBOX_SCHEMA);
  }

  /** Copies `path` (absolute, already judged by the policy) into the outbox. */
  add(path: string, opts: { caption?: string; ttlSeconds: number }): OutboxEntry {
    const now = this.now();
    this.prune(now);
    const info = this.ws.mustStat(path);
    const held = this.ws.sql.exec<{ n: number; bytes: number }>(`SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM vfs_outbox`).one();
    if (held.n >= OUTBOX_MAX_FILES || held.bytes + info.size > OUTBOX_MAX_BYTES) {
      throw new VfsError("EDQUOT", path, `the outbox is full (${held.n} files, ${held.bytes} bytes); sent files expire after a while`);
    }
    return this.ws.transaction(() => {
      const { blob, size } = this.ws.copyBlob(path);
      const id = [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
      const row: Row = {
        id,
        name: baseName(path),
        path: relativeToRoot(path),
        size,
        blob,
        caption: opts.caption ?? null,
        created: now,
        expires: now + opts.ttlSeconds * 1000,
      };
      this.ws.sql.exec(
        `INSERT INTO vfs_outbox (id, name, path, size, blob, caption, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        row.id,
        row.name,
        row.path,
        row.size,
        row.blob,
        row.caption,
        row.created,
        row.expires,
      );
      return toEntry(row);
    });
  }

  list(): OutboxEntry[] {
    this.prune(this.now());
    return this.ws.sql.exec<Row>(`SELECT * FROM vfs_outbox ORDER BY created DESC, id`).toArray().map(toEntry);
  }

  /** The entry and its bytes, one stored chunk at a time; null when unknown or expired. */
  open(id: string): { entry: OutboxEntry; chunks: Generator<Uint8Array> } | null {
    const row = this.ws.sql.exec<Row>(`SELECT * FROM vfs_outbox WHERE id = ?`, id).toArray()[0];
    if (!row || row.expires <= this.now()) return null;
    const ws = this.ws;
    function* chunks(): Generator<Uint8Array> {
      for (let offset = 0; offset < row!.size; offset += CHUNK_SIZE) {
        yield ws.readBlob(row!.blob, row!.size, offset, Math.min(CHUNK_SIZE, row!.size - offset));
      }
    }
    return { entry: toEntry(row), chunks: chunks() };
  }

  private prune(now: number): void {
    const gone = this.ws.sql.exec<{ id: string; blob: number | null }>(`SELECT id, blob FROM vfs_outbox WHERE expires <= ?`, now).toArray();
    if (gone.length === 0) return;
    this.ws.transaction(() => {
      for (const g of gone) {
        if (g.blob !== null) this.ws.dropBlob(g.blob);
        this.ws.sql.exec(`DELETE FROM vfs_outbox WHERE id = ?`, g.id);
      }
    });
  }
}

function toEntry(r: Row): OutboxEntry {
  return { id: r.id, name: r.name, path: r.path, size: r.size, ...(r.caption ? { caption: r.caption } : {}), createdAt: r.created, expiresAt: r.expires };
}
