// Recursive-descent parser for bash syntax working directly on characters: word
// boundaries depend on context (quotes, ${...}, $(...), [[ ]]), so a separate token
// stream would need the same context anyway.
import type { ArgWord, ArrayElem, Assign, CaseItem, Command, ParamExp, Redir, Stmt, TestExpr, Word, WordPart } from "./ast";
import { litText } from "./ast";
import { byteChar, joinBytes } from "../bytes";

export class ParseError extends Error {
  constructor(
    message: string,
    public pos: number,
    public incomplete = false,
  ) {
    super(message);
  }
}

const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "function",
  "select",
  "{",
  "}",
  "!",
  "[[",
  "]]",
  "in",
  "time",
  "coproc",
]);
const DECL_BUILTINS = new Set(["declare", "typeset", "local", "export", "readonly"]);
const META = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"]);
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface PendingHeredoc {
  redir: Redir;
  delim: string;
  strip: boolean;
  quoted: boolean;
}

export interface ParserOptions {
  /** Alias lookup; when given, command words are alias-expanded. */
  alias?: (name: string) => string | undefined;
  /** Sees each `$"..."` string (its source text between the quotes) and where it starts: bash -D. */
  localeString?: (text: string, pos: number) => void;
  /** Whether `shopt -s extglob` holds as this line is parsed: bash reads @( *( +( ?( !( as a
   * pattern only then (and always inside [[ ]]), so `shopt -s extglob; echo !(x)` on one line is
   * a syntax error. Without it every line reads them. */
  extglob?: () => boolean;
}

export class Parser {
  i = 0;
  private heredocs: PendingHeredoc[] = [];
  constructor(
    public src: string,
    private opts: ParserOptions = {},
  ) {}

