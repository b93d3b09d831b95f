// A reader for the part of RON (Rusty Object Notation) a workflow uses: named and anonymous
// structs `Name(field: value)`, tuples `Name(a, b)`, units `None`, lists, maps, strings (with
// Rust escapes, and raw strings r#"..."#), numbers, booleans, comments (`//`, nested `/* */`),
// trailing commas and a leading `#![enable(...)]`. No npm package reads RON; this one is small
// and every error names the line and column.

export interface Pos {
  line: number;
  column: number;
}

export type RonValue =
  | { kind: "string"; value: string; at: Pos }
  | { kind: "number"; value: number; at: Pos }
  | { kind: "bool"; value: boolean; at: Pos }
  | { kind: "list"; items: RonValue[]; at: Pos }
  | { kind: "map"; entries: [RonValue, RonValue][]; at: Pos }
  | { kind: "struct"; name: string | null; fields: Map<string, { value: RonValue; at: Pos }>; at: Pos }
  | { kind: "tuple"; name: string | null; items: RonValue[]; at: Pos }
  | { kind: "unit"; name: string | null; at: Pos };

export class RonError extends Error {
  constructor(
    readonly at: Pos,
    what: string,
  ) {
    super(`line ${at.line}, column ${at.column}: ${what}`);
  }
}

export interface RonLimits {
  maxBytes: number;
  maxDepth: number;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;
const NUMBER = /[+-]?(?:\d[\d_]*)?(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?/y;
const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** Where each offset of `text` is, for messages. */
function posAt(text: string, offset: number): Pos {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * The size and nesting guard, run before the parser: a cheap scan that skips strings and
 * comments and counts brackets, so an oversized or deeply nested document is refused without
 * being parsed (the parser recurses once per level).
 */
export function checkRonLimits(text: string, limits: RonLimits): void {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > limits.maxBytes) {
    throw new RonError({ line: 1, column: 1 }, `the workflow is ${bytes} bytes; at most ${limits.maxBytes} are accepted. Split it into smaller workflows.`);
  }
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      let nest = 0;
      for (; i < text.length; i++) {
        if (text[i] === "/" && text[i + 1] === "*") nest++, i++;
        else if (text[i] === "*" && text[i + 1] === "/" && (i++, --nest === 0)) break;
      }
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "r" && /^r#*"/.test(text.slice(i, i + 258)) && !IDENT.test(text[i - 1] ?? "")) {
      const hashes = /^r(#*)"/.exec(text.slice(i, i + 258))![1]!;
      const end = text.indexOf(`"${hashes}`, i + hashes.length + 2);
      i = end < 0 ? text.length : end + hashes.length;
    } else if (OPEN[c]) {
      if (++depth > limits.maxDepth) {
        throw new RonError(posAt(text, i), `the workflow nests more than ${limits.maxDepth} levels deep; flatten it.`);
      }
    } else if (c === ")" || c === "]" || c === "}") {
      depth = Math.max(0, depth - 1);
    }
  }
}

/** Parses one RON value (the whole text). Call checkRonLimits first. */
export function parseRon(text: string): RonValue {
  return new Parser(text).document();
}

class Parser {
  private i = 0;
  /** Offsets where each line starts, so a position costs a binary search, not a scan. */
  private readonly lineStarts: number[] = [0];
  constructor(private readonly s: string) {
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  private pos(at = this.i): Pos {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - this.lineStarts[lo]! + 1 };
  }

  private fail(what: string, at = this.i): never {
    throw new RonError(this.pos(at), what);
  }

  private found(): string {
    if (this.i >= this.s.length) return "the end of the text";
    return `'${this.s[this.i]}'`;
  }

  private skip(): void {
    for (;;) {
      while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
      if (this.s.startsWith("//", this.i)) {
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
      } else if (this.s.startsWith("/*", this.i)) {
        const start = this.i;
        let nest = 0;
        do {
          if (this.i >= this.s.length) this.fail("this comment is never closed with */", start);
          if (this.s.startsWith("/*", this.i)) nest++, (this.i += 2);
          else if (this.s.startsWith("*/", this.i)) nest--, (this.i += 2);
          else this.i++;
        } while (nest > 0);
      } else return;
    }
  }

  private expect(c: string, context: string): void {
    this.skip();
    if (this.s[this.i] !== c) this.fail(`expected '${c}' ${context}, found ${this.found()}`);
    this.i++;
  }

  document(): RonValue {
    this.skip();
    while (this.s.startsWith("#![", this.i)) {
      const end = this.s.indexOf("]", this.i);
      if (end < 0) this.fail("this #![...] attribute is never closed with ]");
      this.i = end + 1;
      this.skip();
    }
    if (this.i >= this.s.length) this.fail('the workflow is empty; write Workflow(name: "...", steps: [...])');
    const v = this.value();
    this.skip();
    if (this.i < this.s.length) this.fail(`unexpected ${this.found()} after the end of the value`);
    return v;
  }

