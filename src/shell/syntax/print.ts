// Prints an AST back as shell source in bash's layout (type f, declare -f), so the output can be
// re-parsed: a function prints as `name () \n{ \n    body\n}` with 4-space indents and `;` between
// statements. Words are rebuilt from their parts, so quoting may differ from the original text.
import type { ArgWord, ArrayElem, Command, Redir, Stmt, TestExpr, Word, WordPart } from "./ast";
import { isAssignArg } from "./ast";

const IND = "    ";

export function formatFunction(f: Command & { type: "func" }): string {
  const body = f.body.type === "group" ? `{ \n${stmts(f.body.body, IND)}\n}${redirs(f.body.redirs)}` : `{ \n${IND}${cmd(f.body, IND)}\n}`;
  // here-documents inside one-line contexts (conditions, $(...)) go right after their line
  return `${f.name} () \n${body.replace(/\u0000([^\u0000]*)\u0000/g, "\n$1")}`;
}

/** Statements one per line at indent; all but the last end in `;` (or `&`). */
function stmts(list: Stmt[], ind: string, termLast = false): string {
  return list
    .map((s, i) => {
      const line = ind + cmd(s.cmd, ind) + (s.background ? " &" : i < list.length - 1 || termLast ? ";" : "");
      // here-document bodies follow the whole line, after its terminator
      const docs: string[] = [];
      const head = line.replace(/\u0000([^\u0000]*)\u0000/g, (_, d: string) => {
        docs.push(d);
        return "";
      });
      return docs.length ? `${head}\n${docs.join("\n")}` : head;
    })
    .join("\n");
}

function cmd(c: Command, ind: string): string {
  const inner = ind + IND;
  switch (c.type) {
    case "simple": {
      const parts = [
        ...c.assigns.map(
          (a) => a.name + (a.index ? `[${word(a.index)}]` : "") + (a.append ? "+=" : "=") + (a.array ? formatArray(a.array) : a.value ? word(a.value) : ""),
        ),
        ...c.words.map(argWord),
      ];
      return parts.join(" ") + redirs(c.redirs);
    }
    case "pipeline":
      return (
        (c.time ? "time " : "") + (c.bang ? "! " : "") + c.cmds.map((x, i) => cmd(x, ind) + (i < c.cmds.length - 1 ? (c.stderrPipes[i] ? " |&" : " |") : "")).join(" ")
      );
    case "andor":
      return `${cmd(c.left, ind)} ${c.op} ${cmd(c.right, ind)}`;
    case "subshell":
      return `( ${c.body.map((s) => cmd(s.cmd, ind) + (s.background ? " &" : "")).join(`;\n${ind}`)} )${redirs(c.redirs)}`;
    case "group":
      return `{ \n${stmts(c.body, inner, true)}\n${ind}}${redirs(c.redirs)}`;
    case "if": {
      // bash prints elif as a nested if in the else branch
      const [first, ...rest] = c.clauses;
      let s = `if ${inline(first.cond)}; then\n${stmts(first.body, inner, true)}`;
      if (rest.length) {
        const nested: Command = { type: "if", clauses: rest, elseBody: c.elseBody, redirs: [], pos: c.pos };
        s += `\n${ind}else\n${inner}${cmd(nested, inner)};`;
      } else if (c.elseBody) s += `\n${ind}else\n${stmts(c.elseBody, inner, true)}`;
      return s + `\n${ind}fi${redirs(c.redirs)}`;
    }
    case "while":
      return `${c.until ? "until" : "while"} ${inline(c.cond)}; do\n${stmts(c.body, inner, true)}\n${ind}done${redirs(c.redirs)}`;
    case "for":
    case "select":
      return `${c.type} ${c.name}${c.words ? ` in ${c.words.map(argWord).join(" ")}` : ""};\n${ind}do\n${stmts(c.body, inner, true)}\n${ind}done${redirs(c.redirs)}`;
    case "forarith":
      return `for ((${c.init ? word(c.init).trim() : ""}; ${c.cond ? word(c.cond).trim() : ""}; ${c.step ? word(c.step).trim() : ""}))\n${ind}do\n${stmts(c.body, inner, true)}\n${ind}done${redirs(c.redirs)}`;
    case "case": {
      const items = c.items.map((it) => `${inner}${it.patterns.map(word).join(" | ")})\n${stmts(it.body, inner + IND)}\n${inner}${it.term}`);
      return `case ${word(c.word)} in \n${items.join("\n")}\n${ind}esac${redirs(c.redirs)}`;
    }
    case "func":
      return formatFunction(c)
        .split("\n")
        .join("\n" + ind);
    case "arithcmd":
      return `((${word(c.expr)}))${redirs(c.redirs)}`;
    case "coproc":
      return `coproc ${c.name} ${cmd(c.body, ind)}`;
    case "test":
      return `[[ ${test(c.expr)} ]]${redirs(c.redirs)}`;
  }
}

