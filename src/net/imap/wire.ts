import { connect } from "cloudflare:sockets";
import type { ImapTls } from "./config";
import { ImapError } from "./errors";
import { LIMITS } from "../../limits";

/** One server response: its text, with each `{n}` literal's bytes taken out, in order. */
export interface ImapResponse {
  text: string;
  literals: Uint8Array[];
}

export interface TaggedResult {
  untagged: ImapResponse[];
  text: string;
}

/** A command argument sent as a synchronizing literal (bytes a quoted string cannot carry). */
export class Literal {
  constructor(readonly bytes: Uint8Array) {}
}

/**
 * A line longer than this is not IMAP we asked for (a `* SEARCH` line of a 500,000-message
 * mailbox still fits); a literal larger than `maxLiteral` neither.
 */
const MAX_LINE = LIMITS.imapLineBytes;
const CRLF = new Uint8Array([13, 10]);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * An IMAP connection over `cloudflare:sockets`: reads lines and `{n}` literals from a byte
 * buffer, sends tagged commands and collects their untagged responses.
 */
export class ImapWire {
  /** Bytes read and not yet consumed are `data[0, len)`; `data` grows by doubling. */
  private data = new Uint8Array(16 * 1024);
  private len = 0;
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private tags = 0;
  private closed = false;

  private constructor(
    private socket: Socket,
    private readonly maxLiteral: number,
  ) {
    this.reader = socket.readable.getReader();
    this.writer = socket.writable.getWriter();
  }

  static async open(host: string, port: number, tls: ImapTls, maxLiteral: number): Promise<ImapWire> {
    const secureTransport = tls === "on" ? "on" : tls === "starttls" ? "starttls" : "off";
    let socket: Socket;
    try {
      socket = connect({ hostname: host, port }, { secureTransport, allowHalfOpen: false });
      await socket.opened;
    } catch (e) {
      throw connectError(host, port, tls, e);
    }
    return new ImapWire(socket, maxLiteral);
  }

  /** Upgrades a `starttls` connection after the server's OK to STARTTLS. */
  upgrade(host: string): void {
    this.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.socket.startTls({ expectedServerHostname: host });
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
    this.len = 0;
  }

  /** The server's first line, which must be `* OK` (or `* PREAUTH`). */
  async greeting(): Promise<ImapResponse> {
    return this.readResponse();
  }

  /**
   * Sends `tag parts...` and reads until the tagged answer; NO and BAD become errors whose
   * text the caller words (`onRefused`). Literals wait for the server's `+` before their bytes.
   */
  async command(parts: (string | Literal)[], onRefused: (status: "NO" | "BAD", text: string) => ImapError): Promise<TaggedResult> {
    const tag = `T${++this.tags}`;
    let pending = `${tag} `;
    for (const p of parts) {
      if (typeof p === "string") {
        pending += p;
        continue;
      }
      await this.write(encoder.encode(`${pending}{${p.bytes.length}}\r\n`));
      pending = "";
      const cont = await this.readResponse();
      if (!cont.text.startsWith("+")) throw onRefused("BAD", cont.text);
      await this.write(p.bytes);
    }
    await this.write(encoder.encode(`${pending}\r\n`));
    const untagged: ImapResponse[] = [];
    for (;;) {
      const r = await this.readResponse();
      if (r.text.startsWith(`${tag} `)) {
        const m = /^\S+ (OK|NO|BAD)\b ?(.*)$/i.exec(r.text);
        if (!m) throw new ImapError("protocol", `The IMAP server sent an answer this client cannot read: ${r.text.slice(0, 200)}`);
        const status = m[1]!.toUpperCase();
        if (status !== "OK") throw onRefused(status as "NO" | "BAD", m[2] ?? "");
        return { untagged, text: m[2] ?? "" };
      }
      if (r.text.startsWith("* BYE")) throw new ImapError("protocol", `The IMAP server closed the session: ${r.text.slice(6, 200)}`);
      untagged.push(r);
    }
  }

