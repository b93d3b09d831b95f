import { LIMITS } from "../limits";
import { VfsError } from "../vfs/errors";
import { faultPoint } from "../vfs/faults";
import { STORED_ROOTS } from "../vfs/paths";
import { CHUNK_SIZE, KIND_FILE } from "../vfs/schema";
import type { SqlHost, Workspace } from "../vfs/workspace";
import type { Checkpoints, TreeRow } from "./store";
import { ROW_COLUMNS } from "./schema";

/**
 * A checkpoint's tree as a byte stream, for a fork. The stream is a run of pieces of about
 * LIMITS.forkPieceBytes, each one message between the two objects:
 *
 *   [u32 rows length][u32 chunks length][u32 content length]
 *   [rows: JSON array of rows, each an array in ROW_COLUMNS order]
 *   [chunks: JSON array of [blob, idx, offset, length]]
 *   [content: the chunks' bytes, one after the other]
 *
 * Stored chunk rows are copied as they are (sparse chunks stay absent, blob ids are kept, a blob
 * several rows share goes once), so the receiving side writes a piece with three SQL statements
 * whatever the number of files in it: statements, not bytes, are what a fork's time followed.
 * Rows are read a page at a time by path (a checkpoint's tree does not move while the live one
 * changes) and content a piece at a time, so neither side ever holds more than one piece and one
 * page of rows.
 */

/** Rows per page read from the checkpoint's tree (metadata only: a page is small). */
const PAGE_ROWS = 1024;
/** Bytes gathered into one piece of the stream (see LIMITS.forkPieceBytes). */
const PIECE_BYTES = LIMITS.forkPieceBytes;
/**
 * A piece's content is at most one chunk past PIECE_BYTES; its JSON parts are counted against the
 * same budget in characters, which UTF-8 may make up to three times as many bytes. A bigger
 * part is no stream of ours.
 */
const MAX_CONTENT = PIECE_BYTES + CHUNK_SIZE;
const MAX_JSON = 3 * MAX_CONTENT;
/** What a chunk's entry in the chunks JSON costs the budget, beside its bytes. */
const CHUNK_ENTRY_CHARS = 48;
const COLUMNS = ROW_COLUMNS.split(", ");
/** Where `blob` sits in a row's array. */
const BLOB_AT = COLUMNS.indexOf("blob");

export function exportTree(ws: Workspace, cps: Checkpoints, id: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let after = "";
  let page: TreeRow[] = [];
  let at = 0;
  let ended = false;
  const nextRow = (): TreeRow | undefined => {
    if (at >= page.length && !ended) {
      page = cps.treePage(id, after, PAGE_ROWS);
      at = 0;
      if (page.length < PAGE_ROWS) ended = true;
    }
    const row = page[at++];
    if (row) after = row.path;
    return row;
  };
  /** Blobs whose content is queued or sent: a blob several rows share is sent once. */
  const queued = new Set<number>();
  /** Content still to send: chunk indexes [idx, end) of a blob (by its file's size: stored chunks lie inside it). */
  const pending: { blob: number; idx: number; end: number; size: number }[] = [];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      // Everything below runs without a pause, so while the checkpoint exists its blobs are
      // alive: a checkpoint deleted mid-fork fails the fork instead of sending missing content.
      if (!cps.exists(id)) throw new VfsError("ENOENT", "/workspace", `checkpoint ${id} was deleted while it was being read`);
      const rows: string[] = [];
      const ranges: [number, number, number][] = [];
      let budget = PIECE_BYTES;
      while (budget > 0) {
        const p = pending[0];
        if (p) {
          const from = p.idx;
          while (p.idx < p.end && budget > 0) budget -= CHUNK_ENTRY_CHARS + Math.min(CHUNK_SIZE, p.size - p.idx++ * CHUNK_SIZE);
          ranges.push([p.blob, from, p.idx]);
          if (p.idx >= p.end) pending.shift();
          continue;
        }
        const row = nextRow();
        if (!row) break;
        const json = JSON.stringify(COLUMNS.map((c) => row[c]!));
        rows.push(json);
        budget -= json.length + 1;
        if (row.kind === KIND_FILE && row.blob !== null && row.size > 0 && !queued.has(row.blob)) {
          queued.add(row.blob);
          pending.push({ blob: row.blob, idx: 0, end: Math.ceil(row.size / CHUNK_SIZE), size: row.size });
        }
      }
      if (rows.length === 0 && ranges.length === 0) {
        controller.close();
        return;
      }
      // One query for the piece's content; CROSS JOIN keeps the list outside, each range an index seek.
      const chunks =
        ranges.length === 0
          ? []
          : ws.sql
              .exec<{ blob: number; idx: number; data: ArrayBuffer }>(
                `SELECT c.blob, c.idx, c.data FROM json_each(?1) j CROSS JOIN vfs_chunks c
                  WHERE c.blob = j.value ->> 0 AND c.idx >= j.value ->> 1 AND c.idx < j.value ->> 2`,
                JSON.stringify(ranges),
              )
              .toArray();
      const described: number[][] = [];
      let size = 0;
      for (const c of chunks) {
        described.push([c.blob, c.idx, size, c.data.byteLength]);
        size += c.data.byteLength;
      }
      const rowText = enc.encode(`[${rows.join(",")}]`);
      const chunkText = enc.encode(JSON.stringify(described));
      const piece = new Uint8Array(12 + rowText.length + chunkText.length + size);
      const view = new DataView(piece.buffer);
      view.setUint32(0, rowText.length);
      view.setUint32(4, chunkText.length);
      view.setUint32(8, size);
      piece.set(rowText, 12);
      piece.set(chunkText, 12 + rowText.length);
      let offset = 12 + rowText.length + chunkText.length;
      for (const c of chunks) {
        piece.set(new Uint8Array(c.data), offset);
        offset += c.data.byteLength;
      }
      controller.enqueue(piece);
    },
  });
}

