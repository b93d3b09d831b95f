import { z } from "zod";
import { formatValidationError } from "../lib/validation";
import { LIMITS } from "../limits";

/**
 * The live terminal's record and wire format. A person types a line; it runs through the
 * session's shell tool exactly as an agent's call would (policy, log, limits), and what it
 * prints goes to every open terminal of the session as it is produced. The recent output is
 * kept in the session's SQLite, so a terminal that connects later (or after eviction) sees it.
 */
const TERMINAL_SCHEMA = `CREATE TABLE IF NOT EXISTS terminal_output (id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)`;

/** Output kept for replay: the newest this many pieces, each at most PIECE_CHARS (so about 1 MiB). */
export const KEPT_PIECES = 256;
export const PIECE_CHARS = 4096;
/** Longest line a person may type. */
const MAX_LINE_CHARS = LIMITS.terminalLineChars;

const clientMessage = z.object({
  type: z.literal("run").describe("Run one command line"),
  command: z.string().min(1).max(MAX_LINE_CHARS).describe("The line typed, as bash reads it"),
});
export type ClientMessage = z.infer<typeof clientMessage>;

/** What the server sends: `replay` once on connect, then `output` and `exit` per command, `error` for a bad message. */
export type ServerMessage =
  | { type: "replay"; data: string }
  | { type: "output"; stream: "stdin" | "stdout" | "stderr"; data: string }
  | { type: "exit"; exit_code: number | null; success: boolean }
  | { type: "error"; message: string };

export class TerminalRecord {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(TERMINAL_SCHEMA);
  }

  append(text: string): void {
    for (let i = 0; i < text.length; i += PIECE_CHARS) {
      this.sql.exec(`INSERT INTO terminal_output (data) VALUES (?)`, text.slice(i, i + PIECE_CHARS));
    }
    this.sql.exec(`DELETE FROM terminal_output WHERE id <= (SELECT MAX(id) FROM terminal_output) - ?`, KEPT_PIECES);
  }

  recent(): string {
    return this.sql
      .exec<{ data: string }>(`SELECT data FROM terminal_output ORDER BY id`)
      .toArray()
      .map((r) => r.data)
      .join("");
  }
}

/** Parses one WebSocket message, or says what was wrong with it. */
export function parseClientMessage(message: string | ArrayBuffer): { ok: true; value: ClientMessage } | { ok: false; message: string } {
  if (typeof message !== "string") return { ok: false, message: 'Send text messages: JSON {"type": "run", "command": "..."}.' };
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return { ok: false, message: 'The message is not JSON; send {"type": "run", "command": "..."}.' };
  }
  const parsed = clientMessage.safeParse(value);
  if (!parsed.success) return { ok: false, message: `Invalid message: ${formatValidationError(parsed.error)}. Send {"type": "run", "command": "..."}.` };
  return { ok: true, value: parsed.data };
}
