import { Fd, wasi } from "@bjorn3/browser_wasi_shim";
import { ALL_RIGHTS, WorkspaceFilestat, fdstat } from "./filestat";
import { LIMITS } from "../../limits";

/**
 * `/dev/toolshed`: how a program asks the session for what WASI cannot give it (a command run
 * through the session's shell, a fetch through the URL policy). Python's `subprocess`,
 * `os.system`, `os.popen` and `urllib.request` use it (src/wasi/python/host-module.ts), and sed's
 * e command and s///e flag (wasm/toolbox/src/cmd/sed/shell.rs).
 *
 * One open is one request: the program writes a JSON request, then reads the JSON answer to its
 * end and closes. The first read hands the request to the host; the run's fd_read import
 * suspends the program (JSPI) until the answer is there (runner.ts). What the host may do is the
 * caller's business (src/tools/shell/program-host.ts); this device only moves bytes.
 */

/** The host's side: a request's bytes in, an answer's bytes out (never throws for bad input). */
export type HostCall = (request: Uint8Array) => Promise<Uint8Array>;

export const HOST_DEVICE = "toolshed";

/** Bytes one request may hold (a command's stdin, a POST body, base64-encoded inside JSON). */
const MAX_REQUEST_BYTES = LIMITS.programHostRequestBytes;

const INO = (1n << 40n) + 50n;
const enc = new TextEncoder();

/** An answer in the device's JSON, for what the host side cannot do. */
const hostError = (message: string): Uint8Array => enc.encode(JSON.stringify({ error: message, unsupported: true }));

export class HostDeviceFd extends Fd {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private answer: Uint8Array | null = null;
  private pos = 0;

  /** `canWait`: the run can suspend on a read (JSPI); without it the answer says so at once. */
  constructor(private readonly canWait: boolean) {
    super();
  }

  static stat(): WorkspaceFilestat {
    return new WorkspaceFilestat(INO, wasi.FILETYPE_CHARACTER_DEVICE, 0n);
  }

  /** Whether the next read must wait for the host (a request is written, no answer yet). */
  get waiting(): boolean {
    return this.answer === null && this.size > 0;
  }

  /** Asks the host for the answer to what was written; resolves once it is there to read. */
  async ask(host: HostCall): Promise<void> {
    const request = new Uint8Array(this.size);
    let off = 0;
    for (const p of this.parts) request.set(p, off), (off += p.length);
    this.parts.length = 0;
    this.answer = new Uint8Array(0); // no second request from this open, whatever happens
    try {
      this.answer = await host(request);
    } catch (e) {
      this.answer = hostError(`the session could not answer: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    // Seekable rights, so wasi-libc's isatty() says no (as for /dev/null).
    return { ret: wasi.ERRNO_SUCCESS, fdstat: fdstat(wasi.FILETYPE_CHARACTER_DEVICE, 0, ALL_RIGHTS) };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: HostDeviceFd.stat() };
  }

  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    if (this.answer !== null) return { ret: wasi.ERRNO_INVAL, nwritten: 0 };
    if (this.size + data.length > MAX_REQUEST_BYTES) return { ret: wasi.ERRNO_FBIG, nwritten: 0 };
    this.parts.push(data.slice());
    this.size += data.length;
    return { ret: wasi.ERRNO_SUCCESS, nwritten: data.length };
  }

  override fd_read(size: number): { ret: number; data: Uint8Array } {
    if (this.waiting) {
      // Only reached when the run cannot suspend (the import answers first when it can).
      this.parts.length = 0;
      this.answer = hostError(
        this.canWait
          ? "the request was read before it was sent"
          : "this runtime cannot pause a program for the session (WebAssembly JSPI is missing), so commands and network requests from a program (Python's subprocess and urllib, sed's e command) are not supported here; run them from bash instead",
      );
    }
    const from = this.answer ?? new Uint8Array(0);
    const data = from.subarray(this.pos, this.pos + size);
    this.pos += data.length;
    return { ret: wasi.ERRNO_SUCCESS, data };
  }

  override fd_seek(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SPIPE, offset: 0n };
  }

  override fd_tell(): { ret: number; offset: bigint } {
    return { ret: wasi.ERRNO_SUCCESS, offset: BigInt(this.pos) };
  }
}
