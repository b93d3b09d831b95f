/**
 * Reads a stream to its end, dropping the bytes. A refused body that was partly read is
 * drained, never cancelled: a cancelled request body (or an RPC-carried stream cancelled by
 * its receiver) breaks the connection under workerd ("Network connection lost", then
 * "503 Your worker restarted mid-request" for the next request on it).
 */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    /* the sender is gone: nothing left to drain */
  }
}
