import { LIMITS } from "../../limits";

/** Decoding helpers shared by the file tools. */

const SNIFF_BYTES = LIMITS.sniffBytes;

/** Binary when the head has a NUL byte or is not valid UTF-8 (a cut multi-byte tail is allowed). */
export function looksBinary(head: Uint8Array): boolean {
  const sample = head.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** A short hex view of a binary file, as `xxd` prints it. */
export function hexSummary(bytes: Uint8Array, totalSize: number, show = 256): string {
  const lines = [`Binary file, ${totalSize} bytes. First ${Math.min(show, bytes.length)} bytes:`];
  for (let off = 0; off < Math.min(show, bytes.length); off += 16) {
    const row = bytes.subarray(off, Math.min(off + 16, bytes.length));
    const hex = [...row].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${off.toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  return lines.join("\n");
}

/** Splits streamed chunks into lines (without their "\n"); a final line without newline counts. */
export function* linesOf(chunks: Iterable<Uint8Array>): Generator<string> {
  const decoder = new TextDecoder();
  let carry = "";
  for (const chunk of chunks) {
    const text = carry + decoder.decode(chunk, { stream: true });
    const parts = text.split("\n");
    carry = parts.pop()!;
    yield* parts;
  }
  carry += decoder.decode();
  if (carry !== "") yield carry;
}

export const formatLineNumber = (n: number, line: string): string => `${String(n).padStart(6)}\t${line}`;
