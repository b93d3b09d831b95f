// Test evaluation: the `[[ ]]` expression tree (evalTest, called by the runner), and the unary and
// binary operators it shares with `test`/`[` (builtins/test.ts).
import type { TestExpr } from "../syntax/ast";
import { ArithError } from "../expand/arith";
import { matchPattern } from "../expand/pattern";
import { ereToJs } from "../expand/regex";
import { expandPattern, expandRegex, expandString } from "../expand/word";
import type { Fd, Shell } from "./shell";
import { ShellError, isArray, isAssoc } from "./vars";
import { traceTest, xtraceQuote } from "./xtrace";

/** `bang`: the `! ` set -x prints before a negated primary. */
export async function evalTest(sh: Shell, e: TestExpr, fds: Fd[], bang = ""): Promise<boolean> {
  const tr = sh.opts.xtrace ? (words: string[]) => traceTest(sh, fds, words, bang) : null;
  switch (e.type) {
    case "and":
      return (await evalTest(sh, e.left, fds)) && evalTest(sh, e.right, fds);
    case "or":
      return (await evalTest(sh, e.left, fds)) || evalTest(sh, e.right, fds);
    case "not":
      return !(await evalTest(sh, e.expr, fds, bang + "! "));
    case "word": {
      const w = await expandString(sh, e.word);
      if (tr) await tr(["-n", xtraceQuote(w)]);
      return w !== "";
    }
    case "unary": {
      const a = await expandString(sh, e.arg);
      if (tr) await tr([e.op, xtraceQuote(a)]);
      return unaryTest(sh, e.op, a, fds);
    }
    case "binary": {
      const l = await expandString(sh, e.left);
      if (e.op === "==" || e.op === "=" || e.op === "!=") {
        const pat = await expandPattern(sh, e.right);
        if (tr) await tr([xtraceQuote(l), e.op, pat === "" ? "''" : pat]);
        const m = matchPattern(l, pat, { extglob: true, nocase: sh.shopts.nocasematch });
        return e.op === "!=" ? !m : m;
      }
      if (e.op === "=~") {
        const re = await expandRegex(sh, e.right);
        if (tr) await tr([xtraceQuote(l), e.op, re === "" ? "''" : re]);
        let rx: RegExp;
        try {
          rx = new RegExp(ereToJs(re), sh.shopts.nocasematch ? "is" : "s");
        } catch {
          // bash returns 2 without a message for a regex glibc rejects
          throw new ShellError("", 2);
        }
        const m = rx.exec(l);
        if (!m) {
          sh.vars.setArray("BASH_REMATCH", []);
          return false;
        }
        const arr: string[] = [];
        m.forEach((g, i) => {
          arr[i] = g ?? "";
        });
        sh.vars.setArray("BASH_REMATCH", arr);
        return true;
      }
      const r = await expandString(sh, e.right);
      if (tr) await tr([xtraceQuote(l), e.op, xtraceQuote(r)]);
      if (e.op === "<") return l < r;
      if (e.op === ">") return l > r;
      if (/^-(eq|ne|lt|le|gt|ge)$/.test(e.op)) {
        const a = arithOrFail(sh, l);
        const b = arithOrFail(sh, r);
        return binaryTest(sh, e.op, a.toString(), b.toString(), fds);
      }
      return binaryTest(sh, e.op, l, r, fds);
    }
  }
}

function arithOrFail(sh: Shell, s: string): bigint {
  try {
    return sh.arith(s);
  } catch (e) {
    if (e instanceof ArithError) throw new ShellError(e.message, 1);
    throw e;
  }
}

export function statPath(sh: Shell, p: string) {
  if (p === "") return null;
  if (p === "/dev/null" || p === "/dev/zero" || p === "/dev/stdin" || p === "/dev/stdout" || p === "/dev/stderr" || /^\/dev\/fd\/\d+$/.test(p)) {
    return { type: "char" as const, size: 0, mtimeMs: 0 };
  }
  try {
    return sh.host.fs.stat(sh.host.resolvePath(sh.cwd, p));
  } catch {
    return null;
  }
}

/** The entry itself (a link is not followed), for -L/-h. */
function lstatPath(sh: Shell, p: string) {
  if (p === "" || !sh.host.fs.lstat) return null;
  try {
    return sh.host.fs.lstat(sh.host.resolvePath(sh.cwd, p, false));
  } catch {
    return null;
  }
}

