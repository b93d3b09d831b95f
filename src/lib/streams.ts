/**
 * Reads a stream to its end, dropping the bytes. A refused body that was partly read is
 * drained, never cancelled: a cancelled request body (or an RPC-carried stream cancelled by
 * its receiver) breaks the connection under workerd ("Network connection lost", then
 * "503 Your worker restarted mid-request" for the next request on it).
 */
export async function drain(reader: PieceReader): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    /* the sender is gone: nothing left to drain */
  }
}

/** What `drain` and a body's consumer need of a reader. */
export interface PieceReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
}

/**
 * A reader that takes up to `size` bytes per read where the stream allows it. workerd hands a
 * byte stream (a request body, a stream carried over RPC) to a default reader in 4 KiB pieces,
 * and every piece costs a promise turn; a bring-your-own-buffer read takes whatever has arrived
 * (never waiting for more). A stream made in JavaScript has no BYOB mode and keeps its pieces.
 * `reuse`: the consumer copies each piece before the next read, so one buffer serves them all.
 */
export function pieceReader(stream: ReadableStream<Uint8Array>, size: number, reuse = false): PieceReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    return stream.getReader();
  }
  let buffer: ArrayBuffer | null = null;
  return {
    async read() {
      const r = await byob.read(new Uint8Array(buffer ?? new ArrayBuffer(size)));
      if (reuse && r.value) buffer = r.value.buffer as ArrayBuffer;
      return r.done ? { done: true, value: undefined } : { done: false, value: r.value! };
    },
  };
}
