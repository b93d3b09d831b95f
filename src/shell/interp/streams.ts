// Byte streams used between shell commands: buffered readers that allow pushback
// (so `read` can take one line and leave the rest for the next command), bounded pipes
// (so `yes | head -1` stops at once) and collecting sinks.
import { ByteReader, ByteWriter, EpipeError } from "../host";
import { concat } from "../bytes";

export const EMPTY = new Uint8Array(0);
/**
 * A source whose next bytes can be asked for without waiting: `tryRead` answers a chunk, null at
 * end of input, or undefined when the bytes are not there yet (a pipe whose writer is still
 * running). `settled` says it will never answer undefined again.
 */
export interface SyncSource extends ByteReader {
  tryRead(max: number): Uint8Array | null | undefined;
  readonly settled: boolean;
}

const isSync = (r: ByteReader): r is SyncSource => "tryRead" in r;

/**
 * An open file description for reading: every command that reads the same fd (a builtin,
 * a function, a child shell, a WASI program) takes bytes from this one object, so what one
 * command leaves is there for the next. Bytes read but not used go back with `unread`.
 */
export class InStream implements ByteReader {
  private pending: Uint8Array[] = [];
  readonly isNull: boolean;
  constructor(
    private src: ByteReader | null,
    nullDevice = src === null,
  ) {
    this.isNull = nullDevice;
  }

  /** Up to `max` bytes (a whole chunk by default); null at end of input. */
  async read(max = Infinity): Promise<Uint8Array | null> {
    if (this.pending.length) return this.cut(this.pending.shift()!, max);
    if (!this.src) return null;
    const c = await this.src.read();
    if (c === null) this.endOfSource();
    return c && this.cut(c, max);
  }

  /** As `read` without waiting; undefined when the next bytes are not there yet. */
  tryRead(max: number): Uint8Array | null | undefined {
    if (this.pending.length) return this.cut(this.pending.shift()!, max);
    if (!this.src) return null;
    if (!isSync(this.src)) return undefined;
    const c = this.src.tryRead(max);
    if (c === null) this.endOfSource();
    return c && this.cut(c, max);
  }

  /** True when reads never have to wait (a file, a here-document, a finished pipe, nothing). */
  get settled(): boolean {
    return !this.src || (isSync(this.src) && this.src.settled);
  }

  /** The file under a `< file`, when this stream can seek like one; null for pipes. */
  get seekable(): BytesReader | null {
    return this.src instanceof BytesReader && this.src.seekable ? this.src : null;
  }

  unread(b: Uint8Array): void {
    if (!b.length) return;
    // A file takes bytes back by moving its offset (they are the ones just read from it).
    const file = this.seekable;
    if (file && !this.pending.length) file.back(b.length);
    else this.pending.unshift(b);
  }

  private cut(c: Uint8Array, max: number): Uint8Array {
    if (c.length <= max) return c;
    this.unread(c.subarray(max));
    return c.subarray(0, max);
  }

  private endOfSource(): void {
    // A file stays: a seek may move its offset back.
    if (!this.seekable) this.src = null;
  }

  /** Reads up to and including `delim` (a byte); null at EOF with nothing read. */
  async readUntil(delim: number): Promise<{ data: Uint8Array; hitDelim: boolean } | null> {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const c = await this.read();
      if (c === null) break;
      const k = delim < 0 ? -1 : c.indexOf(delim);
      if (k >= 0) {
        parts.push(c.subarray(0, k + 1));
        total += k + 1;
        this.unread(c.subarray(k + 1));
        return { data: concat(parts, total), hitDelim: true };
      }
      parts.push(c);
      total += c.length;
    }
    if (total === 0) return null;
    return { data: concat(parts, total), hitDelim: false };
  }
  async readAll(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const c = await this.read();
      if (c === null) break;
      parts.push(c);
      total += c.length;
    }
    return concat(parts, total);
  }
}

/**
 * Bytes known in full: a here-document, a here-string, or (seekable) the contents of a file
 * opened with `<`, whose offset a program may move with lseek as on a regular file.
 */
