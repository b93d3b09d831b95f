import type { OutputSink } from "../shell";
import { LIMITS } from "../limits";

/**
 * Most output bytes one streamed call sends as stdout/stderr events. The shell keeps far more
 * (16 MiB) for its own result, which is cut to 30,000 characters anyway; past this the events
 * stop and the final `result` event carries the output as a plain call returns it.
 */
export const MAX_STREAMED_BYTES = LIMITS.streamedBytes;

export type CallEvent = "start" | "stdout" | "stderr" | "status" | "result" | "error";

/**
 * A tool call as Server-Sent Events. The call never waits on the reader: events are queued
 * as they happen, and a reader that goes away (client disconnect) only stops the sending,
 * never the call, which runs to its end in the session object and is logged like any other.
 */
export class CallStream {
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private open = true;
  private readonly encoder = new TextEncoder();

  constructor() {
    this.body = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.controller = c;
      },
      cancel: () => {
        this.open = false;
      },
    });
  }

  send(event: CallEvent, data: unknown): void {
    if (!this.open) return;
    try {
      // JSON.stringify never emits a raw newline, so each event's data is one SSE line.
      this.controller.enqueue(this.encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    } catch {
      // The stream broke under the reader: sending stops, and the shell writing through the
      // sink must never see an error for it.
      this.open = false;
    }
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.controller.close();
  }

  /** The shell's output as stdout/stderr events. */
  outputSink(): OutputSink {
    return textSink((stream, text) => this.send(stream, { data: text }));
  }
}

/**
 * An output sink handing on text, UTF-8 sequences split across writes kept whole, until
 * MAX_STREAMED_BYTES have gone out (shared by streamed calls and the terminal).
 */
export function textSink(send: (stream: "stdout" | "stderr", text: string) => void): OutputSink {
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  let streamed = 0;
  return (stream, chunk) => {
    if (streamed >= MAX_STREAMED_BYTES) return;
    const part = chunk.subarray(0, MAX_STREAMED_BYTES - streamed);
    streamed += part.length;
    const text = decoders[stream].decode(part, { stream: true });
    if (text) send(stream, text);
  };
}
