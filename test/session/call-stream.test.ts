import { expect, it } from "vitest";
import { CallStream, MAX_STREAMED_BYTES } from "../../src/session/call-stream";

async function text(stream: CallStream): Promise<string> {
  return new Response(stream.body).text();
}

it("keeps a UTF-8 sequence whole when a write splits it", async () => {
  const stream = new CallStream();
  const sink = stream.outputSink();
  const bytes = new TextEncoder().encode("é\n");
  sink("stdout", bytes.subarray(0, 1));
  sink("stdout", bytes.subarray(1));
  stream.close();
  expect(await text(stream)).toBe('event: stdout\ndata: {"data":"é\\n"}\n\n');
});

it("streams at most MAX_STREAMED_BYTES of output, then stays quiet", async () => {
  const stream = new CallStream();
  const sink = stream.outputSink();
  sink("stdout", new Uint8Array(MAX_STREAMED_BYTES - 1).fill(0x61));
  sink("stderr", new TextEncoder().encode("bc"));
  sink("stdout", new TextEncoder().encode("d"));
  stream.send("result", { success: true });
  stream.close();
  const blocks = (await text(stream)).split("\n\n").filter(Boolean);
  expect(blocks.map((b) => /^event: (.*)$/m.exec(b)![1])).toEqual(["stdout", "stderr", "result"]);
  expect(blocks[1]).toBe('event: stderr\ndata: {"data":"b"}');
});

it("a reader that cancels stops the events, never the writer", async () => {
  const stream = new CallStream();
  await stream.body.cancel();
  expect(() => {
    stream.send("stdout", { data: "x" });
    stream.close();
  }).not.toThrow();
});