  // ---------- helpers ----------
  private ch(k = 0): string {
    return this.src[this.i + k] ?? "";
  }
  private eof(): boolean {
    return this.i >= this.src.length;
  }
  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }
  fail(msg: string, pos = this.i, incomplete = false): never {
    throw new ParseError(msg, pos, incomplete);
  }
  private unexpected(): never {
    if (this.eof()) this.fail("syntax error: unexpected end of file", this.i, true);
    const tok = this.peekToken();
    this.fail(`syntax error near unexpected token \`${tok}'`);
  }
  private peekToken(): string {
    for (const op of [";;&", ";;", ";&", "&&", "||", "|&", "<<-", "<<<", "<<", ">>", "&>>", "&>", "<&", ">&", "<>", ">|"]) if (this.startsWith(op)) return op;
    const c = this.ch();
    if (c === "\n") return "newline";
    if (META.has(c)) return c;
    let j = this.i;
    while (j < this.src.length && !META.has(this.src[j])) j++;
    return this.src.slice(this.i, j);
  }

  /** Skips blanks and line continuations (not newlines). */
  private blanks(): void {
    for (;;) {
      const c = this.ch();
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && this.ch(1) === "\n") this.i += 2;
      else if (c === "#") {
        while (!this.eof() && this.ch() !== "\n") this.i++;
      } else return;
    }
  }
  private newline(): void {
    // consumes "\n" and then any pending here-document bodies
    this.i++;
    if (this.heredocs.length) this.readHeredocs();
  }
  /** Skips blanks, comments and newlines. */
  private linebreaks(): void {
    for (;;) {
      this.blanks();
      if (this.ch() === "\n") this.newline();
      else return;
    }
  }
  /** Peeks a reserved word at the current position (after blanks). */
  private peekReserved(): string | null {
    let j = this.i;
    while (j < this.src.length && !META.has(this.src[j])) j++;
    const w = this.src.slice(this.i, j);
    if (RESERVED.has(w)) return w;
    return null;
  }
  private isReservedAt(w: string): boolean {
    return this.peekReserved() === w;
  }
  private expectReserved(w: string): void {
    this.blanks();
    if (!this.isReservedAt(w)) this.unexpected();
    this.i += w.length;
  }

  // ---------- statements ----------
  parseProgram(): Stmt[] {
    const out: Stmt[] = [];
    for (;;) {
      const s = this.parseNext();
      if (!s) break;
      out.push(...s);
    }
    return out;
  }

  /** Parses the next complete line of statements (for incremental execution), or null at EOF. */
  parseNext(): Stmt[] | null {
    this.linebreaks();
    if (this.eof()) return null;
    const out: Stmt[] = [];
    for (;;) {
      this.blanks();
      if (this.eof()) break;
      if (this.ch() === "\n") {
        this.newline();
        break;
      }
      const st = this.parseStmt();
      out.push(st);
      this.blanks();
      if (this.ch() === ";" && this.ch(1) !== ";") this.i++;
      else if (this.ch() === "&" && !st.background) this.unexpected();
      else if (this.ch() === "\n" || this.eof()) continue;
      else if (!st.background) this.unexpected();
    }
    if (this.heredocs.length) this.readHeredocs();
    return out;
  }

  private parseStmt(): Stmt {
    const pos = this.i;
    const cmd = this.parseAndOr();
    this.blanks();
    let background = false;
    if (this.ch() === "&" && this.ch(1) !== "&" && this.ch(1) !== ">") {
      this.i++;
      background = true;
    }
    return { cmd, background, pos };
  }

  /** Statement list ended by a reserved word in `stops`, `)` (if closeParen) or a case terminator. */
  private parseList(stops: string[], closeParen = false, caseItem = false): Stmt[] {
    const out: Stmt[] = [];
    for (;;) {
      this.linebreaks();
      if (this.eof()) break;
      if (closeParen && this.ch() === ")") break;
      if (caseItem && (this.startsWith(";;") || this.startsWith(";&"))) break;
      const r = this.peekReserved();
      if (r && stops.includes(r)) break;
      const st = this.parseStmt();
      out.push(st);
      this.blanks();
      if (this.ch() === ";" && this.ch(1) !== ";" && this.ch(1) !== "&") this.i++;
      else if (this.ch() === "\n") this.newline();
      else if (st.background) continue;
      else if (this.eof()) break;
      else if (closeParen && this.ch() === ")") break;
      else if (caseItem && (this.startsWith(";;") || this.startsWith(";&"))) break;
      else {
        const r2 = this.peekReserved();
        if (r2 && stops.includes(r2)) break;
        this.unexpected();
      }
    }
    return out;
  }

  private parseAndOr(): Command {
    let left = this.parsePipeline();
    for (;;) {
      this.blanks();
      let op: "&&" | "||" | null = null;
      if (this.startsWith("&&")) op = "&&";
      else if (this.startsWith("||")) op = "||";
      if (!op) return left;
      const pos = this.i;
      this.i += 2;
      this.linebreaks();
      const right = this.parsePipeline();
      left = { type: "andor", op, left, right, pos };
    }
  }

  private parsePipeline(): Command {
    this.blanks();
    const pos = this.i;
    let bang = false;
    let time = false;
    for (;;) {
      if (this.isReservedAt("time")) {
        this.i += 4;
        time = true;
        this.blanks();
        if (this.startsWith("-p ")) this.i += 3;
        this.blanks();
        continue;
      }
      if (this.isReservedAt("!")) {
        this.i += 1;
        bang = !bang;
        this.blanks();
        continue;
      }
      break;
    }
    if (time && (this.eof() || this.ch() === "\n" || this.ch() === ";")) {
      return { type: "pipeline", cmds: [{ type: "simple", assigns: [], words: [], redirs: [], pos }], bang, stderrPipes: [], time, pos };
    }
    const cmds: Command[] = [this.parseCommand()];
    const stderrPipes: boolean[] = [];
    for (;;) {
      this.blanks();
      if (this.ch() === "|" && this.ch(1) !== "|") {
        const both = this.ch(1) === "&";
        this.i += both ? 2 : 1;
        stderrPipes.push(both);
        this.linebreaks();
        cmds.push(this.parseCommand());
      } else break;
    }
    if (cmds.length === 1 && !bang && !time) return cmds[0];
    return { type: "pipeline", cmds, bang, stderrPipes, time, pos };
  }

  private parseCommand(): Command {
    this.blanks();
    if (this.opts.alias) while (this.tryAlias()) this.blanks();
    const pos = this.i;
    const r = this.peekReserved();
    let cmd: Command | null = null;
    switch (r) {
      case "if":
        cmd = this.parseIf();
        break;
      case "while":
      case "until":
        cmd = this.parseWhile(r === "until");
        break;
      case "for":
        cmd = this.parseFor();
        break;
      case "select":
        cmd = this.parseFor(true);
        break;
      case "case":
        cmd = this.parseCase();
        break;
      case "{": {
        this.i++;
        const body = this.parseList(["}"]);
        if (!body.length) this.unexpected();
        this.expectReserved("}");
        cmd = { type: "group", body, redirs: [], pos };
        break;
      }
      case "[[":
        cmd = this.parseTestCmd();
        break;
      case "function":
        return this.parseFunction();
      case "coproc":
        return this.parseCoproc();
      case "then":
      case "else":
      case "elif":
      case "fi":
      case "do":
      case "done":
      case "esac":
      case "}":
      case "in":
      case "]]":
        this.unexpected();
    }
    if (!cmd && this.ch() === "(") {
      if (this.ch(1) === "(") {
        const a = this.tryArithCommand();
        if (a) cmd = a;
      }
      if (!cmd) {
        this.i++;
        const body = this.parseList([], true);
        this.linebreaks();
        if (this.ch() !== ")") this.unexpected();
        this.i++;
        cmd = { type: "subshell", body, redirs: [], pos };
      }
    }
    if (cmd) {
      const redirs = (cmd as { redirs: Redir[] }).redirs;
      for (;;) {
        this.blanks();
        const rd = this.tryRedir();
        if (!rd) break;
        redirs.push(rd);
      }
      this.blanks();
      if (!this.eof() && !META.has(this.ch()) && !this.startsWith("}") && !this.peekReserved()) this.unexpected();
      return cmd;
    }
    return this.parseSimple();
  }

  /** `coproc NAME compound-command` or `coproc command` (named COPROC). */
  private parseCoproc(): Command {
    const pos = this.i;
    this.i += "coproc".length;
    this.blanks();
    let name = "COPROC";
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.i, this.i + 256));
    if (m && (this.i + m[0].length >= this.src.length || META.has(this.src[this.i + m[0].length]))) {
      const save = this.i;
      this.i += m[0].length;
      this.blanks();
      const r = this.peekReserved();
      if (this.ch() === "(" || (r !== null && ["{", "if", "while", "until", "for", "select", "case", "[["].includes(r))) name = m[0];
      else this.i = save;
    }
    if (this.eof() || this.ch() === "\n" || this.ch() === ";") this.unexpected();
    const body = this.parseCommand();
    return { type: "coproc", name, body, redirs: [], pos };
  }

  private tryArithCommand(): Command | null {
    const save = this.i;
    const pos = this.i;
    this.i += 2;
    const end = this.findArithEnd(this.i);
    if (end < 0) {
      this.i = save;
      return null;
    }
    const expr = this.subWord(this.src.slice(this.i, end), "arith", this.i);
    this.i = end + 2;
    return { type: "arithcmd", expr, redirs: [], pos };
  }

  /** Index of the `))` closing an arithmetic expression starting at `from`, or -1. */
  private findArithEnd(from: number): number {
    let depth = 0;
    let j = from;
    const s = this.src;
    while (j < s.length) {
      const c = s[j];
      if (c === "\\") {
        j += 2;
        continue;
      }
      if (c === "'") {
        const k = s.indexOf("'", j + 1);
        if (k < 0) return -1;
        j = k + 1;
        continue;
      }
      if (c === '"') {
        j++;
        while (j < s.length && s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
        j++;
        continue;
      }
      if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) return s[j + 1] === ")" ? j : -1;
        depth--;
      }
      j++;
    }
    return -1;
  }

  private parseFunction(): Command {
    const pos = this.i;
    this.i += "function".length;
    this.blanks();
    const start = this.i;
    while (!this.eof() && !META.has(this.ch())) this.i++;
    const name = this.src.slice(start, this.i);
    if (!name) this.unexpected();
    this.blanks();
    if (this.ch() === "(") {
      this.i++;
      this.blanks();
      if (this.ch() !== ")") this.unexpected();
      this.i++;
    }
    this.linebreaks();
    const bodyStart = this.i;
    const body = this.parseCommand();
    return { type: "func", name, body, pos, bodySrc: this.src.slice(bodyStart, this.i) };
  }

  private parseIf(): Command {
    const pos = this.i;
    this.i += 2;
    const clauses: { cond: Stmt[]; body: Stmt[] }[] = [];
    let elseBody: Stmt[] | undefined;
    for (;;) {
      const cond = this.parseList(["then"]);
      // an empty condition is an error at `then` itself, as bash reports it
      if (!cond.length) this.unexpected();
      this.expectReserved("then");
      const body = this.parseList(["elif", "else", "fi"]);
      if (!body.length) this.unexpected();
      clauses.push({ cond, body });
      this.blanks();
      const r = this.peekReserved();
      if (r === "elif") {
        this.i += 4;
        continue;
      }
      if (r === "else") {
        this.i += 4;
        elseBody = this.parseList(["fi"]);
        this.expectReserved("fi");
        break;
      }
      this.expectReserved("fi");
      break;
    }
    return { type: "if", clauses, elseBody, redirs: [], pos };
  }

  private parseWhile(until: boolean): Command {
    const pos = this.i;
    this.i += until ? 5 : 5;
    const cond = this.parseList(["do"]);
    if (!cond.length) this.unexpected();
    this.expectReserved("do");
    const body = this.parseList(["done"]);
    if (!body.length) this.unexpected();
    this.expectReserved("done");
    return { type: "while", until, cond, body, redirs: [], pos };
  }

  private parseDoBody(): Stmt[] {
    this.linebreaks();
    if (this.isReservedAt("{")) {
      this.i++;
      const body = this.parseList(["}"]);
      this.expectReserved("}");
      return body;
    }
    this.expectReserved("do");
    const body = this.parseList(["done"]);
    if (!body.length) this.unexpected();
    this.expectReserved("done");
    return body;
  }

  private parseFor(select = false): Command {
    const pos = this.i;
    this.i += select ? 6 : 3;
    this.blanks();
    if (!select && this.startsWith("((")) {
      this.i += 2;
      const end = this.findArithEnd(this.i);
      if (end < 0) this.fail("syntax error: unterminated for (( ))");
      const text = this.src.slice(this.i, end);
      const start = this.i;
      this.i = end + 2;
      const parts = splitTopSemis(text);
      if (parts.length !== 3) this.fail("syntax error: for (( )) needs three expressions", start);
      const mk = (t: string) => (t.trim() ? this.subWord(t, "arith", start) : undefined);
      this.blanks();
      if (this.ch() === ";") this.i++;
      const body = this.parseDoBody();
      return { type: "forarith", init: mk(parts[0]), cond: mk(parts[1]), step: mk(parts[2]), body, redirs: [], pos };
    }
    const ns = this.i;
    while (!this.eof() && !META.has(this.ch())) this.i++;
    const name = this.src.slice(ns, this.i);
    if (!NAME_RE.test(name)) this.fail(`\`${name}': not a valid identifier`, ns);
    this.linebreaks();
    let words: ArgWord[] | undefined;
    let text: string | undefined;
    if (this.isReservedAt("in")) {
      this.i += 2;
      words = [];
      const texts: string[] = [];
      for (;;) {
        this.blanks();
        if (this.ch() === ";" || this.ch() === "\n" || this.eof()) break;
        const ws = this.i;
        words.push(this.parseWord());
        texts.push(this.src.slice(ws, this.i));
      }
      text = texts.join(" ");
      if (this.ch() === ";") this.i++;
    } else if (this.ch() === ";") this.i++;
    const body = this.parseDoBody();
    return { type: select ? "select" : "for", name, words, body, redirs: [], pos, text } as Command;
  }

  private parseCase(): Command {
    const pos = this.i;
    this.i += 4;
    this.blanks();
    const ws = this.i;
    const word = this.parseWord();
    const text = this.src.slice(ws, this.i);
    this.linebreaks();
    this.expectReserved("in");
    const items: CaseItem[] = [];
    for (;;) {
      this.linebreaks();
      if (this.isReservedAt("esac")) {
        this.i += 4;
        break;
      }
      if (this.eof()) this.unexpected();
      if (this.ch() === "(") this.i++;
      const patterns: Word[] = [];
      for (;;) {
        this.blanks();
        patterns.push(this.parseWord());
        this.blanks();
        if (this.ch() === "|") {
          this.i++;
          continue;
        }
        if (this.ch() === ")") {
          this.i++;
          break;
        }
        this.unexpected();
      }
      const body = this.parseList(["esac"], false, true);
      let term: CaseItem["term"] = ";;";
      if (this.startsWith(";;&")) {
        term = ";;&";
        this.i += 3;
      } else if (this.startsWith(";;")) {
        this.i += 2;
      } else if (this.startsWith(";&")) {
        term = ";&";
        this.i += 2;
      }
      items.push({ patterns, body, term });
    }
    return { type: "case", word, items, redirs: [], pos, text };
  }

  // ---------- [[ ]] ----------
  private parseTestCmd(): Command {
    const pos = this.i;
    this.i += 2;
    const expr = this.testOr();
    this.linebreaks();
    if (!this.startsWith("]]")) this.unexpected();
    this.i += 2;
    return { type: "test", expr, redirs: [], pos };
  }
  private testOr(): TestExpr {
    let l = this.testAnd();
    for (;;) {
      this.linebreaks();
      if (this.startsWith("||")) {
        this.i += 2;
        l = { type: "or", left: l, right: this.testAnd() };
      } else return l;
    }
  }
  private testAnd(): TestExpr {
    let l = this.testNot();
    for (;;) {
      this.linebreaks();
      if (this.startsWith("&&")) {
        this.i += 2;
        l = { type: "and", left: l, right: this.testNot() };
      } else return l;
    }
  }
  private testNot(): TestExpr {
    this.linebreaks();
    if (this.ch() === "!" && (this.ch(1) === " " || this.ch(1) === "\t")) {
      this.i++;
      return { type: "not", expr: this.testNot() };
    }
    return this.testPrimary();
  }
  private testPrimary(): TestExpr {
    this.linebreaks();
    if (this.ch() === "(") {
      this.i++;
      const e = this.testOr();
      this.linebreaks();
      if (this.ch() !== ")") this.unexpected();
      this.i++;
      return e;
    }
    if (this.startsWith("]]") || this.eof()) this.unexpected();
    const w1 = this.parseWord("test");
    const t1 = litText(w1);
    this.blanks();
    if (t1 && /^-[a-zA-Z]$/.test(t1) && !this.startsWith("]]") && !this.startsWith("&&") && !this.startsWith("||") && this.ch() !== ")") {
      // unary operator unless what follows is a binary operator
      const save = this.i;
      const op2 = this.peekTestBinop();
      if (!op2) {
        const arg = this.parseWord("test");
        return { type: "unary", op: t1, arg };
      }
      this.i = save;
    }
    const op = this.peekTestBinop();
    if (!op) return { type: "word", word: w1 };
    this.i += op.length;
    this.blanks();
    const right = op === "=~" ? this.parseRegexWord() : this.parseWord("test");
    return { type: "binary", op, left: w1, right };
  }
  private peekTestBinop(): string | null {
    for (const op of ["==", "!=", "=~", "=", "<", ">"]) {
      if (this.startsWith(op)) {
        if (op === "<" || op === ">") return op;
        const after = this.ch(op.length);
        if (after === " " || after === "\t" || after === "\n") return op;
      }
    }
    const m = /^-(eq|ne|lt|le|gt|ge|nt|ot|ef)(?=[ \t\n])/.exec(this.src.slice(this.i, this.i + 5));
    return m ? m[0] : null;
  }
  private parseRegexWord(): Word {
    // In a regex, ( ) | and < > are literal; blanks end the word only outside parens.
    const pos = this.i;
    const parts: WordPart[] = [];
    let lit = "";
    let depth = 0;
    const flush = () => {
      if (lit) {
        parts.push({ type: "lit", value: lit });
        lit = "";
      }
    };
    while (!this.eof()) {
      const c = this.ch();
      if (depth === 0 && (c === " " || c === "\t" || c === "\n")) break;
      if (depth === 0 && (this.startsWith("&&") || this.startsWith("||"))) break;
      if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      }
      if (c === "\\" || c === "'" || c === '"' || c === "$" || c === "`") {
        flush();
        this.wordPart(parts, "normal");
        continue;
      }
      lit += c;
      this.i++;
    }
    flush();
    if (!parts.length) this.unexpected();
    return { parts, pos };
  }

  // ---------- simple commands ----------
  private parseSimple(): Command {
    const pos = this.i;
    const assigns: Assign[] = [];
    const words: ArgWord[] = [];
    const redirs: Redir[] = [];
    let decl = false;
    for (;;) {
      this.blanks();
      if (this.eof()) break;
      const rd = this.tryRedir();
      if (rd) {
        redirs.push(rd);
        continue;
      }
      const c = this.ch();
      if (c === "(" && words.length === 1 && !assigns.length) {
        // name() compound-command
        const save = this.i;
        this.i++;
        this.blanks();
        if (this.ch() === ")") {
          this.i++;
          // a name with quotes or expansions parses; running the definition reports it (status 1)
          const name = litText(words[0] as Word) ?? this.src.slice((words[0] as Word).pos, save).trim();
          this.linebreaks();
          const bodyStart = this.i;
          const body = this.parseCommand();
          return { type: "func", name, body, pos, bodySrc: this.src.slice(bodyStart, this.i) };
        }
        this.i = save;
        this.unexpected();
      }
      if (META.has(c) && !((c === "<" || c === ">") && this.ch(1) === "(")) break;
      if (words.length === 0) {
        const a = this.tryAssign();
        if (a) {
          assigns.push(a.assign);
          continue;
        }
        if (this.opts.alias && this.tryAlias()) continue;
      } else if (this.opts.alias && this.aliasNext >= 0 && this.aliasNext <= this.i) {
        this.aliasNext = -1;
        if (this.tryAlias()) continue;
        if (
          redirs.length === 0 &&
          assigns.length === 0 &&
          words.length === 0 &&
          this.peekReserved() &&
          this.peekReserved() !== "!" &&
          this.peekReserved() !== "[[" &&
          this.peekReserved() !== "{"
        ) {
          const r = this.peekReserved()!;
          if (!["}", "]]", "in"].includes(r)) this.unexpected();
        }
      } else if (decl) {
        const a = this.tryAssign(true);
        if (a) {
          words.push({ assign: a.assign, raw: a.raw, pos: a.assign.pos });
          continue;
        }
      }
      const w = this.parseWord();
      if (words.length === 0) {
        const t = litText(w);
        if (t && DECL_BUILTINS.has(t)) decl = true;
        if (t === "builtin" || t === "command") decl = false;
      }
      words.push(w);
    }
    if (!assigns.length && !words.length && !redirs.length) this.unexpected();
    return { type: "simple", assigns, words, redirs, pos };
  }

  /** Splices an alias's text into the source; an alias is not re-expanded inside its own text. */
  private tryAlias(): boolean {
    let j = this.i;
    while (j < this.src.length && !META.has(this.src[j]) && !"'\"\\$`".includes(this.src[j])) j++;
    if (j < this.src.length && !META.has(this.src[j])) return false;
    const name = this.src.slice(this.i, j);
    if (!name) return false;
    this.active = this.active.filter((a) => a.end > this.i);
    if (this.active.some((a) => a.name === name)) return false;
    const v = this.opts.alias!(name);
    if (v === undefined) return false;
    const delta = v.length - (j - this.i);
    for (const a of this.active) a.end += delta;
    this.src = this.src.slice(0, this.i) + v + this.src.slice(j);
    this.active.push({ name, end: this.i + v.length });
    this.aliasNext = v.endsWith(" ") || v.endsWith("\t") ? this.i + v.length : -1;
    return true;
  }
  private active: { name: string; end: number }[] = [];
  private aliasNext = -1;

  private tryAssign(inDecl = false): { assign: Assign; raw: Word } | null {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[|\+?=)/.exec(this.src.slice(this.i, this.i + 256));
    if (!m) return null;
    const save = this.i;
    const pos = this.i;
    const name = m[1];
    this.i += name.length;
    let index: Word | undefined;
    if (this.ch() === "[") {
      const end = this.findBracketEnd(this.i + 1);
      if (end < 0) {
        this.i = save;
        return null;
      }
      index = this.subWord(this.src.slice(this.i + 1, end), "index", this.i + 1);
      this.i = end + 1;
    }
    let append = false;
    if (this.ch() === "+" && this.ch(1) === "=") {
      append = true;
      this.i += 2;
    } else if (this.ch() === "=") this.i++;
    else {
      this.i = save;
      return null;
    }
    const assign: Assign = { name, index, append, pos };
    if (this.ch() === "(" && !index) {
      this.i++;
      assign.array = this.parseArrayElems();
    } else {
      assign.value = this.parseWord("assign");
    }
    const raw = this.subWord(this.src.slice(save, this.i), "normal", save);
    void inDecl;
    return { assign, raw };
  }

  private findBracketEnd(from: number): number {
    let depth = 0;
    for (let j = from; j < this.src.length; j++) {
      const c = this.src[j];
      if (c === "\\") {
        j++;
        continue;
      }
      if (c === "[") depth++;
      else if (c === "]") {
        if (depth === 0) return j;
        depth--;
      } else if (c === "\n") return -1;
    }
    return -1;
  }

  private parseArrayElems(): ArrayElem[] {
    const elems: ArrayElem[] = [];
    for (;;) {
      this.linebreaks();
      if (this.ch() === ")") {
        this.i++;
        break;
      }
      if (this.eof()) this.fail("syntax error: unterminated array", this.i, true);
      if (this.ch() === "[") {
        const end = this.findBracketEnd(this.i + 1);
        if (end > 0 && (this.src[end + 1] === "=" || (this.src[end + 1] === "+" && this.src[end + 2] === "="))) {
          const key = this.subWord(this.src.slice(this.i + 1, end), "index", this.i + 1);
          const append = this.src[end + 1] === "+";
          this.i = end + (append ? 3 : 2);
          const value = this.parseWord("elem", true);
          elems.push({ key, value, append });
          continue;
        }
      }
      elems.push({ value: this.parseWord() });
    }
    return elems;
  }

  private tryRedir(): Redir | null {
    const pos = this.i;
    let j = this.i;
    let fd: number | undefined;
    let varFd: string | undefined;
    const m = /^(\d+)(?=[<>])/.exec(this.src.slice(j, j + 12));
    if (m) {
      fd = parseInt(m[1], 10);
      j += m[1].length;
    } else {
      // {name}>file, and {arr[i]}>&- (bash closes the fd an element holds: `exec {COPROC[1]}>&-`)
      const v = /^\{([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]\s]+\])?)\}(?=[<>])/.exec(this.src.slice(j, j + 80));
      if (v) {
        varFd = v[1];
        j += v[0].length;
      }
    }
    const rest = this.src.slice(j, j + 3);
    let op = "";
    for (const o of ["&>>", "<<<", "<<-", "<<", ">>", "<&", ">&", "<>", ">|", "&>", "<", ">"]) {
      if (rest.startsWith(o)) {
        op = o;
        break;
      }
    }
    if (!op) return null;
    if ((op === "<" || op === ">") && this.src[j + 1] === "(") return null; // process substitution
    if (op.startsWith("&") && (fd !== undefined || varFd)) return null;
    this.i = j + op.length;
    this.blanks();
    if (op === "<<" || op === "<<-") {
      const ds = this.i;
      const w = this.parseWord();
      const raw = this.src.slice(ds, this.i);
      // Only quoting at the word's top level counts: `EOF$(echo 'x')` is an unquoted delimiter.
      const quoted = w.parts.some((p) => p.type === "sq" || p.type === "dq" || (p.type === "lit" && p.quoted));
      const delim = quoted ? removeDelimQuotes(raw) : raw;
      const redir: Redir = { fd, varFd, op, target: { parts: [], pos: this.i }, heredocQuoted: quoted, pos };
      this.heredocs.push({ redir, delim, strip: op === "<<-", quoted });
      return redir;
    }
    if (this.eof() || (META.has(this.ch()) && !((this.ch() === "<" || this.ch() === ">") && this.ch(1) === "("))) this.unexpected();
    const target = this.parseWord();
    return { fd, varFd, op, target, pos };
  }

  private readHeredocs(): void {
    const list = this.heredocs;
    this.heredocs = [];
    for (const h of list) {
      const lines: string[] = [];
      const start = this.i;
      let found = false;
      while (!this.eof()) {
        let nl = this.src.indexOf("\n", this.i);
        if (nl < 0) nl = this.src.length;
        let line = this.src.slice(this.i, nl);
        this.i = Math.min(nl + 1, this.src.length);
        if (h.strip) line = line.replace(/^\t+/, "");
        if (line === h.delim) {
          found = true;
          break;
        }
        lines.push(line);
      }
      void found;
      const body = lines.length ? lines.join("\n") + "\n" : "";
      h.redir.target = h.quoted ? { parts: [{ type: "sq", value: body }], pos: start } : this.subWord(body, "heredoc", start);
    }
  }

  // ---------- words ----------
  /** Parses `text` as a word in the given mode with a fresh parser (positions offset). */
  subWord(text: string, mode: WordMode, pos: number): Word {
    const p = new Parser(text, this.opts);
    const parts: WordPart[] = [];
    while (!p.eof()) p.wordPart(parts, mode);
    return { parts: mergeLits(parts), pos };
  }

  /** Parses one shell word at the current position. */
  parseWord(mode: WordMode = "normal", allowEmpty = false): Word {
    const pos = this.i;
    const parts: WordPart[] = [];
    if (mode !== "elem" && this.ch() === "~") this.tilde(parts);
    for (;;) {
      if (this.eof()) break;
      const c = this.ch();
      if (c === "\\" && this.ch(1) === "\n") {
        this.i += 2;
        continue;
      }
      if (META.has(c)) {
        // extglob @( *( +( ?( !( continue the word
        if (c === "(" && parts.length) {
          const last = parts[parts.length - 1];
          if (last.type === "lit" && !last.quoted && /[@*+?!]$/.test(last.value) && (mode === "test" || !this.opts.extglob || this.opts.extglob())) {
            this.extglobGroup(parts);
            continue;
          }
        }
        if ((c === "<" || c === ">") && this.ch(1) === "(") {
          this.procSubst(parts);
          continue;
        }
        if (mode === "test" && (c === "<" || c === ">")) break;
        break;
      }
      if (mode === "normal" && c === "~" && parts.length === 1 && parts[0].type === "lit" && /^[A-Za-z_][A-Za-z0-9_]*=$/.test(parts[0].value)) {
        this.tilde(parts);
        if (parts.length > 1) continue;
      }
      if (mode === "assign" && c === ":" && this.ch(1) === "~") {
        parts.push({ type: "lit", value: ":" });
        this.i++;
        this.tilde(parts);
        continue;
      }
      this.wordPart(parts, mode);
    }
    if (!parts.length && !allowEmpty && mode !== "assign" && mode !== "elem") this.unexpected();
    return { parts: mergeLits(parts), pos };
  }

  private tilde(parts: WordPart[]): void {
    const m = /^~([A-Za-z0-9_.+-]*)(?=$|[/:\s;&|<>()}])/.exec(this.src.slice(this.i, this.i + 64));
    if (!m) return;
    parts.push({ type: "tilde", user: m[1] });
    this.i += m[0].length;
  }

  private extglobGroup(parts: WordPart[]): void {
    // copy a balanced (...) verbatim into a literal, keeping quotes as parts
    let depth = 0;
    let lit = "";
    const flush = () => {
      if (lit) {
        parts.push({ type: "lit", value: lit });
        lit = "";
      }
    };
    while (!this.eof()) {
      const c = this.ch();
      if (c === "(") depth++;
      if (c === ")") {
        depth--;
        if (depth === 0) {
          lit += c;
          this.i++;
          break;
        }
      }
      if (c === "\\" || c === "'" || c === '"' || c === "$" || c === "`") {
        flush();
        this.wordPart(parts, "normal");
        continue;
      }
      lit += c;
      this.i++;
    }
    flush();
  }

  private procSubst(parts: WordPart[]): void {
    const pos = this.i;
    const dir = this.ch() as "<" | ">";
    this.i += 2;
    const body = this.parseList([], true);
    if (this.ch() !== ")") this.fail("syntax error: unterminated process substitution", pos, true);
    this.i++;
    parts.push({ type: "procsub", dir, body, pos });
  }

  /** Parses one word part (or literal run) and appends to parts. */
  wordPart(parts: WordPart[], mode: WordMode): void {
    const c = this.ch();
    if (c === "'" && mode !== "heredoc" && mode !== "arith") {
      const end = this.src.indexOf("'", this.i + 1);
      if (end < 0) this.fail("unexpected EOF while looking for matching `''", this.i, true);
      parts.push({ type: "sq", value: this.src.slice(this.i + 1, end) });
      this.i = end + 1;
      return;
    }
    if (c === '"' && mode !== "heredoc") {
      this.i++;
      const inner: WordPart[] = [];
      for (;;) {
        if (this.eof()) this.fail("unexpected EOF while looking for matching `\"'", this.i, true);
        if (this.ch() === '"') {
          this.i++;
          break;
        }
        this.dqPart(inner, false);
      }
      parts.push({ type: "dq", parts: mergeLits(inner) });
      return;
    }
    if (c === "\\") {
      const n = this.ch(1);
      if (mode === "heredoc" || mode === "arith") {
        if (n === "$" || n === "`" || n === "\\" || n === "\n") {
          if (n !== "\n") parts.push({ type: "lit", value: n, quoted: true });
          this.i += 2;
        } else {
          parts.push({ type: "lit", value: "\\" });
          this.i++;
        }
        return;
      }
      if (n === "\n") {
        this.i += 2;
        return;
      }
      if (n === "") {
        parts.push({ type: "lit", value: "\\" });
        this.i++;
        return;
      }
      parts.push({ type: "lit", value: n, quoted: true });
      this.i += 2;
      return;
    }
    if (c === "$") {
      this.dollar(parts, mode === "heredoc" || mode === "arith");
      return;
    }
    if (c === "`") {
      this.backtick(parts);
      return;
    }
    // literal run
    let j = this.i + 1;
    const s = this.src;
    if (mode === "normal" || mode === "assign" || mode === "test" || mode === "elem") {
      while (j < s.length) {
        const d = s[j];
        if (META.has(d) || d === "'" || d === '"' || d === "\\" || d === "$" || d === "`") break;
        if (mode === "assign" && d === ":" && s[j + 1] === "~") break;
        if (d === "(") break;
        j++;
      }
    } else {
      while (j < s.length) {
        const d = s[j];
        if (d === "\\" || d === "$" || d === "`" || (d === '"' && mode !== "heredoc") || (d === "'" && mode !== "heredoc" && mode !== "arith")) break;
        j++;
      }
    }
    parts.push({ type: "lit", value: s.slice(this.i, j) });
    this.i = j;
  }

  /** One part inside double quotes (or a ${...} operand inside double quotes). */
  private dqPart(parts: WordPart[], inBraceArg: boolean): void {
    const c = this.ch();
    if (c === "\\") {
      const n = this.ch(1);
      if (n === "$" || n === "`" || n === '"' || n === "\\" || (inBraceArg && n === "}")) {
        parts.push({ type: "lit", value: n, quoted: true });
        this.i += 2;
      } else if (n === "\n") {
        this.i += 2;
      } else {
        parts.push({ type: "lit", value: "\\" });
        this.i++;
      }
      return;
    }
    if (c === "$") {
      this.dollar(parts, true);
      return;
    }
    if (c === "`") {
      this.backtick(parts, true);
      return;
    }
    let j = this.i + 1;
    const s = this.src;
    while (j < s.length && s[j] !== '"' && s[j] !== "\\" && s[j] !== "$" && s[j] !== "`" && !(inBraceArg && s[j] === "}")) j++;
    parts.push({ type: "lit", value: s.slice(this.i, j) });
    this.i = j;
  }

  private backtick(parts: WordPart[], inDq = false): void {
    const pos = this.i;
    this.i++;
    let text = "";
    for (;;) {
      if (this.eof()) this.fail("unexpected EOF while looking for matching ``'", pos, true);
      const c = this.ch();
      if (c === "`") {
        this.i++;
        break;
      }
      if (c === "\\" && ("$`\\".includes(this.ch(1)) || (inDq && this.ch(1) === '"'))) {
        text += this.ch(1);
        this.i += 2;
        continue;
      }
      text += c;
      this.i++;
    }
    const p = new Parser(text, this.opts);
    const body = p.parseProgram();
    parts.push({ type: "cmdsub", body, pos });
  }

  private dollar(parts: WordPart[], inDq: boolean): void {
    const pos = this.i;
    while (this.ch(1) === "\\" && this.ch(2) === "\n") this.src = this.src.slice(0, this.i + 1) + this.src.slice(this.i + 3);
    const n = this.ch(1);
    if (n === "'" && !inDq) {
      const { value, end } = ansiC(this.src, this.i + 2);
      if (end < 0) this.fail("unexpected EOF while looking for matching `''", pos, true);
      parts.push({ type: "sq", value });
      this.i = end;
      return;
    }
    if (n === '"' && !inDq) {
      this.i++;
      const from = this.i + 1;
      this.wordPart(parts, "normal");
      this.opts.localeString?.(this.src.slice(from, this.i - 1), pos);
      return;
    }
    if (n === "(" && this.ch(2) === "(") {
      const end = this.findArithEnd(this.i + 3);
      if (end >= 0) {
        const expr = this.subWord(this.src.slice(this.i + 3, end), "arith", this.i + 3);
        this.i = end + 2;
        parts.push({ type: "arith", expr, pos });
        return;
      }
    }
    if (n === "(") {
      this.i += 2;
      const body = this.parseList([], true);
      this.linebreaks();
      if (this.ch() !== ")") this.fail("unexpected EOF while looking for matching `)'", pos, true);
      this.i++;
      parts.push({ type: "cmdsub", body, pos });
      return;
    }
    if (n === "[") {
      const end = this.findBracketEnd(this.i + 2);
      if (end >= 0) {
        const expr = this.subWord(this.src.slice(this.i + 2, end), "arith", this.i + 2);
        this.i = end + 1;
        parts.push({ type: "arith", expr, pos });
        return;
      }
    }
    if (n === "{") {
      this.braceParam(parts, inDq);
      return;
    }
    if (/[A-Za-z_]/.test(n)) {
      let j = this.i + 2;
      while (j < this.src.length && /[A-Za-z0-9_]/.test(this.src[j])) j++;
      parts.push({ type: "param", name: this.src.slice(this.i + 1, j), short: true });
      this.i = j;
      return;
    }
    if (/[0-9@*#?$!-]/.test(n) && n !== "") {
      parts.push({ type: "param", name: n, short: true });
      this.i += 2;
      return;
    }
    parts.push({ type: "lit", value: "$" });
    this.i++;
  }

  private braceParam(parts: WordPart[], inDq: boolean): void {
    const start = this.i;
    const n = parts.length;
    try {
      this.braceParamInner(parts, inDq);
    } catch (e) {
      if (!(e instanceof BadSubst)) throw e;
      // reported when expanded, as bash does
      parts.length = n;
      this.i = e.end;
      parts.push({ type: "param", name: "", op: "bad", arg: { parts: [{ type: "lit", value: e.text }], pos: start } });
    }
  }

  private braceParamInner(parts: WordPart[], inDq: boolean): void {
    const pos = this.i;
    this.i += 2;
    const pe: ParamExp = { type: "param", name: "" };
    const s = this.src;
    const bad = (): never => {
      // consume to the closing brace for the message
      let depth = 1;
      let j = this.i;
      while (j < s.length && depth) {
        if (s[j] === "{") depth++;
        else if (s[j] === "}") depth--;
        j++;
      }
      throw new BadSubst(`\${${s.slice(pos + 2, j - 1)}}`, j);
    };
    if (this.ch() === "#") {
      const c1 = this.ch(1);
      const c2 = this.ch(2);
      const hashWithOp = c1 === "}" || ("-=?+:%/#".includes(c1) && c2 !== "}");
      if (!hashWithOp) {
        pe.length = true;
        this.i++;
      }
    } else if (this.ch() === "!" && this.ch(1) !== "}") {
      pe.indirect = true;
      this.i++;
    }
    // name
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!0-])/.exec(s.slice(this.i, this.i + 256));
    if (!m) bad();
    pe.name = m![1];
    this.i += pe.name.length;
    if (this.ch() === "[") {
      const end = this.findBracketEnd(this.i + 1);
      if (end < 0) bad();
      const inner = s.slice(this.i + 1, end);
      pe.index = inner === "@" || inner === "*" ? { parts: [{ type: "lit", value: inner }], pos: this.i } : this.subWord(inner, "index", this.i + 1);
      this.i = end + 1;
    }
    if (pe.indirect && (this.ch() === "*" || this.ch() === "@") && this.ch(1) === "}") {
      pe.indirect = false;
      pe.prefixNames = this.ch() as "*" | "@";
      this.i += 2;
      parts.push(pe);
      return;
    }
    if (pe.indirect && pe.index && ["@", "*"].includes(litText(pe.index) ?? "") && this.ch() === "}") {
      pe.indirect = false;
      pe.keys = true;
    }
    if (this.ch() === "}") {
      this.i++;
      parts.push(pe);
      return;
    }
    if (pe.length) bad();
    // operator
    const ops = [":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%", "//", "/#", "/%", "/", "^^", "^", ",,", ",", "~~", "~", ":", "@"];
    let op = "";
    for (const o of ops)
      if (s.startsWith(o, this.i)) {
        op = o;
        break;
      }
    if (!op) bad();
    this.i += op.length;
    pe.op = op;
    if (op === "@") {
      const c = this.ch();
      this.i++;
      if (this.ch() !== "}") bad();
      this.i++;
      pe.arg = { parts: [{ type: "lit", value: c }], pos: this.i };
      parts.push(pe);
      return;
    }
    if (op === ":") {
      const offEnd = this.scanArith(this.i, ":}");
      pe.arg = this.subWord(s.slice(this.i, offEnd), "arith", this.i);
      this.i = offEnd;
      if (this.ch() === ":") {
        const lenEnd = this.scanArith(this.i + 1, "}");
        pe.arg2 = this.subWord(s.slice(this.i + 1, lenEnd), "arith", this.i + 1);
        this.i = lenEnd;
      }
      if (this.ch() !== "}") bad();
      this.i++;
      parts.push(pe);
      return;
    }
    if (op.startsWith("/")) {
      // After `//` a leading `/` belongs to the pattern (`${v////x}`); after `/#` and `/%` it
      // ends an empty one (`${v/#/x}` prefixes x).
      pe.arg = this.braceArg(inDq, true, true, op === "/#" || op === "/%");
      if (this.ch() === "/") {
        this.i++;
        pe.arg2 = this.braceArg(inDq, false, false);
      }
    } else {
      pe.arg = this.braceArg(inDq, false, /^[#%]/.test(op));
    }
    if (this.ch() !== "}") this.fail("unexpected EOF while looking for matching `}'", pos, true);
    this.i++;
    parts.push(pe);
  }

  private scanArith(from: number, stops: string): number {
    let depth = 0;
    let j = from;
    const s = this.src;
    while (j < s.length) {
      const c = s[j];
      if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || (c === "}" && depth > 0)) depth--;
      else if (depth === 0 && stops.includes(c)) {
        // a ?: ternary inside the offset keeps its colon
        if (c === ":" && s.slice(from, j).includes("?")) {
          j++;
          continue;
        }
        return j;
      }
      j++;
    }
    return j;
  }

  /** Operand of ${x OP word}: ends at an unquoted `}` (or `/` for patterns). */
  private braceArg(inDq: boolean, stopSlash: boolean, patternOp = false, slashFirst = false): Word {
    const pos = this.i;
    const parts: WordPart[] = [];
    let depth = 0;
    if (this.ch() === "~" && !inDq) this.tilde(parts);
    while (!this.eof()) {
      const c = this.ch();
      if (c === "}" && depth === 0) break;
      if (c === ":" && !inDq && this.ch(1) === "~" && !stopSlash) {
        parts.push({ type: "lit", value: ":" });
        this.i++;
        this.tilde(parts);
        continue;
      }
      if (stopSlash && c === "/" && depth === 0 && (this.i > pos || slashFirst)) break;
      if (inDq && c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end > 0) {
          if (patternOp) parts.push({ type: "sq", value: this.src.slice(this.i + 1, end) });
          else parts.push({ type: "lit", value: this.src.slice(this.i, end + 1) });
          this.i = end + 1;
          continue;
        }
      }
      if (inDq && patternOp && c === "$" && this.ch(1) === "'") {
        this.dollar(parts, false);
        continue;
      }
      if (inDq) {
        if (c === '"') {
          // nested quotes inside "${x:-"a"}" toggle quoting; treat as a dq group
          this.i++;
          const inner: WordPart[] = [];
          while (!this.eof() && this.ch() !== '"') this.dqPart(inner, false);
          this.i++;
          parts.push({ type: "dq", parts: mergeLits(inner) });
          continue;
        }
        if (c === "'") {
          // single quotes are literal inside double quotes, but still balanced for ${x#'a'}
          parts.push({ type: "lit", value: "'" });
          this.i++;
          continue;
        }
        if (c === "\\" || c === "$" || c === "`") {
          this.dqPart(parts, true);
          continue;
        }
        let j = this.i + 1;
        while (j < this.src.length && !"}\"'\\$`/{".includes(this.src[j])) j++;
        if (c === "{") depth++;
        parts.push({ type: "lit", value: this.src.slice(this.i, Math.max(j, this.i + 1)) });
        this.i = Math.max(j, this.i + 1);
        continue;
      }
      if (c === "{") {
        depth++;
        parts.push({ type: "lit", value: c });
        this.i++;
        continue;
      }
      if (c === "}") {
        depth--;
        parts.push({ type: "lit", value: c });
        this.i++;
        continue;
      }
      if (c === "'" || c === '"' || c === "\\" || c === "$" || c === "`") {
        this.wordPart(parts, "normal");
        continue;
      }
      let j = this.i + 1;
      while (j < this.src.length && !"{}\"'\\$`/".includes(this.src[j])) j++;
      parts.push({ type: "lit", value: this.src.slice(this.i, j) });
      this.i = j;
    }
    return { parts: mergeLits(parts), pos };
  }
}