export class BytesReader implements SyncSource {
  private pos = 0;
  readonly settled = true;
  constructor(
    private data: Uint8Array | null,
    readonly seekable = false,
    /** The file's modification time (ns), for fstat on a descriptor opened with `<`. */
    readonly mtimeNs = 0n,
  ) {}
  async read(): Promise<Uint8Array | null> {
    return this.tryRead(Infinity);
  }
  tryRead(max: number): Uint8Array | null {
    const d = this.data;
    if (!d || this.pos >= d.length) return null;
    const c = d.subarray(this.pos, Math.min(d.length, this.pos + max));
    this.pos += c.length;
    return c;
  }
  back(n: number): void {
    this.pos = Math.max(0, this.pos - n);
  }
  /** lseek: the new offset from `whence` (0 set, 1 current, 2 end); null when it would be negative. */
  seek(offset: number, whence: 0 | 1 | 2): number | null {
    const base = whence === 0 ? 0 : whence === 1 ? this.pos : (this.data?.length ?? 0);
    const at = base + offset;
    if (at < 0) return null;
    this.pos = at;
    return at;
  }
}

/** Collects output, failing with `onOverflow` once `max` bytes would be exceeded. */
export class Collector implements ByteWriter {
  parts: Uint8Array[] = [];
  size = 0;
  /** `sink` sees each kept chunk as it is written (a streamed call shows output while the script runs). */
  constructor(
    private max: number,
    private onOverflow: () => Error,
    private sink?: (chunk: Uint8Array) => void,
  ) {}
  async write(data: Uint8Array): Promise<void> {
    this.writeSync(data);
  }
  writeSync(data: Uint8Array): void {
    if (this.size + data.length > this.max) {
      const room = this.max - this.size;
      if (room > 0) this.keep(data.slice(0, room));
      this.size = this.max;
      throw this.onOverflow();
    }
    this.keep(data.slice());
    this.size += data.length;
  }
  private keep(chunk: Uint8Array): void {
    this.parts.push(chunk);
    this.sink?.(chunk);
  }
  bytes(): Uint8Array {
    return concat(this.parts, this.size);
  }
}

export class NullWriter implements ByteWriter {
  async write(): Promise<void> {}
  writeSync(): void {}
}

/** Bounded in-memory pipe. Writers block when full; a closed reader makes writes fail. */
export class Pipe {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private writerClosed = false;
  private readerClosed = false;
  private wakeReader: (() => void) | null = null;
  private wakeWriters: (() => void)[] = [];
  private markUsed!: () => void;
  /** Settles once the writer has written something or closed. */
  readonly used = new Promise<void>((r) => (this.markUsed = r));
  constructor(private capacity: number) {}

  readonly writer: ByteWriter & { close(): void } = {
    write: async (data: Uint8Array) => {
      let off = 0;
      while (off < data.length) {
        if (this.readerClosed) throw new EpipeError();
        if (this.size >= this.capacity) {
          await new Promise<void>((r) => this.wakeWriters.push(r));
          continue;
        }
        const n = Math.min(data.length - off, this.capacity - this.size);
        this.chunks.push(data.slice(off, off + n));
        this.size += n;
        off += n;
        this.markUsed();
        this.notifyReader();
      }
    },
    close: () => {
      this.writerClosed = true;
      this.markUsed();
      this.reader.settled = true;
      this.notifyReader();
    },
  };

  readonly reader: SyncSource & { close(): void; settled: boolean } = {
    read: async () => {
      for (;;) {
        const c = this.take();
        if (c !== undefined) return c;
        await new Promise<void>((r) => (this.wakeReader = r));
      }
    },
    tryRead: () => this.take(),
    settled: false,
    close: () => {
      this.readerClosed = true;
      this.reader.settled = true;
      this.chunks = [];
      this.size = 0;
      this.notifyWriters();
    },
  };

  private take(): Uint8Array | null | undefined {
    if (this.chunks.length) {
      const c = this.chunks.shift()!;
      this.size -= c.length;
      this.notifyWriters();
      return c;
    }
    return this.writerClosed || this.readerClosed ? null : undefined;
  }

  private notifyReader() {
    const w = this.wakeReader;
    this.wakeReader = null;
    if (w) w();
  }
  private notifyWriters() {
    const ws = this.wakeWriters;
    this.wakeWriters = [];
    for (const w of ws) w();
  }
}
