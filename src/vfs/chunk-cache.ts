/**
 * Recently read file chunks, kept in the Durable Object's memory so that a file read again
 * (`grep` then `sort` then `wc` over the same log) costs a copy instead of a SQL read.
 *
 * Keys are (blob, chunk index). A committed blob never changes (a rewrite builds a new blob and
 * blob ids are never reused), so an entry can only go stale if the blob is dropped or a
 * transaction that created it rolls back; the workspace tells the cache about both.
 * Least recently used entries go first once the byte budget is passed.
 */
export class ChunkCache {
  private readonly entries = new Map<string, Uint8Array>();
  private bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get(blob: number, idx: number): Uint8Array | undefined {
    const key = `${blob}:${idx}`;
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry as most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  put(blob: number, idx: number, data: Uint8Array): void {
    if (data.length > this.budgetBytes) return;
    const key = `${blob}:${idx}`;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.length;
    }
    this.entries.set(key, data);
    this.bytes += data.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }

  dropBlob(blob: number): void {
    const prefix = `${blob}:`;
    for (const [k, v] of this.entries) {
      if (!k.startsWith(prefix)) continue;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/**
 * Frees the memory behind `bytes` now, by detaching its buffer (ArrayBuffer.prototype.transfer),
 * rather than whenever V8 next collects: SQLite's row buffers live outside the JS heap, so V8
 * does not hurry, and a 200 MB sequential read grew workerd by 200 MB and spent a third of its
 * CPU on fresh pages (docs/performance.md). Only for arrays nobody else holds: the array (and
 * every view of its buffer) reads as empty afterwards. An array that views part of a larger
 * buffer is left alone.
 */
export function releaseBytes(bytes: Uint8Array): void {
  const buf = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset !== 0 || bytes.byteLength !== buf.byteLength || typeof buf.transfer !== "function") return;
  buf.transfer(0);
}
