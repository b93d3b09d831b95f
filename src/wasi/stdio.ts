import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import { ALL_RIGHTS, WorkspaceFilestat, fdstat } from "./fs/filestat";

// Stdio reports FILETYPE_UNKNOWN (what a pipe looks like to WASI): a character device would make
// wasi-libc's isatty() say yes and programs format for a terminal nobody is looking at.
const STREAM_RIGHTS = ALL_RIGHTS & ~BigInt(wasi.RIGHTS_FD_SEEK | wasi.RIGHTS_FD_TELL);

/**
 * fd 0: the bytes the caller gave, then end of file. Without bytes (no stdin at all, or
 * /dev/null) it is a character device that is not a terminal (seekable, as /dev/null is), so
 * programs that look, like rg without a path, know there is nothing piped in.
 */
export class StdinFd extends Fd {
  private pos = 0;
  private readonly data: Uint8Array;
  private readonly nullDevice: boolean;

  constructor(data?: Uint8Array) {
    super();
    this.nullDevice = data === undefined;
    this.data = data ?? new Uint8Array(0);
  }

  private get filetype(): number {
    return this.nullDevice ? wasi.FILETYPE_CHARACTER_DEVICE : wasi.FILETYPE_UNKNOWN;
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(this.filetype, 0, this.nullDevice ? ALL_RIGHTS : STREAM_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: new WorkspaceFilestat(0n, this.filetype, BigInt(this.data.length)) };
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    // A view, not a copy: the shim copies it into the program's memory right away.
    const data = this.data.subarray(this.pos, this.pos + size);
    this.pos += data.length;
    return { ret: wasi.ERRNO_SUCCESS, data };
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