  /** Sends LOGOUT without waiting long for the answer, then closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.write(encoder.encode(`T${++this.tags} LOGOUT\r\n`));
    } catch {
      // The connection is going away either way.
    }
    try {
      await this.socket.close();
    } catch {
      // Already closed by the server or by a timeout.
    }
  }

  /** Closes at once (timeouts): every pending read then fails. */
  abort(): void {
    this.closed = true;
    this.socket.close().catch(() => {});
  }

  private async write(bytes: Uint8Array): Promise<void> {
    await this.writer.write(bytes);
  }

  private async readResponse(): Promise<ImapResponse> {
    let text = "";
    const literals: Uint8Array[] = [];
    for (;;) {
      const line = decoder.decode(await this.readLine());
      const lit = /\{(\d+)\+?\}$/.exec(line);
      if (!lit) return { text: text + line, literals };
      const n = Number(lit[1]);
      if (n > this.maxLiteral) throw new ImapError("protocol", `The IMAP server sent a literal of ${n} bytes, more than the ${this.maxLiteral} this client reads.`);
      text += line;
      literals.push(await this.readBytes(n));
    }
  }

  private async readLine(): Promise<Uint8Array> {
    // Where the search for CRLF resumes after more bytes arrive, so a long line is scanned once.
    let from = 0;
    for (;;) {
      const at = indexOfCrlf(this.data, from, this.len);
      if (at >= 0) {
        const line = this.take(at);
        this.take(CRLF.length);
        return line;
      }
      if (this.len > MAX_LINE) throw new ImapError("protocol", "The IMAP server sent a line longer than 4 MiB; narrow the query (e.g. add SINCE) and try again.");
      from = Math.max(0, this.len - 1);
      await this.fill();
    }
  }

  private async readBytes(n: number): Promise<Uint8Array> {
    while (this.len < n) await this.fill();
    return this.take(n);
  }

  /** The first `n` unconsumed bytes, copied out; the rest moves to the front. */
  private take(n: number): Uint8Array {
    const out = this.data.slice(0, n);
    this.data.copyWithin(0, n, this.len);
    this.len -= n;
    return out;
  }

  private async fill(): Promise<void> {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await this.reader.read();
    } catch (e) {
      throw new ImapError("connect", `The connection to the IMAP server failed while reading: ${reason(e)}`);
    }
    if (chunk.done) throw new ImapError("connect", "The IMAP server closed the connection unexpectedly.");
    const need = this.len + chunk.value.length;
    if (need > this.data.length) {
      const grown = new Uint8Array(Math.max(need, this.data.length * 2));
      grown.set(this.data.subarray(0, this.len));
      this.data = grown;
    }
    this.data.set(chunk.value, this.len);
    this.len = need;
  }
}

function indexOfCrlf(b: Uint8Array, from: number, end: number): number {
  for (let i = from; i + 1 < end; i++) if (b[i] === 13 && b[i + 1] === 10) return i;
  return -1;
}

function reason(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 200);
}

function connectError(host: string, port: number, tls: ImapTls, e: unknown): ImapError {
  const why = reason(e);
  if (/tls|ssl|handshake|certificate/i.test(why)) {
    return new ImapError(
      "tls",
      `The TLS handshake with the IMAP server ${host}:${port} failed (${why}). The operator's TOOLSHED_IMAP_TLS=${tls} may not match the server.`,
    );
  }
  // workerd reports a failed implicit-TLS handshake as a failed connection, so say both.
  const hint =
    tls === "on"
      ? ` If the server is up, the TLS handshake may have failed: TOOLSHED_IMAP_TLS=on expects implicit TLS (usually port 993); a plain or STARTTLS server needs starttls.`
      : "";
  return new ImapError(
    "connect",
    `Could not connect to the IMAP server ${host}:${port} (${why}). The server may be down or unreachable; try again later or ask the operator.${hint}`,
  );
}
