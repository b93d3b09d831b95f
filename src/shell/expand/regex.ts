// The right side of `[[ s =~ re ]]`: bash's quoting of the expanded word into a POSIX ERE,
// and that ERE (glibc's dialect) translated to a JavaScript RegExp.
//
// Not translated: POSIX leftmost-longest alternation (`(a|ab)(c|bcd)` on `abcd` matches
// `abc` here, `abcd` in bash) and locale classes beyond ASCII.

import { CLASSES } from "./pattern";

/** A piece of the expanded word; `q` when it came from quotes or a backslash. */
export interface RegexPiece {
  s: string;
  q: boolean;
}

/** Characters that mean something in an ERE: a quoted one gets a backslash, others stay plain. */
const ERE_SPECIAL = new Set([".", "[", "\\", "(", ")", "*", "+", "?", "{", "|", "^", "$"]);

/**
 * Joins the pieces as bash's quote_string_for_globbing(QGLOB_REGEXP) does: quoted special
 * characters are escaped, except inside a bracket expression, where a backslash would be
 * literal, so a quoted character goes in as itself (`[^\]]` becomes `[^]]`).
 */
export function regexFromPieces(pieces: RegexPiece[]): string {
  const ch: string[] = [];
  const q: boolean[] = [];
  for (const p of pieces)
    for (const c of p.s) {
      ch.push(c);
      q.push(p.q);
    }
  const n = ch.length;
  const quoted = (k: number) => (q[k] && ERE_SPECIAL.has(ch[k]) ? "\\" + ch[k] : ch[k]);
  let out = "";
  for (let i = 0; i < n; i++) {
    if (q[i] || ch[i] !== "[") {
      out += quoted(i);
      continue;
    }
    // an unquoted bracket expression: copy it through to its closing `]`
    let j = i + 1;
    let body = "[";
    if (ch[j] === "^") body += ch[j++];
    if (ch[j] === "]") body += ch[j++];
    let closed = false;
    while (j < n) {
      if (ch[j] === "]" && !q[j]) {
        closed = true;
        break;
      }
      if (ch[j] === "[" && !q[j] && ch[j + 1] === ":") {
        const end = ch
          .slice(j + 2)
          .join("")
          .indexOf(":]");
        if (end >= 0) {
          body += ch.slice(j, j + end + 4).join("");
          j += end + 4;
          continue;
        }
      }
      body += ch[j++];
    }
    if (!closed) {
      out += quoted(i);
      continue;
    }
    out += body + "]";
    i = j;
  }
  return out;
}

class RegexSyntaxError extends Error {}

const escChar = (c: string) => (/[\\\]\[^\-]/.test(c) ? "\\" + c : c);
const escLit = (c: string) => (/[\\^$.*+?()[\]{}|\/]/.test(c) ? "\\" + c : c);

/** Reads a bracket expression starting at re[i] === "[" into a JS class; returns it and the index after `]`. */
function bracket(re: string, i: number): [string, number] {
  let j = i + 1;
  let out = "[";
  if (re[j] === "^") {
    out += "^";
    j++;
  }
  const items: string[] = [];
  let first = true;
  for (;;) {
    if (j >= re.length) throw new RegexSyntaxError("unterminated [");
    const c = re[j];
    if (c === "]" && !first) break;
    first = false;
    if (c === "[" && (re[j + 1] === ":" || re[j + 1] === "=" || re[j + 1] === ".")) {
      const kind = re[j + 1];
      const end = re.indexOf(kind + "]", j + 2);
      if (end < 0) throw new RegexSyntaxError("unterminated [");
      const name = re.slice(j + 2, end);
      j = end + 2;
      if (kind === ":") {
        if (!(name in CLASSES)) throw new RegexSyntaxError(`unknown class ${name}`);
        items.push(CLASSES[name]);
      } else items.push(escChar(name));
      continue;
    }
    if (re[j + 1] === "-" && re[j + 2] !== undefined && re[j + 2] !== "]") {
      items.push(`${escChar(c)}-${escChar(re[j + 2])}`);
      j += 3;
      continue;
    }
    items.push(escChar(c));
    j++;
  }
  return [out + items.join("") + "]", j + 1];
}

/** Translates a glibc POSIX ERE to a JS RegExp source (use it with the `s` flag). */
export function ereToJs(re: string): string {
  let out = "";
  let atom = -1; // where the last atom starts in `out`, -1 when a quantifier cannot follow
  let quantified = false;
  let groups = 0;
  const open: number[] = [];
  const startAtom = () => {
    atom = out.length;
    quantified = false;
  };
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === "\\") {
      const n = re[i + 1];
      if (n === undefined) throw new RegexSyntaxError("trailing backslash");
      i++;
      if (n === "<") {
        out += "\\b(?=\\w)";
        atom = -1;
        continue;
      }
      if (n === ">") {
        out += "\\b(?<=\\w)";
        atom = -1;
        continue;
      }
      if (n === "b" || n === "B") {
        out += "\\" + n;
        atom = -1;
        continue;
      }
      if (n === "`") {
        out += "^";
        atom = -1;
        continue;
      }
      if (n === "'") {
        out += "$";
        atom = -1;
        continue;
      }
      startAtom();
      if (/[1-9]/.test(n)) {
        if (Number(n) > groups) throw new RegexSyntaxError("invalid back reference");
        out += "\\" + n;
      } else if ("wWsS".includes(n)) out += "\\" + n;
      else out += escLit(n);
      continue;
    }
    if (c === "[") {
      const [cls, next] = bracket(re, i);
      startAtom();
      out += cls;
      i = next - 1;
      continue;
    }
    if (c === "(") {
      open.push(out.length);
      groups++;
      out += "(";
      atom = -1;
      continue;
    }
    if (c === ")") {
      const at = open.pop();
      if (at === undefined) throw new RegexSyntaxError("unmatched )");
      out += ")";
      atom = at;
      quantified = false;
      continue;
    }
    if (c === "|") {
      out += "|";
      atom = -1;
      continue;
    }
    const interval = c === "{" ? /^\{(\d*)(,(\d*))?\}/.exec(re.slice(i)) : null;
    if (c === "*" || c === "+" || c === "?" || interval) {
      if (atom < 0) {
        // glibc: `*` right after `^` is a literal star; elsewhere nothing to repeat is an error
        if (c === "*" && out.endsWith("^")) {
          startAtom();
          out += "\\*";
          continue;
        }
        throw new RegexSyntaxError("nothing to repeat");
      }
      // a second quantifier applies to the quantified atom (`a+?` is greedy `(a+)?` in ERE)
      if (quantified) out = out.slice(0, atom) + "(?:" + out.slice(atom) + ")";
      if (interval) {
        const [whole, lo, comma, hi] = interval;
        if (!lo && !comma) throw new RegexSyntaxError("invalid interval");
        out += `{${lo || "0"}${comma ? "," + (hi ?? "") : ""}}`;
        i += whole.length - 1;
      } else out += c;
      quantified = true;
      continue;
    }
    if (c === "{") {
      if (/^\{\d/.test(re.slice(i))) throw new RegexSyntaxError("invalid interval");
      startAtom();
      out += "\\{";
      continue;
    }
    if (c === "^" || c === "$") {
      out += c;
      atom = -1;
      continue;
    }
    startAtom();
    out += c === "." ? "." : escLit(c);
  }
  if (open.length) throw new RegexSyntaxError("unmatched (");
  return out;
}
