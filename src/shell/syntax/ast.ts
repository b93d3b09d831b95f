// Shell AST. Every node carries `pos` (offset into its source) for error messages and
// LINENO. Arithmetic is kept as a Word and parsed after expansion, as bash does.

export type WordPart =
  | { type: "lit"; value: string; quoted?: boolean } // quoted: from a backslash escape
  | { type: "sq"; value: string } // '...' and $'...'
  | { type: "dq"; parts: WordPart[] }
  | { type: "tilde"; user: string }
  | ParamExp
  | { type: "cmdsub"; body: Stmt[]; pos: number }
  | { type: "arith"; expr: Word; pos: number }
  | { type: "procsub"; dir: "<" | ">"; body: Stmt[]; pos: number };

export interface ParamExp {
  type: "param";
  name: string; // identifier, digits, or one of @*#?-$!0
  short?: boolean; // $x rather than ${x}
  index?: Word; // x[index]; "@" / "*" as literal words
  length?: boolean; // ${#x}
  indirect?: boolean; // ${!x}
  prefixNames?: "*" | "@"; // ${!prefix*}
  keys?: boolean; // ${!a[@]}
  op?: string; // :- - := = :? ? :+ + # ## % %% / // /# /% ^ ^^ , ,, : @
  arg?: Word; // operand (pattern, default, offset, transform letter)
  arg2?: Word; // replacement or length
}

export interface Word {
  parts: WordPart[];
  pos: number;
}

export interface Assign {
  name: string;
  index?: Word;
  append: boolean;
  value?: Word;
  array?: ArrayElem[];
  pos: number;
}

export interface ArrayElem {
  key?: Word; // [key]=value
  append?: boolean;
  value: Word;
}

export interface Redir {
  fd?: number;
  varFd?: string; // {name}>file
  op: string; // < > >> >| <> <& >& &> &>> << <<- <<<
  target: Word; // for heredocs, the body
  heredocQuoted?: boolean;
  pos: number;
}

export type Command =
  | { type: "simple"; assigns: Assign[]; words: ArgWord[]; redirs: Redir[]; pos: number }
  | { type: "pipeline"; cmds: Command[]; bang: boolean; stderrPipes: boolean[]; time?: boolean; pos: number }
  | { type: "andor"; op: "&&" | "||"; left: Command; right: Command; pos: number }
  | { type: "subshell"; body: Stmt[]; redirs: Redir[]; pos: number }
  | { type: "group"; body: Stmt[]; redirs: Redir[]; pos: number }
  | { type: "if"; clauses: { cond: Stmt[]; body: Stmt[] }[]; elseBody?: Stmt[]; redirs: Redir[]; pos: number }
  | { type: "while"; until: boolean; cond: Stmt[]; body: Stmt[]; redirs: Redir[]; pos: number }
  | { type: "for"; name: string; words?: ArgWord[]; body: Stmt[]; redirs: Redir[]; pos: number /** the words as written, for set -x */; text?: string }
  | { type: "forarith"; init?: Word; cond?: Word; step?: Word; body: Stmt[]; redirs: Redir[]; pos: number }
  | { type: "select"; name: string; words?: ArgWord[]; body: Stmt[]; redirs: Redir[]; pos: number; text?: string }
  | { type: "case"; word: Word; items: CaseItem[]; redirs: Redir[]; pos: number /** the word as written, for set -x */; text?: string }
  | { type: "func"; name: string; body: Command; pos: number /** source text of the body, for the policy */; bodySrc?: string }
  | { type: "arithcmd"; expr: Word; redirs: Redir[]; pos: number }
  /** `coproc [NAME] command`: NAME (default COPROC) only before a compound command, as in bash. */
  | { type: "coproc"; name: string; body: Command; redirs: Redir[]; pos: number }
  | { type: "test"; expr: TestExpr; redirs: Redir[]; pos: number };

/** A command argument: a normal word, or an assignment argument of declare-like builtins. */
export type ArgWord = Word | { assign: Assign; raw: Word; pos: number };

export interface CaseItem {
  patterns: Word[];
  body: Stmt[];
  term: ";;" | ";&" | ";;&";
}

export type TestExpr =
  | { type: "and" | "or"; left: TestExpr; right: TestExpr }
  | { type: "not"; expr: TestExpr }
  | { type: "unary"; op: string; arg: Word }
  | { type: "binary"; op: string; left: Word; right: Word }
  | { type: "word"; word: Word };

export interface Stmt {
  cmd: Command;
  background: boolean;
  pos: number;
}

export function isAssignArg(w: ArgWord): w is { assign: Assign; raw: Word; pos: number } {
  return (w as { assign?: Assign }).assign !== undefined;
}

/** The literal text of a word if it is entirely unquoted literal, else null. */
export function litText(w: Word): string | null {
  let s = "";
  for (const p of w.parts) {
    if (p.type !== "lit" || p.quoted) return null;
    s += p.value;
  }
  return s;
}
