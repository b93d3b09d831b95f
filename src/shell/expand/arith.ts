// Shell arithmetic: parse an already-expanded string, evaluate with 64-bit wrap-around
// (BigInt.asIntN), variables evaluated recursively as bash does.

export class ArithError extends Error {
  constructor(
    message: string,
    public fatal = true,
  ) {
    super(message);
  }
}

export type ANode =
  | { t: "num"; v: bigint }
  | { t: "var"; name: string; index?: string; indexNode?: ANode }
  | { t: "un"; op: string; e: ANode }
  | { t: "bin"; op: string; l: ANode; r: ANode }
  | { t: "asg"; op: string; target: ANode & { t: "var" }; e: ANode }
  | { t: "inc"; op: "++" | "--"; post: boolean; target: ANode & { t: "var" } }
  | { t: "tern"; c: ANode; a: ANode; b: ANode }
  | { t: "comma"; l: ANode; r: ANode }
  | { t: "empty" };

export interface ArithEnv {
  get(name: string, index: string | undefined, node: ANode | undefined): string;
  set(name: string, index: string | undefined, node: ANode | undefined, value: string): void;
  isAssoc(name: string): boolean;
}

const cache = new Map<string, ANode>();

export function parseArith(src: string): ANode {
  let n = cache.get(src);
  if (!n) {
    n = new ArithParser(src).parseAll();
    if (cache.size > 2000) cache.clear();
    cache.set(src, n);
  }
  return n;
}

