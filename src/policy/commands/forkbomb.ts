/**
 * Fork-bomb detection for shell function definitions. The shell calls this when it
 * defines a function, before the body can ever run: `:(){ :|:& };:` is refused at `:()`.
 * A function is a fork bomb when its body calls itself as part of a pipeline or in the
 * background: every call then starts new processes that call it again without waiting.
 */

type Token = { word: string; quoted: boolean } | { op: string };

const OPERATORS = ["&&", "||", "|&", ";;", "$(", "|", "&", ";", "\n", "(", ")", "`", "<", ">"];
// After these a new command starts.
const COMMAND_STARTERS = new Set(["&&", "||", "|&", ";;", "$(", "|", "&", ";", "\n", "(", "`", "{"]);
const KEYWORDS = new Set(["if", "then", "else", "elif", "while", "until", "do", "!", "time", "{"]);
const CONCURRENT = new Set(["|", "|&", "&"]);

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === " " || ch === "\t") {
      i++;
      continue;
    }
    if (ch === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (ch === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op !== undefined) {
      out.push({ op });
      i += op.length;
      continue;
    }
    let word = "";
    let quoted = false;
    while (i < src.length && !" \t\n;&|()<>`".includes(src[i]!) && !src.startsWith("$(", i)) {
      const c = src[i]!;
      if (c === "'" || c === '"') {
        const close = src.indexOf(c, i + 1);
        const end = close < 0 ? src.length : close;
        word += src.slice(i + 1, end);
        quoted = true;
        i = end + 1;
      } else if (c === "\\" && i + 1 < src.length) {
        word += src[i + 1];
        quoted = true;
        i += 2;
      } else {
        word += c;
        i++;
      }
    }
    // `{` and `}` are reserved words only when they stand alone.
    out.push(!quoted && (word === "{" || word === "}") ? { op: word } : { word, quoted });
  }
  return out;
}

const opOf = (t: Token | undefined): string | undefined => (t !== undefined && "op" in t ? t.op : undefined);

/** Whether the command starting at token i runs alongside its caller (pipeline or `&`). */
function runsConcurrently(tokens: Token[], i: number, startedBy: string | undefined): boolean {
  if (startedBy !== undefined && CONCURRENT.has(startedBy)) return true;
  let depth = 0;
  let first = true;
  for (let j = i + 1; j < tokens.length; j++) {
    const op = opOf(tokens[j]);
    if (op === undefined || op === "<" || op === ">") continue;
    if (op === "(" || op === "{" || op === "$(") depth++;
    else if (op === ")" || op === "}") {
      if (depth > 0) depth--;
      // Leaving an enclosing group: `{ f; } &` backgrounds the call too.
      else first = true;
    } else if (depth === 0) {
      if (first && CONCURRENT.has(op)) return true;
      first = false;
    }
  }
  return false;
}

export interface FunctionDenial {
  rule: string;
  reason: string;
}

export function checkFunctionDefinition(name: string, bodySource: string): FunctionDenial | null {
  const tokens = lex(bodySource);
  let expectCommand = true;
  let startedBy: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if ("op" in t) {
      if (COMMAND_STARTERS.has(t.op)) {
        expectCommand = true;
        startedBy = t.op;
      } else if (t.op === ")" || t.op === "}") expectCommand = false;
      // A redirection's target word is a file name, not a command.
      if (t.op === "<" || t.op === ">") i++;
      continue;
    }
    if (!expectCommand) continue;
    if (!t.quoted && KEYWORDS.has(t.word)) continue;
    expectCommand = false;
    if (t.word === name && runsConcurrently(tokens, i, startedBy)) {
      return {
        rule: "fork-bomb",
        reason: `Refused: function '${name}' calls itself in a pipeline or in the background, which multiplies processes without end (a fork bomb). Use a loop with a fixed bound instead.`,
      };
    }
  }
  return null;
}
