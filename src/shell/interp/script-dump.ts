// bash's non-running modes: --pretty-print (the script back in bash's layout) and -D,
// --dump-strings, --dump-po-strings (the `$"..."` strings a translator would see).
import { Parser, ParseError, lineOf } from "../syntax/parser";
import { formatScript } from "../syntax/print";
import type { Fd } from "./shell";
import { encode } from "../bytes";

export async function printScript(script: string, mode: "pretty" | "strings" | "po", name: string, fds: Fd[]): Promise<number> {
  const strings: { text: string; pos: number }[] = [];
  const parser = new Parser(script, { localeString: (text, pos) => strings.push({ text, pos }) });
  let out: string;
  try {
    const program = parser.parseProgram();
    if (mode === "pretty") out = formatScript(program);
    else if (mode === "strings") out = strings.map((s) => `"${s.text}"\n`).join("");
    else out = strings.map((s) => `#: ${name}:${lineOf(script, s.pos)}\nmsgid "${s.text}"\nmsgstr ""\n`).join("");
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    await fds[2]?.w?.write(encode(`bash: ${name}: line ${lineOf(script, e.pos)}: ${e.message}\n`)).catch(() => {});
    return 2;
  }
  await fds[1]?.w?.write(encode(out)).catch(() => {});
  return 0;
}