const BIN_PREC: Record<string, number> = {
  "||": 1,
  "&&": 2,
  "|": 3,
  "^": 4,
  "&": 5,
  "==": 6,
  "!=": 6,
  "<": 7,
  ">": 7,
  "<=": 7,
  ">=": 7,
  "<<": 8,
  ">>": 8,
  "+": 9,
  "-": 9,
  "*": 10,
  "/": 10,
  "%": 10,
};
const ASSIGN_OPS = ["<<=", ">>=", "**=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "="];

class ArithParser {
  i = 0;
  /** Where the last token read starts: bash's error token is the text from there to the end
   * (at the end of the expression, the token before it: `1 +` -> "+"). */
  private lastTp = 0;
  constructor(private s: string) {}
  private ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
    if (this.i < this.s.length) this.lastTp = this.i;
  }
  private err(msg?: string): never {
    this.ws();
    const tok = this.s.slice(this.lastTp);
    throw new ArithError(`${this.s.trimStart()}: ${msg ?? "syntax error: operand expected"} (error token is "${tok}")`);
  }
  parseAll(): ANode {
    this.ws();
    if (this.i >= this.s.length) return { t: "empty" };
    const e = this.comma();
    this.ws();
    // a character no operator starts with (`1.5`, `1 @ 2`) is bash's "invalid arithmetic operator"
    if (this.i < this.s.length) this.err(/[\w+\-*/%<>=!&|^~?:,()\s]/.test(this.s[this.i]) ? "syntax error in expression" : "syntax error: invalid arithmetic operator");
    return e;
  }
  private atEnd(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }
  private peek(op: string): boolean {
    this.ws();
    return this.s.startsWith(op, this.i);
  }
  private comma(): ANode {
    let l = this.assign();
    while (this.peek(",")) {
      this.i++;
      l = { t: "comma", l, r: this.assign() };
    }
    return l;
  }
  private assign(): ANode {
    const save = this.i;
    const lhs = this.ternary();
    this.ws();
    if (lhs.t === "var") {
      for (const op of ASSIGN_OPS) {
        if (this.s.startsWith(op, this.i) && !(op === "=" && this.s[this.i + 1] === "=")) {
          this.i += op.length;
          if (this.atEnd()) this.err();
          const e = this.assign();
          return { t: "asg", op, target: lhs, e };
        }
      }
    }
    void save;
    // `1 = 2`: an assignment operator after something that is not a variable
    if (ASSIGN_OPS.some((op) => this.s.startsWith(op, this.i) && !(op === "=" && this.s[this.i + 1] === "="))) this.err("attempted assignment to non-variable");
    return lhs;
  }
  private ternary(): ANode {
    const c = this.binary(1);
    if (this.peek("?")) {
      this.i++;
      if (this.atEnd() || this.s[this.i] === ":") this.err("expression expected");
      const a = this.assign();
      if (!this.peek(":")) this.err("`:' expected for conditional expression");
      this.i++;
      if (this.atEnd()) this.err("expression expected");
      const b = this.assign();
      return { t: "tern", c, a, b };
    }
    return c;
  }
  private binop(): string | null {
    this.ws();
    const s = this.s;
    const i = this.i;
    for (const op of ["||", "&&", "==", "!=", "<=", ">=", "<<", ">>"]) {
      if (s.startsWith(op, i)) {
        if ((op === "<<" || op === ">>") && s[i + 2] === "=") return null;
        return op;
      }
    }
    const c = s[i];
    if ("|^&<>+-*/%".includes(c) && c !== undefined) {
      if (s[i + 1] === "=") return null; // compound assignment
      if (c === "*" && s[i + 1] === "*") return null;
      if ((c === "+" || c === "-") && s[i + 1] === c) return null;
      return c;
    }
    return null;
  }
  private binary(minPrec: number): ANode {
    let l = this.power();
    for (;;) {
      const op = this.binop();
      if (!op) return l;
      const p = BIN_PREC[op];
      if (p < minPrec) return l;
      this.i += op.length;
      const r = this.binary(p + 1);
      l = { t: "bin", op, l, r };
    }
  }
  private power(): ANode {
    const b = this.unary();
    if (this.peek("**") && this.s[this.i + 2] !== "=") {
      this.i += 2;
      const e = this.power(); // right-associative
      return { t: "bin", op: "**", l: b, r: e };
    }
    return b;
  }
  private unary(): ANode {
    this.ws();
    const s = this.s;
    if (s.startsWith("++", this.i) || s.startsWith("--", this.i)) {
      const op = s.slice(this.i, this.i + 2) as "++" | "--";
      const save = this.i;
      this.i += 2;
      this.ws();
      if (/[A-Za-z_]/.test(s[this.i] ?? "")) {
        const target = this.variable();
        return { t: "inc", op, post: false, target };
      }
      this.i = save + 1;
      return { t: "un", op: op[0], e: this.unary() };
    }
    const c = s[this.i];
    if (c === "!" || c === "~" || c === "-" || c === "+") {
      this.i++;
      return { t: "un", op: c, e: this.unary() };
    }
    return this.postfix();
  }
  private postfix(): ANode {
    const e = this.primary();
    if (e.t === "var") {
      this.ws();
      if (this.s.startsWith("++", this.i) || this.s.startsWith("--", this.i)) {
        const op = this.s.slice(this.i, this.i + 2) as "++" | "--";
        this.i += 2;
        return { t: "inc", op, post: true, target: e };
      }
    }
    return e;
  }
  private variable(): ANode & { t: "var" } {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))!;
    this.i += m[0].length;
    const node: ANode & { t: "var" } = { t: "var", name: m[0] };
    if (this.s[this.i] === "[") {
      let depth = 0;
      let j = this.i;
      for (; j < this.s.length; j++) {
        if (this.s[j] === "[") depth++;
        else if (this.s[j] === "]" && --depth === 0) break;
      }
      if (j >= this.s.length) {
        this.lastTp = this.i - m[0].length;
        this.i = this.s.length;
        this.err("bad array subscript");
      }
      node.index = this.s.slice(this.i + 1, j);
      this.i = j + 1;
    }
    return node;
  }
  private primary(): ANode {
    this.ws();
    const s = this.s;
    const c = s[this.i];
    if (c === undefined) this.err();
    if (c === "(") {
      this.i++;
      const e = this.comma();
      if (!this.peek(")")) this.err("syntax error: missing `)'");
      this.i++;
      return e;
    }
    if (/[0-9]/.test(c)) {
      const m = /^[0-9][0-9A-Za-z_@#]*/.exec(s.slice(this.i))!;
      this.i += m[0].length;
      return { t: "num", v: parseNumber(m[0]) };
    }
    if (/[A-Za-z_]/.test(c)) return this.variable();
    this.err();
  }
}

function parseNumber(tok: string): bigint {
  let base = 10;
  let digits = tok;
  const hash = tok.indexOf("#");
  if (hash > 0) {
    base = parseInt(tok.slice(0, hash), 10);
    digits = tok.slice(hash + 1);
    if (base < 2 || base > 64) throw new ArithError(`${tok}: invalid arithmetic base (error token is "${tok}")`);
  } else if (/^0[xX]/.test(tok)) {
    base = 16;
    digits = tok.slice(2);
    if (!digits.length) return 0n; // bash reads a bare `0x` as 0
  } else if (tok.length > 1 && tok[0] === "0") {
    base = 8;
    digits = tok.slice(1);
  }
  if (!digits.length) throw new ArithError(`${tok}: ${hash > 0 ? "invalid integer constant" : "invalid number"} (error token is "${tok}")`);
  let v = 0n;
  const B = BigInt(base);
  for (const ch of digits) {
    let d: number;
    if (ch >= "0" && ch <= "9") d = ch.charCodeAt(0) - 48;
    else if (ch >= "a" && ch <= "z") d = ch.charCodeAt(0) - 97 + 10;
    else if (ch >= "A" && ch <= "Z") d = base <= 36 ? ch.charCodeAt(0) - 65 + 10 : ch.charCodeAt(0) - 65 + 36;
    else if (ch === "@") d = 62;
    else if (ch === "_") d = 63;
    else d = 99;
    if (d >= base) throw new ArithError(`${tok}: value too great for base (error token is "${tok}")`);
    v = BigInt.asIntN(64, v * B + BigInt(d));
  }
  return v;
}