class BadSubst {
  constructor(
    public text: string,
    public end: number,
  ) {}
}

export type WordMode = "normal" | "assign" | "test" | "heredoc" | "arith" | "index" | "elem";

function mergeLits(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (p.type === "lit" && last && last.type === "lit" && !!last.quoted === !!p.quoted) {
      out[out.length - 1] = { type: "lit", value: last.value + p.value, quoted: last.quoted };
    } else out.push(p);
  }
  return out;
}

/**
 * Quote removal on a here-document delimiter as written: single quotes keep everything, inside
 * double quotes a backslash escapes only $ ` " \ (so `"E\OF"` is E\OF), outside it escapes any.
 */
function removeDelimQuotes(raw: string): string {
  let out = "";
  let q: "'" | '"' | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (q === "'") {
      if (c === "'") q = null;
      else out += c;
    } else if (c === "\\" && i + 1 < raw.length && (q === null || '$`"\\'.includes(raw[i + 1]!))) {
      out += raw[++i];
    } else if (c === q) q = null;
    else if (q === null && (c === "'" || c === '"')) q = c;
    else out += c;
  }
  return out;
}

function splitTopSemis(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of text) {
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (c === ";" && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Decodes $'...' starting after the quote; returns the value and index after the closing quote. */
export function ansiC(src: string, from: number): { value: string; end: number } {
  let out = "";
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === "'") return { value: joinBytes(out), end: i + 1 };
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const n = src[i + 1];
    i += 2;
    switch (n) {
      case "n":
        out += "\n";
        break;
      case "t":
        out += "\t";
        break;
      case "r":
        out += "\r";
        break;
      case "a":
        out += "\x07";
        break;
      case "b":
        out += "\b";
        break;
      case "e":
      case "E":
        out += "\x1b";
        break;
      case "f":
        out += "\f";
        break;
      case "v":
        out += "\v";
        break;
      case "\\":
        out += "\\";
        break;
      case "'":
        out += "'";
        break;
      case '"':
        out += '"';
        break;
      case "?":
        out += "?";
        break;
      case "c": {
        const k = src[i];
        i++;
        out += String.fromCharCode((k ?? "@").toUpperCase().charCodeAt(0) ^ 64);
        break;
      }
      case "x": {
        const m = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i, i + 2));
        if (m) {
          out += byteChar(parseInt(m[0], 16));
          i += m[0].length;
        } else out += "\\x";
        break;
      }
      case "u":
      case "U": {
        const m = (n === "u" ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(src.slice(i, i + 8));
        if (m) {
          out += String.fromCodePoint(parseInt(m[0], 16));
          i += m[0].length;
        } else out += "\\" + n;
        break;
      }
      default:
        if (n !== undefined && /[0-7]/.test(n)) {
          const m = /^[0-7]{1,3}/.exec(src.slice(i - 1, i + 2))!;
          out += byteChar(parseInt(m[0], 8) & 255);
          i += m[0].length - 1;
        } else out += "\\" + (n ?? "");
    }
  }
  return { value: joinBytes(out), end: -1 };
}

export function parse(src: string, opts?: ParserOptions): Stmt[] {
  return new Parser(src, opts).parseProgram();
}

/** 1-based line number of an offset. */
export function lineOf(src: string, pos: number): number {
  let n = 1;
  for (let k = 0; k < pos && k < src.length; k++) if (src.charCodeAt(k) === 10) n++;
  return n;
}