/** Reads exact byte counts from a stream of arbitrary pieces. */
class ByteReader {
  private buf: Uint8Array = new Uint8Array(0);
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Exactly `n` bytes (a view when one read holds them all), or null at the end of the stream. */
  async exact(n: number): Promise<Uint8Array | null> {
    if (this.buf.length === 0) {
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buf = value;
    }
    if (this.buf.length >= n) {
      const out = this.buf.subarray(0, n);
      this.buf = this.buf.subarray(n);
      return out;
    }
    const out = new Uint8Array(n);
    let have = 0;
    while (have < n) {
      if (this.buf.length === 0) {
        const { done, value } = await this.reader.read();
        if (done) fail("the fork's stream ended in the middle of a piece");
        this.buf = value!;
      }
      const part = this.buf.subarray(0, n - have);
      out.set(part, have);
      have += part.length;
      this.buf = this.buf.subarray(part.length);
    }
    return out;
  }
}

const fail = (message: string): never => {
  throw new Error(message);
};

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** The rows of a piece, checked for shape (the SQL that stages them reads the same text). */
function parseRows(text: string): SqlStorageValue[][] {
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) fail("the fork's stream holds a malformed piece");
  for (const r of rows as unknown[]) {
    if (!Array.isArray(r) || r.length !== COLUMNS.length || typeof r[0] !== "string") fail("the fork's stream holds a malformed row");
    const blob = (r as unknown[])[BLOB_AT];
    if (blob !== null && !isId(blob)) fail("the fork's stream holds a row with a malformed blob id");
  }
  return rows as SqlStorageValue[][];
}

/**
 * Writes a streamed tree into an empty workspace. Each piece costs three SQL statements: its
 * rows are staged in `fork_rows` (not the workspace), its blobs created uncommitted (so
 * Workspace.initialize, or the half-fork alarm, drops them with their chunks), its chunks stored
 * as they came. `finish` then installs rows and blobs in one transaction, together with whatever
 * the caller adds, and drops the staging table.
 */
