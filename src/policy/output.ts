import { LIMITS } from "../limits";

/** Characters a tool may return in one text field. */
export const MAX_OUTPUT_CHARS = LIMITS.toolOutputChars;

/**
 * Keeps the head and the tail of an over-long text and says how much was cut between them,
 * because both the start (what ran) and the end (how it ended) usually matter.
 */
export function truncateMiddle(text: string, max: number = MAX_OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  const notice = (n: number) => `\n\n... [${n} characters truncated] ...\n\n`;
  const budget = max - notice(text.length).length;
  const head = Math.ceil(budget / 2);
  const tail = Math.floor(budget / 2);
  return text.slice(0, head) + notice(text.length - head - tail) + text.slice(text.length - tail);
}
