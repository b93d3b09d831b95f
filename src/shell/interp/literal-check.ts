// Before a script runs, every command written out literally in it is shown to the deny rules,
// so `ls || rm -rf /` is refused before `ls` runs, not when the branch is reached. Only words
// whose value is certain are judged here (no expansions, no globs, no braces); the rest is
// judged after expansion, right before it runs, as always.
import type { ShellHost } from "../host";
import type { ArgWord, Word, WordPart } from "../syntax/ast";
import { isAssignArg } from "../syntax/ast";
import { Parser, ParseError } from "../syntax/parser";

type Denial = { rule: string; reason: string };

// Unquoted text with these may expand to something else (globs, braces).
const EXPANDS = /[*?[{]/;

function literalParts(parts: WordPart[], first: boolean): string | null {
  let s = "";
  for (const p of parts) {
    if (p.type === "lit") {
      if (!p.quoted && EXPANDS.test(p.value)) return null;
      s += p.value;
    } else if (p.type === "sq") s += p.value;
    else if (p.type === "dq") {
      const inner = literalParts(p.parts, false);
      if (inner === null) return null;
      s += inner;
    } else if (p.type === "tilde" && p.user === "" && first && s === "") s += "~";
    else return null;
  }
  return s;
}

const literalWord = (w: ArgWord): string | null => (isAssignArg(w) ? null : literalParts((w as Word).parts, true));

/** Every node of the tree that is a simple command (in functions, substitutions, branches). */
function* simpleCommands(node: unknown): Generator<{ words: ArgWord[] }> {
  if (Array.isArray(node)) {
    for (const n of node) yield* simpleCommands(n);
  } else if (node && typeof node === "object") {
    if ((node as { type?: string }).type === "simple") yield node as { words: ArgWord[] };
    for (const v of Object.values(node)) if (v && typeof v === "object") yield* simpleCommands(v);
  }
}

/** The first rule a literal command of `src` breaks, or null (also when `src` does not parse). */
export function refusedLiteral(src: string, host: ShellHost): Denial | null {
  const tree: unknown[] = [];
  try {
    const parser = new Parser(src, { alias: () => undefined });
    for (let stmts = parser.parseNext(); stmts; stmts = parser.parseNext()) tree.push(stmts);
  } catch (e) {
    if (e instanceof ParseError) return null; // the run reports the syntax error itself
    throw e;
  }
  for (const cmd of simpleCommands(tree)) {
    const argv = cmd.words.map(literalWord);
    if (argv.length === 0 || argv.some((a) => a === null)) continue;
    const denial = host.checkCommand(argv as string[]);
    if (denial) return denial;
  }
  return null;
}
