import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import { EpipeError, type ByteWriter, type SharedReader } from "../shell/host";
import { BytesReader, EMPTY, InStream } from "../shell/interp/streams";
import type { BorrowingWriter } from "./fs/context";
import { ALL_RIGHTS, WorkspaceFilestat, fdstat } from "./fs/filestat";

// Stdio reports FILETYPE_UNKNOWN (what a pipe looks like to WASI): a character device would make
// wasi-libc's isatty() say yes and programs format for a terminal nobody is looking at.
const STREAM_RIGHTS = ALL_RIGHTS & ~BigInt(wasi.RIGHTS_FD_SEEK | wasi.RIGHTS_FD_TELL);

/**
 * fd 0: reads take from the caller's stream only the bytes the program asks for, as read(2) on
 * a shared open file description does, so what the program leaves stays for the next command
 * (`while read x; do cat /dev/null; done` keeps the loop's input). A run without JSPI gets a
 * settled source only; a streaming run reads the unsettled part through `readAsync`.
 * Without a source (no stdin at all, or /dev/null) it is a character device that is not a
 * terminal (seekable, as /dev/null is), so programs that look, like rg without a path, know
 * there is nothing piped in.
 */
export class StdinFd extends Fd {
  readonly source: SharedReader;
  private readonly nullDevice: boolean;

  constructor(source?: SharedReader | Uint8Array) {
    super();
    this.nullDevice = source === undefined || (!(source instanceof Uint8Array) && source.isNull === true);
    this.source = source instanceof Uint8Array ? new InStream(new BytesReader(source)) : (source ?? new InStream(null));
  }

  // A file opened with `<` is a regular file to fstat, with its size, as on Linux: programs
  // size their output by it (`wc < f` pads its counts to the digits of the file's size).
  private get filetype(): number {
    if (this.nullDevice) return wasi.FILETYPE_CHARACTER_DEVICE;
    return this.source.seekable ? wasi.FILETYPE_REGULAR_FILE : wasi.FILETYPE_UNKNOWN;
  }

  private size(): bigint {
    const file = this.source.seekable;
    if (!file) return 0n;
    const at = file.seek(0, 1) ?? 0;
    const end = file.seek(0, 2) ?? 0;
    file.seek(at, 0);
    return BigInt(end);
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    const rights = this.nullDevice || this.source.seekable ? ALL_RIGHTS : STREAM_RIGHTS;
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(this.filetype, 0, rights) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    const filestat = new WorkspaceFilestat(0n, this.filetype, this.size());
    // A file opened with `<` keeps its modification time (gzip stores it in the header).
    filestat.mtim = this.source.seekable?.mtimeNs ?? 0n;
    return { ret: wasi.ERRNO_SUCCESS, filestat };
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    // A view, not a copy: the shim copies it into the program's memory right away.
    const data = this.source.tryRead(size);
    if (data === undefined) return { ret: wasi.ERRNO_AGAIN, data: EMPTY };
    return { ret: wasi.ERRNO_SUCCESS, data: data ?? EMPTY };
  }

  /** The streaming read: waits for the writer when the pipe is empty. */
  async readAsync(size: number): Promise<Uint8Array> {
    return (await this.source.read(size)) ?? EMPTY;
  }

  override fd_seek(offset: bigint, whence: number): { ret: number; offset: bigint } {
    const file = this.source.seekable;
    if (!file) return { ret: this.nullDevice ? wasi.ERRNO_SUCCESS : wasi.ERRNO_SPIPE, offset: 0n };
    if (whence !== wasi.WHENCE_SET && whence !== wasi.WHENCE_CUR && whence !== wasi.WHENCE_END) return { ret: wasi.ERRNO_INVAL, offset: 0n };
    const at = file.seek(Number(offset), whence as 0 | 1 | 2);
    return at === null ? { ret: wasi.ERRNO_INVAL, offset: 0n } : { ret: wasi.ERRNO_SUCCESS, offset: BigInt(at) };
  }

  override fd_tell(): { ret: number; offset: bigint } {
    return this.fd_seek(0n, wasi.WHENCE_CUR);
  }
}