function hasOwnerBit(st: ReturnType<typeof statPath>, bit: number): boolean {
  if (!st) return false;
  return !("mode" in st) || st.mode === undefined || (st.mode & bit) !== 0;
}

function toInt(s: string, op: string): bigint {
  const t = s.trim();
  if (!/^[-+]?\d+$/.test(t)) throw new ShellError(`${s}: integer expression expected`, 2);
  void op;
  // Up to 15 digits the number is exact as a double, and BigInt of a number costs far less
  // than parsing the text again (`[ $i -lt N ]` in a loop).
  return t.length <= 15 ? BigInt(Number(t)) : BigInt(t);
}

export function unaryTest(sh: Shell, op: string, a: string, fds: Fd[]): boolean {
  switch (op) {
    case "-n":
      return a !== "";
    case "-z":
      return a === "";
    case "-e":
    case "-a":
      return !!statPath(sh, a);
    case "-f":
      return statPath(sh, a)?.type === "file";
    case "-d":
      return statPath(sh, a)?.type === "dir";
    case "-s": {
      const s = statPath(sh, a);
      return !!s && s.size > 0;
    }
    // The session's user owns every file, so the owner's bits decide (hosts without modes: all allowed).
    case "-r":
      return hasOwnerBit(statPath(sh, a), 0o400);
    case "-w":
      return hasOwnerBit(statPath(sh, a), 0o200);
    case "-x": {
      const s = statPath(sh, a);
      return (s?.type === "dir" || s?.type === "file") && hasOwnerBit(s, 0o100);
    }
    case "-k": {
      const s = statPath(sh, a);
      return !!s && "mode" in s && ((s.mode ?? 0) & 0o1000) !== 0;
    }
    case "-u": {
      const s = statPath(sh, a);
      return !!s && "mode" in s && ((s.mode ?? 0) & 0o4000) !== 0;
    }
    case "-g": {
      const s = statPath(sh, a);
      return !!s && "mode" in s && ((s.mode ?? 0) & 0o2000) !== 0;
    }
    case "-c":
      return statPath(sh, a)?.type === "char";
    case "-L":
    case "-h":
      return lstatPath(sh, a)?.type === "symlink";
    case "-b":
    case "-p":
    case "-S":
    case "-N":
      return false;
    case "-O":
    case "-G":
      return !!statPath(sh, a);
    case "-t":
      return false;
    case "-v": {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/.exec(a);
      if (!m) return false;
      const v = sh.vars.resolve(m[1]).v;
      if (m[2] === undefined) return sh.vars.get(m[1]) !== undefined;
      if (isAssoc(v)) return v.value.has(m[2]);
      if (isArray(v)) {
        if (m[2] === "@" || m[2] === "*") return Object.keys(v.value).length > 0;
        let k: number;
        try {
          k = Number(sh.arith(m[2]));
        } catch {
          return false;
        }
        if (k < 0) {
          const ks = Object.keys(v.value);
          k += ks.length ? +ks[ks.length - 1] + 1 : 0;
        }
        return v.value[k] !== undefined;
      }
      return m[2] === "0" && sh.vars.get(m[1]) !== undefined;
    }
    case "-o":
      return !!sh.opts[a];
  }
  void fds;
  throw new ShellError(`${op}: unary operator expected`, 2);
}

export function binaryTest(sh: Shell, op: string, a: string, b: string, fds: Fd[]): boolean {
  void fds;
  switch (op) {
    case "=":
    case "==":
      return a === b;
    case "!=":
      return a !== b;
    case "<":
      return a < b;
    case ">":
      return a > b;
    case "-eq":
      return toInt(a, op) === toInt(b, op);
    case "-ne":
      return toInt(a, op) !== toInt(b, op);
    case "-lt":
      return toInt(a, op) < toInt(b, op);
    case "-le":
      return toInt(a, op) <= toInt(b, op);
    case "-gt":
      return toInt(a, op) > toInt(b, op);
    case "-ge":
      return toInt(a, op) >= toInt(b, op);
    case "-nt":
    case "-ot": {
      const x = statPath(sh, a);
      const y = statPath(sh, b);
      if (op === "-nt") return !!x && (!y || x.mtimeMs > y.mtimeMs);
      return !!y && (!x || x.mtimeMs < y.mtimeMs);
    }
    case "-ef": {
      try {
        return sh.host.resolvePath(sh.cwd, a) === sh.host.resolvePath(sh.cwd, b) && !!statPath(sh, a);
      } catch {
        return false;
      }
    }
  }
  throw new ShellError(`${op}: binary operator expected`, 2);
}
