import { LIMITS } from "../limits";
import { faultPoint } from "../vfs/faults";
import { STORED_ROOTS } from "../vfs/paths";
import { CHUNK_SIZE, KIND_FILE } from "../vfs/schema";
import type { SqlHost, Workspace } from "../vfs/workspace";
import type { Checkpoints, TreeRow } from "./store";
import { ROW_COLUMNS } from "./schema";

/**
 * A checkpoint's tree as a byte stream, for a fork: frames of [u32 header length][header JSON]
 * followed, for a file, by exactly `size` content bytes, sent in pieces of LIMITS.forkPieceBytes.
 * Rows are read a page at a time by path
 * (a checkpoint's tree does not move while the live one changes) and content a stored chunk at
 * a time, so neither side ever holds more than one piece and one page of rows.
 */

/** Rows per page read from the checkpoint's tree. */
const PAGE_ROWS = 256;
/** Bytes gathered into one piece of the stream (see LIMITS.forkPieceBytes). */
const PIECE_BYTES = LIMITS.forkPieceBytes;

interface Header {
  path: string;
  parent: string;
  kind: number;
  size: number;
  mtime: number;
  atime: number | null;
  mode: number | null;
  target: string | null;
}

export function exportTree(ws: Workspace, cps: Checkpoints, id: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let after = "";
  let page: TreeRow[] = [];
  let content: { blob: number | null; size: number; offset: number } | null = null;
  let ended = false;
  /** The next frame or content chunk, or null at the end of the tree. */
  const next = (): Uint8Array | null => {
    if (content) {
      const len = Math.min(CHUNK_SIZE, content.size - content.offset);
      const bytes = ws.readBlob(content.blob, content.size, content.offset, len);
      content.offset += len;
      if (content.offset >= content.size) content = null;
      return bytes;
    }
    if (page.length === 0 && !ended) {
      page = cps.treePage(id, after, PAGE_ROWS);
      if (page.length < PAGE_ROWS) ended = true;
    }
    const row = page.shift();
    if (!row) return null;
    after = row.path;
    const { blob, ...header } = row;
    const json = enc.encode(JSON.stringify(header));
    const frame = new Uint8Array(4 + json.length);
    new DataView(frame.buffer).setUint32(0, json.length);
    frame.set(json, 4);
    if (row.kind === KIND_FILE && row.size > 0) content = { blob, size: row.size, offset: 0 };
    return frame;
  };
  return new ReadableStream<Uint8Array>({
    // Frames and chunks are gathered into pieces of about PIECE_BYTES: each piece is one message
    // between the two objects, and their count, not the bytes, is what a fork's time follows.
    pull(controller) {
      const parts: Uint8Array[] = [];
      let size = 0;
      while (size < PIECE_BYTES) {
        const part = next();
        if (!part) break;
        parts.push(part);
        size += part.length;
      }
      if (parts.length > 0) controller.enqueue(concat(parts, size));
      if (size < PIECE_BYTES) controller.close();
    },
  });
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads exact byte counts from a stream of arbitrary pieces. */
class ByteReader {
  private buf: Uint8Array = new Uint8Array(0);
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Up to `max` bytes (at least 1), or null at the end of the stream. */
  async some(max: number): Promise<Uint8Array | null> {
    if (this.buf.length === 0) {
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buf = value;
    }
    const out = this.buf.subarray(0, max);
    this.buf = this.buf.subarray(out.length);
    return out;
  }

  async exact(n: number): Promise<Uint8Array | null> {
    const out = new Uint8Array(n);
    let have = 0;
    while (have < n) {
      const piece = await this.some(n - have);
      if (!piece) return have === 0 ? null : fail("the fork's stream ended in the middle of a record");
      out.set(piece, have);
      have += piece.length;
    }
    return out;
  }
}

const fail = (message: string): never => {
  throw new Error(message);
};

/**
 * Writes a streamed tree into an empty workspace. Content goes into uncommitted blobs as it
 * arrives (Workspace.initialize drops such blobs, so a cut-off import leaves no content behind);
 * the rows are kept in memory (metadata only, bounded by the file-count quota) and installed
 * with the blobs committed by `finish`, one transaction, together with whatever the caller adds.
 */
export async function importTree(host: SqlHost, body: ReadableStream<Uint8Array>, maxFiles: number): Promise<(extra: () => void) => void> {
  const sql = host.sql;
  const reader = new ByteReader(body.getReader());
  const rows: (Header & { blob: number | null })[] = [];
  for (;;) {
    const len = await reader.exact(4);
    if (!len) break;
    const headerBytes = (await reader.exact(new DataView(len.buffer).getUint32(0))) ?? fail("the fork's stream ended early");
    const header = JSON.parse(new TextDecoder().decode(headerBytes)) as Header;
    if (rows.length > maxFiles + STORED_ROOTS.length) fail("the forked tree has more files than the quota allows");
    let blob: number | null = null;
    if (header.kind === KIND_FILE && header.size > 0) {
      blob = sql.exec<{ id: number }>(`INSERT INTO vfs_blobs (committed) VALUES (0) RETURNING id`).one().id;
      for (let idx = 0, offset = 0; offset < header.size; idx++) {
        const want = Math.min(CHUNK_SIZE, header.size - offset);
        const data = (await reader.exact(want)) ?? fail("the fork's stream ended inside a file");
        // Zero chunks stay sparse, as ftruncate leaves them.
        if (data.some((b) => b !== 0)) sql.exec(`INSERT INTO vfs_chunks (blob, idx, data) VALUES (?, ?, ?)`, blob, idx, data.buffer as ArrayBuffer);
        offset += want;
        faultPoint("fork-chunk");
      }
    }
    rows.push({ ...header, blob });
  }
  return (extra) =>
    host.transactionSync(() => {
      extra();
      const cols = ROW_COLUMNS.split(", ");
      for (const r of rows) {
        if (STORED_ROOTS.includes(r.path)) {
          sql.exec(`UPDATE vfs_nodes SET mtime = ?, atime = ?, mode = ? WHERE path = ?`, r.mtime, r.atime, r.mode, r.path);
          continue;
        }
        sql.exec(
          `INSERT INTO vfs_nodes (${ROW_COLUMNS}) VALUES (${cols.map(() => "?").join(", ")})`,
          ...cols.map((c) => (r as unknown as Record<string, SqlStorageValue>)[c]!),
        );
        faultPoint("fork-row");
      }
      sql.exec(`UPDATE vfs_blobs SET committed = 1 WHERE committed = 0`);
    });
}
