// Before a script runs, every command written out literally in it is shown to the deny rules,
// so `ls || rm -rf /` is refused before `ls` runs, not when the branch is reached. Only words
// whose value is certain are judged here (no expansions, no globs, no braces); the rest is
// judged after expansion, right before it runs, as always.
import type { ShellHost } from "../host";
import type { ArgWord, Word, WordPart } from "../syntax/ast";
import { isAssignArg } from "../syntax/ast";
import { Parser, ParseError, lineOf } from "../syntax/parser";

type Denial = { rule: string; reason: string };

/** A refusal of one line of a script, before any of it ran. */
export interface RefusedLine extends Denial {
  line: number;
  /** The refused command as written (its words joined). */
  command: string;
}

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

const COMMAND_TYPES = new Set(["simple", "pipeline", "andor", "subshell", "group", "if", "while", "for", "forarith", "select", "case", "func", "arithcmd", "test"]);

/**
 * Every node of the tree that is a simple command (in functions, substitutions, branches), with
 * the offset in the script where it starts. A substitution's body is parsed on its own, so its
 * offsets count from the substitution: there the enclosing command's offset stands instead.
 */
function* simpleCommands(node: unknown, at = 0, nested = false): Generator<{ words: ArgWord[]; at: number }> {
  if (Array.isArray(node)) {
    for (const n of node) yield* simpleCommands(n, at, nested);
  } else if (node && typeof node === "object") {
    const n = node as { type?: string; pos?: unknown };
    // Only commands parsed by the script's own parser carry offsets into it (a here-document's
    // words are parsed apart).
    const here = !nested && n.type !== undefined && COMMAND_TYPES.has(n.type) && typeof n.pos === "number" ? n.pos : at;
    const inner = nested || n.type === "cmdsub" || n.type === "procsub";
    if (n.type === "simple") yield { words: (node as { words: ArgWord[] }).words, at: here };
    for (const v of Object.values(node)) if (v && typeof v === "object") yield* simpleCommands(v, here, inner);
  }
}

/** The first rule a literal command of `src` breaks, or null (also when `src` does not parse). */
export function refusedLiteral(src: string, host: ShellHost): RefusedLine | null {
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
    if (denial) return { ...denial, line: lineOf(src, cmd.at), command: (argv as string[]).join(" ") };
  }
  return null;
}