/** A whole script in bash's layout (bash --pretty-print): one top-level statement per line. */
export function formatScript(list: Stmt[]): string {
  return list.map((s) => stmts([s], "") + "\n").join("") + "\n";
}

/** One command on one line (job listings). */
export function formatCommand(c: Command): string {
  return cmd(c, "").replace(/\u0000[^\u0000]*\u0000/g, "");
}

function inline(list: Stmt[]): string {
  return list.map((s) => cmd(s.cmd, "") + (s.background ? " &" : "")).join("; ");
}

function test(e: TestExpr): string {
  switch (e.type) {
    case "and":
      return `${test(e.left)} && ${test(e.right)}`;
    case "or":
      return `${test(e.left)} || ${test(e.right)}`;
    case "not":
      return `! ${test(e.expr)}`;
    case "unary":
      return `${e.op} ${word(e.arg)}`;
    case "binary":
      return `${word(e.left)} ${e.op} ${word(e.right)}`;
    case "word":
      return word(e.word);
  }
}

function redirs(rs: Redir[]): string {
  return rs
    .map((r) => {
      const fd = r.varFd ? `{${r.varFd}}` : r.fd !== undefined ? String(r.fd) : "";
      if (r.op === "<<" || r.op === "<<-") {
        // a quoted delimiter keeps the body literal; otherwise $ ` \ in literal text are escaped
        const body = r.target.parts
          .map((p) => (p.type === "lit" || p.type === "sq" ? (r.heredocQuoted ? p.value : p.value.replace(/[$`\\]/g, "\\$&")) : part(p, false)))
          .join("");
        let delim = "EOF";
        while (body.split("\n").includes(delim)) delim += "_";
        return ` ${fd}<< ${r.heredocQuoted ? `'${delim}'` : delim}\u0000${body}${delim}\u0000`;
      }
      if (r.op === ">&" || r.op === "<&") return ` ${fd || (r.op === ">&" ? "1" : "0")}${r.op}${word(r.target)}`;
      return ` ${fd}${r.op} ${word(r.target)}`;
    })
    .join("");
}

function argWord(w: ArgWord): string {
  if (!isAssignArg(w)) return word(w);
  return word(w.raw);
}

/** A compound array assignment's value as written: `(one "two three" [k]=v)`. */
export function formatArray(elems: ArrayElem[]): string {
  return `(${elems.map((e) => (e.key ? `[${word(e.key)}]${e.append ? "+=" : "="}` : "") + word(e.value)).join(" ")})`;
}

function word(w: Word): string {
  return w.parts.map((p) => part(p, false)).join("");
}

function part(p: WordPart, inDq: boolean): string {
  switch (p.type) {
    case "lit":
      if (inDq) return p.value.replace(/[$`"\\]/g, "\\$&");
      return p.quoted ? p.value.replace(/./gs, (c) => "\\" + c) : p.value;
    case "sq":
      return /[\x00-\x1f\x7f]/.test(p.value)
        ? `$'${p.value.replace(/[\\']/g, "\\$&").replace(/[\x00-\x1f\x7f]/g, (c) => "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"))}'`
        : `'${p.value.replace(/'/g, "'\\''")}'`;
    case "dq":
      return `"${p.parts.map((x) => part(x, true)).join("")}"`;
    case "tilde":
      return "~" + p.user;
    case "param": {
      if (p.short) return "$" + p.name;
      let s = "${" + (p.length ? "#" : "") + (p.indirect || p.keys || p.prefixNames ? "!" : "") + p.name;
      if (p.prefixNames) s += p.prefixNames;
      if (p.index) s += `[${word(p.index)}]`;
      if (p.op) {
        s += p.op + (p.arg ? word(p.arg) : "");
        if (p.arg2) s += (p.op === ":" ? ":" : "/") + word(p.arg2);
      }
      return s + "}";
    }
    case "cmdsub":
      return `$(${inline(p.body)})`;
    case "arith":
      return `$((${word(p.expr)}))`;
    case "procsub":
      return `${p.dir}(${inline(p.body)})`;
  }
}