export async function importTree(host: SqlHost, body: ReadableStream<Uint8Array>, maxFiles: number): Promise<(extra: () => void) => void> {
  const sql = host.sql;
  const dec = new TextDecoder();
  sql.exec(`DROP TABLE IF EXISTS fork_rows`);
  sql.exec(
    `CREATE TABLE fork_rows (path TEXT PRIMARY KEY, parent TEXT NOT NULL, kind INTEGER NOT NULL, size INTEGER NOT NULL,
       mtime INTEGER NOT NULL, atime INTEGER, mode INTEGER, blob INTEGER, target TEXT)`,
  );
  const reader = new ByteReader(body.getReader());
  /** Blob ids the rows so far named (chunks may only belong to them). */
  const blobs = new Set<number>();
  let count = 0;
  for (;;) {
    const head = await reader.exact(12);
    if (!head) break;
    const view = new DataView(head.buffer, head.byteOffset, 12);
    const [rowLen, chunkLen, contentLen] = [view.getUint32(0), view.getUint32(4), view.getUint32(8)];
    if (rowLen > MAX_JSON || chunkLen > MAX_JSON || contentLen > MAX_CONTENT) fail("the fork's stream holds an oversized piece");
    const rowText = dec.decode((await reader.exact(rowLen)) ?? fail("the fork's stream ended early"));
    const chunkText = dec.decode((await reader.exact(chunkLen)) ?? fail("the fork's stream ended early"));
    const content = contentLen === 0 ? new Uint8Array(0) : ((await reader.exact(contentLen)) ?? fail("the fork's stream ended inside a piece"));

    const rows = parseRows(rowText);
    count += rows.length;
    if (count > maxFiles + STORED_ROOTS.length) fail("the forked tree has more files than the quota allows");
    if (rows.length > 0) {
      const fresh: number[] = [];
      for (const r of rows) {
        const blob = r[BLOB_AT] as number | null;
        if (blob !== null && !blobs.has(blob)) {
          blobs.add(blob);
          fresh.push(blob);
        }
      }
      sql.exec(`INSERT INTO fork_rows (${ROW_COLUMNS}) SELECT ${COLUMNS.map((_, i) => `value ->> ${i}`).join(", ")} FROM json_each(?)`, rowText);
      if (fresh.length > 0) sql.exec(`INSERT INTO vfs_blobs (id, committed, refs) SELECT value, 0, 0 FROM json_each(?)`, JSON.stringify(fresh));
      faultPoint("fork-row");
    }

    const chunks = JSON.parse(chunkText) as unknown;
    if (!Array.isArray(chunks)) fail("the fork's stream holds a malformed piece");
    let offset = 0;
    for (const c of chunks as unknown[]) {
      if (!Array.isArray(c) || c.length !== 4) fail("the fork's stream holds a malformed chunk");
      const [blob, idx, at, len] = c as number[];
      if (!blobs.has(blob!) || !Number.isSafeInteger(idx) || idx! < 0 || at !== offset || !Number.isSafeInteger(len) || len! < 0 || len! > CHUNK_SIZE) {
        fail("the fork's stream holds a chunk that belongs to no file or lies outside its piece");
      }
      offset += len!;
    }
    if (offset !== contentLen) fail("the fork's stream holds a piece whose content does not match its chunks");
    if ((chunks as unknown[]).length > 0) {
      const bytes = content.byteOffset === 0 && content.byteLength === content.buffer.byteLength ? content.buffer : content.slice().buffer;
      sql.exec(
        `INSERT INTO vfs_chunks (blob, idx, data) SELECT value ->> 0, value ->> 1, substr(?2, (value ->> 2) + 1, value ->> 3) FROM json_each(?1)`,
        chunkText,
        bytes as ArrayBuffer,
      );
      faultPoint("fork-chunk");
    }
  }
  const roots = JSON.stringify(STORED_ROOTS);
  return (extra) =>
    host.transactionSync(() => {
      extra();
      // The stored roots exist already (Workspace.initialize): they take the checkpoint's times and modes.
      sql.exec(
        `UPDATE vfs_nodes SET mtime = f.mtime, atime = f.atime, mode = f.mode FROM fork_rows f
          WHERE f.path = vfs_nodes.path AND f.path IN (SELECT value FROM json_each(?))`,
        roots,
      );
      sql.exec(`INSERT INTO vfs_nodes (${ROW_COLUMNS}) SELECT ${ROW_COLUMNS} FROM fork_rows WHERE path NOT IN (SELECT value FROM json_each(?))`, roots);
      faultPoint("fork-commit");
      sql.exec(
        `UPDATE vfs_blobs SET committed = 1, refs = r.n
           FROM (SELECT blob, COUNT(*) AS n FROM fork_rows WHERE blob IS NOT NULL AND path NOT IN (SELECT value FROM json_each(?)) GROUP BY blob) r
          WHERE vfs_blobs.id = r.blob`,
        roots,
      );
      // A blob only a stored root named (a directory never holds one) has no owner: not kept.
      sql.exec(`DELETE FROM vfs_chunks WHERE blob IN (SELECT id FROM vfs_blobs WHERE committed = 0)`);
      sql.exec(`DELETE FROM vfs_blobs WHERE committed = 0`);
      sql.exec(`DROP TABLE fork_rows`);
    });
}