const wrap = (v: bigint) => BigInt.asIntN(64, v);
const DEC_RE = /^-?[0-9]+$/;

export function evalArith(node: ANode, env: ArithEnv, depth = 0): bigint {
  switch (node.t) {
    case "num":
      return node.v;
    case "empty":
      return 0n;
    case "var":
      return varValue(node, env, depth);
    case "un": {
      const v = evalArith(node.e, env, depth);
      switch (node.op) {
        case "-":
          return wrap(-v);
        case "+":
          return v;
        case "!":
          return v === 0n ? 1n : 0n;
        case "~":
          return wrap(~v);
      }
      throw new ArithError("bad unary op");
    }
    case "bin": {
      if (node.op === "&&") return evalArith(node.l, env, depth) !== 0n && evalArith(node.r, env, depth) !== 0n ? 1n : 0n;
      if (node.op === "||") return evalArith(node.l, env, depth) !== 0n || evalArith(node.r, env, depth) !== 0n ? 1n : 0n;
      const l = evalArith(node.l, env, depth);
      const r = evalArith(node.r, env, depth);
      return binop(node.op, l, r);
    }
    case "asg": {
      const t = node.target;
      let v = evalArith(node.e, env, depth);
      if (node.op !== "=") v = binop(node.op.slice(0, -1), varValue(t, env, depth), v);
      env.set(t.name, indexKey(t, env), t.indexNode, v.toString());
      return v;
    }
    case "inc": {
      const t = node.target;
      const old = varValue(t, env, depth);
      const nv = wrap(node.op === "++" ? old + 1n : old - 1n);
      env.set(t.name, indexKey(t, env), t.indexNode, nv.toString());
      return node.post ? old : nv;
    }
    case "tern":
      return evalArith(node.c, env, depth) !== 0n ? evalArith(node.a, env, depth) : evalArith(node.b, env, depth);
    case "comma":
      evalArith(node.l, env, depth);
      return evalArith(node.r, env, depth);
  }
}

function indexKey(t: ANode & { t: "var" }, env: ArithEnv): string | undefined {
  if (t.index === undefined) return undefined;
  if (env.isAssoc(t.name)) return t.index.replace(/^(['"])(.*)\1$/s, "$2");
  if (!t.indexNode) t.indexNode = parseArith(t.index);
  return evalArith(t.indexNode, env).toString();
}

function varValue(node: ANode & { t: "var" }, env: ArithEnv, depth: number): bigint {
  const s = env.get(node.name, indexKey(node, env), node.indexNode);
  if (s === "") return 0n;
  if (DEC_RE.test(s) && s.length < 16) return BigInt(s);
  if (depth > 100) throw new ArithError(`${node.name}: expression recursion level exceeded`);
  return evalArith(parseArith(s), env, depth + 1);
}

function binop(op: string, l: bigint, r: bigint): bigint {
  switch (op) {
    case "+":
      return wrap(l + r);
    case "-":
      return wrap(l - r);
    case "*":
      return wrap(l * r);
    case "/":
      if (r === 0n) throw new ArithError('division by 0 (error token is "0")');
      if (l === -(2n ** 63n) && r === -1n) return l;
      return wrap(l / r);
    case "%":
      if (r === 0n) throw new ArithError('division by 0 (error token is "0")');
      if (r === -1n) return 0n;
      return wrap(l % r);
    case "**":
      if (r < 0n) throw new ArithError('exponent less than 0 (error token is "' + r + '")');
      return powMod(l, r);
    case "<<":
      return wrap(l << (r & 63n));
    case ">>":
      return wrap(l >> (r & 63n));
    case "&":
      return wrap(l & r);
    case "|":
      return wrap(l | r);
    case "^":
      return wrap(l ^ r);
    case "==":
      return l === r ? 1n : 0n;
    case "!=":
      return l !== r ? 1n : 0n;
    case "<":
      return l < r ? 1n : 0n;
    case ">":
      return l > r ? 1n : 0n;
    case "<=":
      return l <= r ? 1n : 0n;
    case ">=":
      return l >= r ? 1n : 0n;
  }
  throw new ArithError(`unknown operator ${op}`);
}

function powMod(b: bigint, e: bigint): bigint {
  let r = 1n;
  let base = wrap(b);
  while (e > 0n) {
    if (e & 1n) r = wrap(r * base);
    base = wrap(base * base);
    e >>= 1n;
  }
  return r;
}
