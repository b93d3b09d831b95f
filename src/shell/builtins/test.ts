// test / [ and the operators shared with [[ ]].
import { dynamicKey, splitSubscript } from "../expand/word";
import type { Fd, Shell } from "../interp/shell";
import { ShellError } from "../interp/vars";
import { ArithError } from "../expand/arith";
import { berr } from "./io";
import { binaryTest, unaryTest } from "../interp/test-eval";

const UNARY = new Set([
  "-n",
  "-z",
  "-e",
  "-a",
  "-f",
  "-d",
  "-s",
  "-r",
  "-w",
  "-x",
  "-c",
  "-L",
  "-h",
  "-b",
  "-p",
  "-S",
  "-g",
  "-u",
  "-k",
  "-N",
  "-O",
  "-G",
  "-t",
  "-v",
  "-o",
]);
const BINARY = new Set(["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"]);

/** test / [ : POSIX rules by argument count, then a recursive parser for -a -o ( ). */
// Synchronous unless it has something to say or a `-v` subscript to expand: `[ ]` is the
// condition of many a hot loop.
export function testBuiltin(sh: Shell, argv: string[], fds: Fd[]): number | Promise<number> {
  const name = argv[0];
  if (name === "[" && argv[argv.length - 1] !== "]") return berr(sh, fds, "[", "missing `]'").then(() => 2);
  const args = argv.slice(1, name === "[" ? -1 : argv.length);
  return args.includes("-v") ? expandVarSubscripts(sh, name, args, fds) : judge(sh, name, args, fds);
}

async function expandVarSubscripts(sh: Shell, name: string, args: string[], fds: Fd[]): Promise<number> {
  // -v 'A[$key]': an associative subscript is expanded like any other (quotes, $x, $(...))
  for (let k = 1; k < args.length; k++) {
    if (args[k - 1] !== "-v") continue;
    const m = splitSubscript(args[k]);
    if (m && /[$`'"\\]/.test(m.sub) && sh.isAssoc(m.name)) args[k] = `${m.name}[${await dynamicKey(sh, m.name, m.sub)}]`;
  }
  return judge(sh, name, args, fds);
}

function judge(sh: Shell, name: string, args: string[], fds: Fd[]): number | Promise<number> {
  try {
    return evalArgs(sh, args, fds) ? 0 : 1;
  } catch (e) {
    if (e instanceof ShellError || e instanceof ArithError) return berr(sh, fds, name, e.message).then(() => 2);
    throw e;
  }
}

function evalArgs(sh: Shell, a: string[], fds: Fd[]): boolean {
  switch (a.length) {
    case 0:
      return false;
    case 1:
      return a[0] !== "";
    case 2:
      if (a[0] === "!") return a[1] === "";
      if (UNARY.has(a[0])) return unaryTest(sh, a[0], a[1], fds);
      throw new ShellError(`${a[0]}: unary operator expected`, 2);
    case 3:
      if (BINARY.has(a[1])) return binaryTest(sh, a[1], a[0], a[2], fds);
      if (a[1] === "-a") return a[0] !== "" && a[2] !== "";
      if (a[1] === "-o") return a[0] !== "" || a[2] !== "";
      if (a[0] === "!") return !evalArgs(sh, a.slice(1), fds);
      if (a[0] === "(" && a[2] === ")") return a[1] !== "";
      throw new ShellError(`${a[1]}: binary operator expected`, 2);
    case 4:
      if (a[0] === "!") return !evalArgs(sh, a.slice(1), fds);
      if (a[0] === "(" && a[3] === ")") return evalArgs(sh, a.slice(1, 3), fds);
  }
  const p = new TestParser(sh, a, fds);
  const r = p.or();
  if (p.i < a.length) throw new ShellError(`${a[p.i]}: too many arguments`, 2);
  return r;
}

class TestParser {
  i = 0;
  constructor(
    private sh: Shell,
    private a: string[],
    private fds: Fd[],
  ) {}
  or(): boolean {
    let l = this.and();
    while (this.a[this.i] === "-o") {
      this.i++;
      const r = this.and();
      l = l || r;
    }
    return l;
  }
  and(): boolean {
    let l = this.not();
    while (this.a[this.i] === "-a") {
      this.i++;
      const r = this.not();
      l = l && r;
    }
    return l;
  }
  not(): boolean {
    if (this.a[this.i] === "!") {
      this.i++;
      return !this.not();
    }
    return this.prim();
  }
  prim(): boolean {
    const a = this.a;
    const t = a[this.i];
    if (t === undefined) throw new ShellError("argument expected", 2);
    if (t === "(") {
      this.i++;
      const r = this.or();
      if (a[this.i] !== ")") throw new ShellError("`)' expected", 2);
      this.i++;
      return r;
    }
    if (BINARY.has(a[this.i + 1] ?? "") && this.i + 2 < a.length) {
      this.i += 3;
      return binaryTest(this.sh, a[this.i - 2], t, a[this.i - 1], this.fds);
    }
    if (UNARY.has(t) && this.i + 1 < a.length) {
      this.i += 2;
      return unaryTest(this.sh, t, a[this.i - 1], this.fds);
    }
    this.i++;
    return t !== "";
  }
}