  private value(): RonValue {
    this.skip();
    const at = this.pos();
    const c = this.s[this.i];
    if (c === undefined) this.fail("expected a value, found the end of the text");
    if (c === '"') return { kind: "string", value: this.string(), at };
    if (c === "r" && /^r#*"/.test(this.s.slice(this.i, this.i + 258))) return { kind: "string", value: this.rawString(), at };
    if (c === "[") return { kind: "list", items: this.sequence("[", "]", "list"), at };
    if (c === "{") return this.map(at);
    if (c === "(") return this.parens(null, at);
    if (c === "-" || c === "+" || c === "." || /\d/.test(c)) return { kind: "number", value: this.number(), at };
    if (c === "'") this.fail("character literals are not used in a workflow; write a string in double quotes");
    if (IDENT_START.test(c)) {
      const name = this.ident();
      if (name === "true" || name === "false") return { kind: "bool", value: name === "true", at };
      this.skip();
      if (this.s[this.i] === "(") return this.parens(name, at);
      return { kind: "unit", name, at };
    }
    return this.fail(`expected a value, found ${this.found()}`);
  }

  private ident(): string {
    const start = this.i;
    while (this.i < this.s.length && IDENT.test(this.s[this.i]!)) this.i++;
    return this.s.slice(start, this.i);
  }

  private string(): string {
    const start = this.i++;
    let out = "";
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail('this string is never closed with "', start);
      this.i++;
      if (c === '"') return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'" };
      if (e !== undefined && e in simple) out += simple[e];
      else if (e === "\n")
        while (/\s/.test(this.s[this.i] ?? "")) this.i++; // a line continuation
      else if (e === "x" && /^[0-7][0-9a-fA-F]$/.test(this.s.slice(this.i, this.i + 2))) {
        out += String.fromCharCode(parseInt(this.s.slice(this.i, this.i + 2), 16));
        this.i += 2;
      } else if (e === "u" && this.s[this.i] === "{") {
        const m = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.s.slice(this.i, this.i + 9));
        const code = m ? parseInt(m[1]!, 16) : NaN;
        if (!m || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) this.fail("a \\u{...} escape needs 1 to 6 hex digits naming a Unicode scalar value", this.i - 2);
        out += String.fromCodePoint(code);
        this.i += m[0].length;
      } else this.fail(`unknown escape '\\${e ?? ""}' in a string; use \\n, \\t, \\", \\\\ or \\u{...}`, this.i - 2);
    }
  }

  private rawString(): string {
    const start = this.i;
    const hashes = /^r(#*)"/.exec(this.s.slice(this.i, this.i + 258))![1]!;
    const open = this.i + 2 + hashes.length;
    const end = this.s.indexOf(`"${hashes}`, open);
    if (end < 0) this.fail(`this raw string is never closed with "${hashes}`, start);
    this.i = end + 1 + hashes.length;
    return this.s.slice(open, end);
  }

  private number(): number {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    const text = m?.[0] ?? "";
    const n = Number(text.replace(/_/g, ""));
    if (!/\d/.test(text) || !Number.isFinite(n)) this.fail(`expected a number, found ${this.found()}`);
    this.i += text.length;
    if (IDENT.test(this.s[this.i] ?? "")) this.fail(`unexpected '${this.s[this.i]}' in a number`);
    return n;
  }

  /** `open item, item, close` with an optional trailing comma. */
  private sequence(open: string, close: string, what: string): RonValue[] {
    this.expect(open, `to open a ${what}`);
    const items: RonValue[] = [];
    for (;;) {
      this.skip();
      if (this.s[this.i] === close) break;
      items.push(this.value());
      this.skip();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== close) this.fail(`expected ',' or '${close}' in a ${what}, found ${this.found()}`);
    }
    this.i++;
    return items;
  }

  private map(at: Pos): RonValue {
    this.i++;
    const entries: [RonValue, RonValue][] = [];
    for (;;) {
      this.skip();
      if (this.s[this.i] === "}") break;
      const key = this.value();
      this.expect(":", "after a map key");
      entries.push([key, this.value()]);
      this.skip();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "}") this.fail(`expected ',' or '}' in a map, found ${this.found()}`);
    }
    this.i++;
    return { kind: "map", entries, at };
  }

  /** After `Name` or at `(`: a struct when the first item is `ident:`, else a tuple. */
  private parens(name: string | null, at: Pos): RonValue {
    const save = this.i;
    this.i++;
    this.skip();
    const fieldStart = this.i;
    const first = IDENT_START.test(this.s[this.i] ?? "") ? this.ident() : "";
    this.skip();
    const isStruct = first !== "" && this.s[this.i] === ":" && this.s[this.i + 1] !== ":";
    this.i = save;
    if (!isStruct) {
      const items = this.sequence("(", ")", name ? `${name}(...)` : "tuple");
      return items.length === 0 && name === null ? { kind: "unit", name: null, at } : { kind: "tuple", name, items, at };
    }
    this.i = fieldStart;
    const fields = new Map<string, { value: RonValue; at: Pos }>();
    for (;;) {
      this.skip();
      if (this.s[this.i] === ")") break;
      const fieldAt = this.pos();
      if (!IDENT_START.test(this.s[this.i] ?? "")) this.fail(`expected a field name in ${name ?? "a struct"}(...), found ${this.found()}`);
      const field = this.ident();
      if (fields.has(field)) this.fail(`the field '${field}' is given twice`, this.i - field.length);
      this.expect(":", `after the field name '${field}'`);
      fields.set(field, { value: this.value(), at: fieldAt });
      this.skip();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== ")") this.fail(`expected ',' or ')' after the field '${field}', found ${this.found()}`);
    }
    this.i++;
    return { kind: "struct", name, fields, at };
  }
}