/**
 * fd 1 / fd 2 of a streaming run: each write goes straight to the caller's writer (a pipe
 * waits under backpressure). A reader that went away is EPIPE for the program (the toolbox
 * exits 141, as a process killed by SIGPIPE); any other failure of the writer (an output
 * limit) is kept in `failure`: the runner ends the run and the caller raises it.
 */
export class StreamOutFd extends Fd {
  failure: unknown;

  constructor(private readonly sink: ByteWriter) {
    super();
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_UNKNOWN, wasi.FDFLAGS_APPEND, STREAM_RIGHTS) };
  }

  override fd_write(): { ret: number; nwritten: number } {
    // Only reached through a path the streaming import does not cover; no silent loss.
    return { ret: wasi.ERRNO_AGAIN, nwritten: 0 };
  }

  override fd_seek(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SPIPE, offset: 0n };
  }

  /** Writes `data` whole; answers an errno (EIO with `failure` set when the writer failed). */
  async writeAsync(data: Uint8Array): Promise<number> {
    try {
      await this.sink.write(data);
      return wasi.ERRNO_SUCCESS;
    } catch (e) {
      return this.failed(e);
    }
  }

  /** True when writes never wait (a file, a collector): `writeNow` then takes them, views included. */
  get synchronous(): boolean {
    return this.sink.writeSync !== undefined;
  }

  /** `writeAsync` for a synchronous writer; `data` may be a view of the program's memory. */
  writeNow(data: Uint8Array): number {
    try {
      this.sink.writeSync!(data);
      return wasi.ERRNO_SUCCESS;
    } catch (e) {
      return this.failed(e);
    }
  }

  private failed(e: unknown): number {
    if (e instanceof EpipeError) return wasi.ERRNO_PIPE;
    this.failure ??= e;
    return wasi.ERRNO_IO;
  }
}

/**
 * fd 1 of a synchronous run whose writer never waits (a file, the tool's own output): each
 * write goes straight through, so output larger than memory never piles up in the host. A
 * reader that went away is EPIPE; any other failure of the writer (a limit, a full quota) is
 * kept in `failure` and ends the run at once through the error `stop` makes (the caller then
 * raises `failure`), as for a streaming run.
 */
export class SyncOutFd extends Fd implements BorrowingWriter {
  failure: unknown;
  /** A writer's writeSync copies what it keeps (ByteWriter). */
  readonly borrowsWrites = true;

  constructor(
    private readonly sink: (data: Uint8Array) => void,
    private readonly stop: (failure: unknown) => Error,
  ) {
    super();
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_UNKNOWN, wasi.FDFLAGS_APPEND, STREAM_RIGHTS) };
  }

  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    try {
      this.sink(data);
      return { ret: wasi.ERRNO_SUCCESS, nwritten: data.length };
    } catch (e) {
      if (e instanceof EpipeError) return { ret: wasi.ERRNO_PIPE, nwritten: 0 };
      this.failure = e;
      throw this.stop(e);
    }
  }

  override fd_seek(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SPIPE, offset: 0n };
  }
}

/**
 * fd 1 / fd 2: collects what the program writes, up to `limit` bytes. Past the limit writes fail
 * with EPIPE, as if the reader had gone away, so well-behaved programs stop producing output
 * (the toolbox exits 141 quietly) instead of spinning on a stream nobody keeps.
 */
export class OutputFd extends Fd {
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;
  overflowed = false;

  constructor(readonly limit: number) {
    super();
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_UNKNOWN, wasi.FDFLAGS_APPEND, STREAM_RIGHTS) };
  }

  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    const room = this.limit - this.bytes;
    if (room <= 0 && data.length > 0) {
      this.overflowed = true;
      return { ret: wasi.ERRNO_PIPE, nwritten: 0 };
    }
    const take = Math.min(room, data.length);
    if (take < data.length) this.overflowed = true;
    this.chunks.push(take === data.length ? data : data.slice(0, take));
    this.bytes += take;
    return { ret: wasi.ERRNO_SUCCESS, nwritten: take };
  }

  override fd_seek(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SPIPE, offset: 0n };
  }

  /** Appends host text (a trap message) even past the limit: the reason must be readable. */
  note(text: string): void {
    const bytes = new TextEncoder().encode(text);
    this.chunks.push(bytes);
    this.bytes += bytes.length;
  }

  contents(): Uint8Array {
    const out = new Uint8Array(this.chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
