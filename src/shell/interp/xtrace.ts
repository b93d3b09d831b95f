// `set -x` trace lines in bash's format: PS4 is prompt-expanded (so $x, $? and \$ work in
// it), and each word is quoted the way bash's xtrace quotes it -- unlike ${x@Q}, tabs and
// newlines stay literal inside single quotes, a lone ' prints as \', and only words with
// other control characters use $'...'.
import type { Fd, Shell } from "./shell";
import { encode } from "../bytes";
import { expandPrompt, isPromptError } from "../expand/prompt";
import { quote } from "../expand/word";

const META = /[\s'"\\|&;()<>!{}*[\]?^$`]|^[~#]|=.*~/;

export function xtraceQuote(s: string): string {
  if (s === "") return "''";
  const nul = s.indexOf("\0");
  if (nul >= 0) s = s.slice(0, nul); // bash's words are C strings
  if (/[\x01-\x08\x0b-\x1f\x7f]/.test(s)) return quote(s);
  if (s === "'") return "\\'";
  if (META.test(s)) return "'" + s.replace(/'/g, "'\\''") + "'";
  return s;
}

async function prefix(sh: Shell): Promise<string> {
  const ps4 = sh.vars.get("PS4");
  if (ps4 === undefined) return "";
  // the trace must not change $? or abort the traced command
  const saved = sh.status;
  try {
    const text = await expandPrompt(sh, ps4);
    // bash repeats PS4's first character once per level of command substitution and eval
    return sh.traceLevel > 0 && text ? text[0].repeat(sh.traceLevel) + text : text;
  } catch (e) {
    if (!isPromptError(e)) throw e;
    return ps4;
  } finally {
    sh.status = saved;
  }
}

/** Writes one trace line: PS4, then `text` verbatim. */
export async function traceRaw(sh: Shell, fds: Fd[], text: string): Promise<void> {
  const line = (await prefix(sh)) + text + "\n";
  await fds[2]?.w?.write(encode(line)).catch(() => {});
}

/** Writes one trace line for a command's words. */
export async function traceWords(sh: Shell, fds: Fd[], argv: string[]): Promise<void> {
  await traceRaw(sh, fds, argv.map(xtraceQuote).join(" "));
}

/** `[[ ]]`: each primary is traced as it is evaluated, its operands expanded (`[[ -n '' ]]`). */
export async function traceTest(sh: Shell, fds: Fd[], words: string[], bang: string): Promise<void> {
  await traceRaw(sh, fds, `[[ ${bang}${words.join(" ")} ]]`);
}
