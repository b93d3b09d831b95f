// Word expansion: tilde, parameters, command substitution, arithmetic, then field
// splitting with IFS, pathname expansion and quote removal. Expansion produces
// segments that remember whether their text was quoted, so splitting and globbing
// only touch unquoted expansion results.
import type { ArgWord, ParamExp, Stmt, Word, WordPart } from "../syntax/ast";
import { isAssignArg, litText } from "../syntax/ast";
import { arrayKeys, arrayValues, isArray, isAssoc, ShellError, VarStore, A_EXPORT, A_READONLY, A_INTEGER, A_LOWER, A_UPPER, A_NAMEREF } from "../interp/vars";
import { braceExpand, hasBrace } from "./brace";
import { regexFromPieces } from "./regex";
import { escapePattern, hasGlobMeta, matchPattern, removeAffix, replacePattern, PatternOpts } from "./pattern";
import { ArithError } from "./arith";
import { Parser } from "../syntax/parser";
import { expandPrompt } from "./prompt";
import type { Maybe } from "../interp/maybe";

export interface ExpandCtx {
  vars: VarStore;
  positional: string[];
  /** $0 $? $$ $! $- $# */
  special(name: string): string;
  opt(name: string): boolean;
  cmdSubst(body: Stmt[]): Promise<string>;
  procSubst(dir: "<" | ">", body: Stmt[]): Promise<string>;
  arith(expr: string): bigint;
  glob(pattern: string): string[];
  braceBudget(): { n: number; onLimit: () => never };
  checkString(s: string): string;
  /** The current command's history number (prompt expansion's \!); the runner keeps the list. */
  historyNumber?(): number;
}

type Seg = { s: string; q: boolean; split: boolean } | { brk: true; force: boolean };

/** Fatal expansion errors (unbound variable, ${x?}) exit a non-interactive shell. */
export class ExpandError extends ShellError {}

export class AbortLine extends ShellError {}

const DEFAULT_IFS = " \t\n";

// Expansion is synchronous until a part really waits (a command or process substitution,
// ${x@P}): the functions below return a value, or a promise from that part on.

export function expandArgs(ctx: ExpandCtx, words: ArgWord[]): Maybe<string[]> {
  const out: string[] = [];
  const r = expandWordsFrom(ctx, words, 0, out);
  return r instanceof Promise ? r.then(() => out) : out;
}

function expandWordsFrom(ctx: ExpandCtx, words: ArgWord[], i: number, out: string[]): Maybe<void> {
  for (; i < words.length; i++) {
    const aw = words[i];
    let r: Maybe<void>;
    if (isAssignArg(aw)) {
      r = expandAssignArgText(ctx, aw).then((s) => {
        out.push(s);
      });
    } else {
      const w = aw;
      // fast path: plain literal
      if (w.parts.length === 1 && w.parts[0].type === "lit") {
        const p = w.parts[0];
        if (p.quoted || !(p.value.includes("{") || hasGlobMeta(p.value, ctx.opt("extglob")))) {
          out.push(p.value);
          continue;
        }
      }
      r = ctx.opt("braceexpand") && hasBrace(w) ? expandBraced(ctx, braceExpand(w, ctx.braceBudget()), 0, out) : expandFields(ctx, w, true, out);
    }
    if (r instanceof Promise) {
      const next = i + 1;
      return r.then(() => expandWordsFrom(ctx, words, next, out));
    }
  }
}

async function expandAssignArgText(ctx: ExpandCtx, aw: { assign: import("../syntax/ast").Assign; raw: Word }): Promise<string> {
  // declare x=$y: value expanded without splitting; array literals handled by the caller
  const a = aw.assign;
  let s = a.name;
  if (a.index) s += "[" + (await expandString(ctx, a.index)) + "]";
  s += a.append ? "+=" : "=";
  if (a.value) s += await expandString(ctx, a.value);
  else if (a.array) s += "(" + ")";
  return s;
}

/** The words one brace expansion made, each expanded (but not brace-expanded again). */
function expandBraced(ctx: ExpandCtx, words: Word[], i: number, out: string[]): Maybe<void> {
  for (; i < words.length; i++) {
    const r = expandFields(ctx, words[i], true, out);
    if (r instanceof Promise) {
      const next = i + 1;
      return r.then(() => expandBraced(ctx, words, next, out));
    }
  }
}

export function expandFields(ctx: ExpandCtx, w: Word, glob: boolean, out: string[]): Maybe<void> {
  const segs: Seg[] = [];
  const r = expandParts(ctx, w.parts, false, segs);
  if (r instanceof Promise) return r.then(() => pushFields(ctx, segs, glob, out));
  pushFields(ctx, segs, glob, out);
}

function pushFields(ctx: ExpandCtx, segs: Seg[], glob: boolean, out: string[]): void {
  const fields = splitSegs(ctx, segs, true);
  const noglob = !glob || ctx.opt("noglob");
  for (const f of fields) {
    if (!noglob && f.meta && hasGlobMeta(f.pat, ctx.opt("extglob"))) {
      const m = ctx.glob(f.pat);
      if (m.length) {
        out.push(...m);
        continue;
      }
      if (ctx.opt("failglob")) throw new AbortLine(`no match: ${f.text}`, 1);
      if (ctx.opt("nullglob")) continue;
    }
    out.push(f.text);
  }
}

/** Expansion without splitting or globbing (assignments, redirections, here-docs). */
export function expandString(ctx: ExpandCtx, w: Word): Maybe<string> {
  if (w.parts.length === 1) {
    const p = w.parts[0];
    if (p.type === "lit" || p.type === "sq") return p.value;
  }
  return unsplit(ctx, w, stringOf);
}

/** The word's parts expanded without splitting, then joined by `join`. */
function unsplit(ctx: ExpandCtx, w: Word, join: (segs: Seg[]) => string): Maybe<string> {
  const segs: Seg[] = [];
  const r = expandParts(ctx, w.parts, false, segs, true);
  return r instanceof Promise ? r.then(() => join(segs)) : join(segs);
}

function stringOf(segs: Seg[]): string {
  let s = "";
  for (const g of segs) {
    if ("brk" in g) s += " ";
    else s += g.s;
  }
  return s;
}

/** Expansion to a pattern: quoted text is escaped so it matches literally. */
export function expandPattern(ctx: ExpandCtx, w: Word): Maybe<string> {
  return unsplit(ctx, w, (segs) => {
    let s = "";
    for (const g of segs) {
      if ("brk" in g) s += " ";
      else s += g.q ? escapePattern(g.s) : g.s;
    }
    return s;
  });
}

/** Expansion of the right side of =~ into a POSIX ERE: quoted text matches literally. */
export function expandRegex(ctx: ExpandCtx, w: Word): Maybe<string> {
  return unsplit(ctx, w, (segs) => regexFromPieces(segs.map((g) => ("brk" in g ? { s: " ", q: false } : g))));
}

interface Field {
  text: string;
  pat: string;
  meta: boolean;
  nonEmpty: boolean;
}

const newField = (): Field => ({ text: "", pat: "", meta: false, nonEmpty: false });

// No local closures here: this runs for every word, and the bundler (keep_names) wraps each
// named closure in a call that sets its name, which cost a fifth of a `[ $i -lt N ]` loop.
function splitSegs(ctx: ExpandCtx, segs: Seg[], split: boolean): Field[] {
  const fields: Field[] = [];
  let cur: Field | null = null;
  const ifsVal = ctx.vars.get("IFS");
  const ifs = ifsVal === undefined ? DEFAULT_IFS : ifsVal;
  let afterWs = false;
  for (const g of segs) {
    if ("brk" in g) {
      const c0 = cur as Field | null;
      if (c0 && (g.force || c0.nonEmpty || c0.text)) fields.push(c0);
      else if (g.force && !cur) fields.push({ text: "", pat: "", meta: false, nonEmpty: true });
      cur = null;
      afterWs = false;
      continue;
    }
    if (g.q) {
      const f: Field = (cur ??= newField());
      f.text += g.s;
      f.pat += escapePattern(g.s);
      f.nonEmpty = true;
      afterWs = false;
      continue;
    }
    if (!g.split || !split || ifs === "") {
      if (!g.s) continue;
      const f: Field = (cur ??= newField());
      f.text += g.s;
      f.pat += g.s;
      f.meta = true;
      afterWs = false;
      continue;
    }
    const s = g.s;
    // The unsplit run of characters since the last separator, added to the field at each separator.
    let run = "";
    for (let i = 0; i <= s.length; i++) {
      const c = i < s.length ? s[i]! : "";
      const sep = c !== "" && ifs.includes(c);
      if (c !== "" && !sep) {
        run += c;
        afterWs = false;
        continue;
      }
      if (run) {
        const f: Field = (cur ??= newField());
        f.text += run;
        f.pat += run;
        f.meta = true;
        run = "";
      }
      if (!sep) break;
      const ws = c === " " || c === "\t" || c === "\n";
      if (ws) {
        if (cur && ((cur as Field).nonEmpty || (cur as Field).text)) {
          fields.push(cur);
          cur = null;
          afterWs = true;
        }
      } else {
        if (afterWs) afterWs = false;
        else {
          fields.push(cur ?? { text: "", pat: "", meta: false, nonEmpty: true });
          cur = null;
        }
      }
    }
  }
  if (cur && ((cur as Field).nonEmpty || (cur as Field).text)) fields.push(cur);
  return fields;
}

function expandParts(ctx: ExpandCtx, parts: WordPart[], inDq: boolean, segs: Seg[], noSplit = false, litSplit = false, from = 0): Maybe<void> {
  for (let i = from; i < parts.length; i++) {
    const r = expandPart(ctx, parts[i], inDq, segs, noSplit, litSplit);
    if (r instanceof Promise) {
      const next = i + 1;
      return r.then(() => expandParts(ctx, parts, inDq, segs, noSplit, litSplit, next));
    }
  }
}

function expandPart(ctx: ExpandCtx, p: WordPart, inDq: boolean, segs: Seg[], noSplit: boolean, litSplit: boolean): Maybe<void> {
  switch (p.type) {
    case "lit":
      segs.push({ s: p.value, q: inDq || !!p.quoted, split: litSplit && !inDq && !p.quoted && !noSplit });
      return;
    case "sq":
      segs.push({ s: p.value, q: true, split: false });
      return;
    case "dq": {
      const before = segs.length;
      const r = expandParts(ctx, p.parts, true, segs, noSplit);
      if (r instanceof Promise) return r.then(() => closeDq(p.parts, segs, before));
      closeDq(p.parts, segs, before);
      return;
    }
    case "tilde": {
      let v: string | undefined;
      if (p.user === "") v = ctx.vars.get("HOME") ?? "/";
      else if (p.user === "+") v = ctx.vars.get("PWD");
      else if (p.user === "-") v = ctx.vars.get("OLDPWD");
      else if (p.user === "root") v = "/root";
      segs.push({ s: v ?? "~" + p.user, q: true, split: false });
      return;
    }
    case "param":
      return expandParam(ctx, p, inDq, segs);
    case "cmdsub":
      return ctx.cmdSubst(p.body).then((s) => {
        segs.push({ s, q: inDq, split: !inDq && !noSplit });
      });
    case "arith": {
      const s = expandString(ctx, p.expr);
      if (s instanceof Promise) return s.then((s) => pushArith(ctx, s, inDq, noSplit, segs));
      pushArith(ctx, s, inDq, noSplit, segs);
      return;
    }
    case "procsub":
      return ctx.procSubst(p.dir, p.body).then((s) => {
        segs.push({ s, q: true, split: false });
      });
  }
}

/** "" (an empty quoted word) still makes a field, unless it held "$@". */
function closeDq(parts: WordPart[], segs: Seg[], before: number): void {
  if (segs.length === before && !parts.some(isAtList)) segs.push({ s: "", q: true, split: false });
}

function pushArith(ctx: ExpandCtx, expr: string, inDq: boolean, noSplit: boolean, segs: Seg[]): void {
  let v: bigint;
  try {
    v = ctx.arith(expr);
  } catch (e) {
    if (e instanceof ArithError) throw new AbortLine(e.message, 1);
    throw e;
  }
  segs.push({ s: v.toString(), q: inDq, split: !inDq && !noSplit });
}

function isAtList(p: WordPart): boolean {
  return (
    p.type === "param" &&
    (p.name === "@" || (p.index !== undefined && litText(p.index) === "@") || p.prefixNames === "@" || (!!p.keys && litText(p.index!) === "@")) &&
    !p.length
  );
}

type PVal = { list: string[] | null; scalar: string | undefined; star: boolean };

function specialList(ctx: ExpandCtx, pe: ParamExp): boolean {
  return pe.name === "@" || pe.name === "*";
}

/** Splits a runtime string like `a[$k]` (nameref targets, printf -v, unset, ${!ref}). */
export function splitSubscript(s: string): { name: string; sub: string } | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(s);
  return m ? { name: m[1], sub: m[2] } : null;
}

/** A subscript given as runtime text, parsed as a word: quotes removed, $x and $(...) expanded. */
function subscriptWord(sub: string): Word {
  if (sub === "@" || sub === "*" || !/[$`'"\\]/.test(sub)) return { parts: [{ type: "lit", value: sub }], pos: 0 };
  try {
    return new Parser(sub).subWord(sub, "index", 0);
  } catch {
    throw new ExpandError(`[${sub}]: bad substitution`, 1, true);
  }
}

/** Key for `name[sub]` given as runtime text: expanded string for assoc arrays, arithmetic otherwise. */
export async function dynamicKey(ctx: ExpandCtx, name: string, sub: string): Promise<string> {
  return resolveIndex(ctx, name, subscriptWord(sub));
}

export async function resolveIndex(ctx: ExpandCtx, name: string, index: Word): Promise<string> {
  const v = ctx.vars.resolve(name).v;
  const raw = await expandString(ctx, index);
  if (isAssoc(v)) return raw;
  try {
    return ctx.arith(raw).toString();
  } catch (e) {
    if (e instanceof ArithError) throw new AbortLine(e.message, 1);
    throw e;
  }
}

async function paramValue(ctx: ExpandCtx, name: string, index: Word | undefined): Promise<PVal> {
  if (name === "@" || name === "*") return { list: ctx.positional.slice(), scalar: undefined, star: name === "*" };
  if (/^[0-9]+$/.test(name)) {
    const n = parseInt(name, 10);
    return { list: null, scalar: n === 0 ? ctx.special("0") : ctx.positional[n - 1], star: false };
  }
  if (name.length === 1 && "#?$!-".includes(name)) return { list: null, scalar: ctx.special(name), star: false };
  const raw = ctx.vars.resolve(name).v;
  if (raw && raw.attrs & A_NAMEREF && typeof raw.value === "string" && !index) {
    // nameref to an array element: ref='a[2]', ref='A[$key]'
    const m = splitSubscript(raw.value);
    if (m) return paramValue(ctx, m.name, subscriptWord(m.sub));
  }
  const { name: rname, v } = ctx.vars.resolve(name);
  if (index) {
    const it = litText(index);
    if (it === "@" || it === "*") {
      let list: string[] = [];
      if (isArray(v)) list = arrayValues(v.value);
      else if (isAssoc(v)) list = [...v.value.values()];
      else {
        const s = ctx.vars.get(rname);
        if (s !== undefined) list = [s];
      }
      return { list, scalar: undefined, star: it === "*" };
    }
    const key = await resolveIndex(ctx, rname, index);
    if (isAssoc(v)) return { list: null, scalar: v.value.get(key), star: false };
    if (isArray(v)) {
      let k = Number(key);
      if (k < 0) {
        const ks = arrayKeys(v.value);
        k += ks.length ? ks[ks.length - 1] + 1 : 0;
        if (k < 0) return { list: null, scalar: undefined, star: false };
      }
      return { list: null, scalar: v.value[k], star: false };
    }
    if (key === "0") return { list: null, scalar: ctx.vars.get(rname), star: false };
    return { list: null, scalar: undefined, star: false };
  }
  return { list: null, scalar: ctx.vars.get(rname), star: false };
}

function expandParam(ctx: ExpandCtx, pe: ParamExp, inDq: boolean, segs: Seg[]): Maybe<void> {
  // fast path: $x / ${x}
  if (!pe.op && !pe.index && !pe.length && !pe.indirect && !pe.prefixNames && !pe.keys && !specialList(ctx, pe)) {
    let s: string | undefined;
    if (pe.name.length === 1 && !/[A-Za-z_]/.test(pe.name)) s = shortParamValue(ctx, pe.name);
    else s = ctx.vars.get(pe.name);
    // a nameref to an array element yields its target text here; the general path resolves it
    const refElem = s !== undefined && s.endsWith("]") && ((ctx.vars.resolve(pe.name).v?.attrs ?? 0) & A_NAMEREF) !== 0;
    if (!refElem) {
      if (s === undefined) {
        if (ctx.opt("nounset") && pe.name !== "@" && pe.name !== "*") throw new ExpandError(`${pe.name}: unbound variable`, 1, true);
        s = "";
      }
      segs.push({ s, q: inDq, split: !inDq });
      return;
    }
  }
  return expandParamFull(ctx, pe, inDq, segs);
}

/** $0 .. $9 and $# $? $$ $! $-: the one-character names that are not variables. */
function shortParamValue(ctx: ExpandCtx, name: string): string | undefined {
  if (name >= "0" && name <= "9") return name === "0" ? ctx.special("0") : ctx.positional[+name - 1];
  return ctx.special(name);
}

/**
 * Returns `f` unchanged. A closure assigned to a variable is wrapped by the bundler (keep_names)
 * in a call that sets its name, on every expansion; one passed as an argument is not.
 */
const perValue = (f: (s: string) => string): ((s: string) => string) => f;

const SURROGATE = /[\uD800-\uDFFF]/;

async function expandParamFull(ctx: ExpandCtx, pe: ParamExp, inDq: boolean, segs: Seg[]): Promise<void> {
  if (pe.op === "bad") throw new ExpandError(`${litText(pe.arg!)}: bad substitution`, 1, true);
  let val: PVal;
  let name = pe.name;
  if (pe.prefixNames) {
    const names = ctx.vars
      .names()
      .filter((n) => n.startsWith(pe.name) && ctx.vars.lookup(n)!.value !== undefined)
      .sort();
    val = { list: names, scalar: undefined, star: pe.prefixNames === "*" };
  } else if (pe.keys) {
    const v = ctx.vars.resolve(pe.name).v;
    let keys: string[] = [];
    if (isArray(v)) keys = arrayKeys(v.value).map(String);
    else if (isAssoc(v)) keys = [...v.value.keys()];
    else if (v && v.value !== undefined) keys = ["0"];
    val = { list: keys, scalar: undefined, star: litText(pe.index!) === "*" };
  } else if (pe.indirect) {
    const ref = await paramValue(ctx, pe.name, pe.index);
    const target = ref.list ? ref.list.join(" ") : ref.scalar;
    const v = ctx.vars.lookup(pe.name);
    if (v && v.attrs & A_NAMEREF && !pe.index) {
      // ${!ref} on a nameref gives the name it points to
      val = { list: null, scalar: typeof v.value === "string" ? v.value : undefined, star: false };
    } else if (target === undefined || target === "") {
      if (ctx.opt("nounset")) throw new ExpandError(`${pe.name}: unbound variable`, 1, true);
      val = { list: null, scalar: undefined, star: false };
    } else {
      const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[(.*)\])?$/s.exec(target);
      if (!m) throw new AbortLine(`${target}: invalid indirect expansion`, 1);
      name = m[1];
      val = await paramValue(ctx, m[1], m[2] !== undefined ? subscriptWord(m[2]) : undefined);
    }
  } else {
    val = await paramValue(ctx, pe.name, pe.index);
  }

  if (pe.length) {
    let n: number;
    if (val.list) n = val.list.length;
    else {
      if (val.scalar === undefined && ctx.opt("nounset")) throw new ExpandError(`${pe.name}: unbound variable`, 1, true);
      n = [...(val.scalar ?? "")].length;
    }
    segs.push({ s: String(n), q: inDq, split: !inDq });
    return;
  }

  const op = pe.op;
  const isSet = val.list ? val.list.length > 0 : val.scalar !== undefined;
  const ifsNow = ctx.vars.get("IFS");
  const starSep = ifsNow === undefined ? " " : ifsNow.slice(0, 1);
  const isNull = val.list ? val.list.length === 0 || (val.list.length === 1 && val.list[0] === "") || (val.star && val.list.join(starSep) === "") : !val.scalar;
  if (op === "-" || op === ":-" || op === "+" || op === ":+" || op === "=" || op === ":=" || op === "?" || op === ":?") {
    const colon = op.startsWith(":");
    const useAlt = colon ? !isSet || isNull : !isSet;
    const base = op.replace(":", "");
    if (base === "+") {
      if (!useAlt) await expandParts(ctx, pe.arg!.parts, inDq, segs, false, true);
      else if (inDq) segs.push({ s: "", q: true, split: false });
      return;
    }
    if (!useAlt) {
      emit(ctx, val, inDq, segs);
      return;
    }
    if (base === "-") {
      await expandParts(ctx, pe.arg!.parts, inDq, segs, false, true);
      return;
    }
    if (base === "=") {
      const s = await expandString(ctx, pe.arg!);
      if (pe.index) {
        const key = await resolveIndex(ctx, name, pe.index);
        ctx.vars.setIndex(name, key, s);
      } else {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new AbortLine(`$${name}: cannot assign in this way`, 1);
        ctx.vars.set(name, s);
      }
      segs.push({ s, q: inDq, split: !inDq });
      return;
    }
    // ?
    const msg = pe.arg && pe.arg.parts.length ? await expandString(ctx, pe.arg) : colon && isSet ? "parameter null or not set" : "parameter not set";
    throw new ExpandError(`${pe.name}: ${msg}`, 1, true);
  }

  if (!isSet && ctx.opt("nounset") && !val.list) {
    throw new ExpandError(`${pe.name}: unbound variable`, 1, true);
  }

  if (!op) {
    emit(ctx, val, inDq, segs);
    return;
  }

  const popts: PatternOpts = { extglob: true, nocase: ctx.opt("nocasematch") && false };
  let fn: (s: string) => string;
  switch (op) {
    case "#":
    case "##":
    case "%":
    case "%%": {
      const pat = await expandPattern(ctx, pe.arg!);
      fn = perValue((s) => removeAffix(s, pat, op, popts));
      break;
    }
    case "/":
    case "//":
    case "/#":
    case "/%": {
      const pat = await expandPattern(ctx, pe.arg!);
      const rep = pe.arg2 ? await expandString(ctx, pe.arg2) : "";
      const mode = op === "/" ? "" : (op.slice(1) as "/" | "#" | "%");
      fn = perValue((s) => ctx.checkString(replacePattern(s, pat, rep, mode, popts)));
      break;
    }
    case "^":
    case "^^":
    case ",":
    case ",,":
    case "~":
    case "~~": {
      const pat = pe.arg && pe.arg.parts.length ? await expandPattern(ctx, pe.arg) : "?";
      const up = op[0] === "^";
      // `~` and `~~` (undocumented in bash's manual, but there) toggle the case.
      const toggle = op[0] === "~";
      const all = op.length === 2;
      fn = perValue((s) => {
        let out = "";
        let done = false;
        for (const ch of s) {
          if (!done && matchPattern(ch, pat, popts)) {
            const upper = ch.toUpperCase();
            out += toggle ? (ch === upper ? ch.toLowerCase() : upper) : up ? upper : ch.toLowerCase();
            if (!all) done = true;
          } else {
            out += ch;
            if (!all) done = true;
          }
        }
        return out;
      });
      break;
    }
    case ":": {
      const offS = await expandString(ctx, pe.arg!);
      let off: number;
      let len: number | undefined;
      try {
        off = Number(ctx.arith(offS));
        if (pe.arg2) len = Number(ctx.arith(await expandString(ctx, pe.arg2)));
      } catch (e) {
        if (e instanceof ArithError) throw new AbortLine(e.message, 1);
        throw e;
      }
      if (val.list) {
        let list = val.list;
        if (pe.name === "@" || pe.name === "*") list = [ctx.special("0"), ...list];
        else if (!pe.index && !pe.indirect) list = val.list;
        if (pe.name !== "@" && pe.name !== "*" && pe.index) {
          // arrays slice by index, skipping holes
          const v = ctx.vars.resolve(name).v;
          if (isArray(v)) {
            const ks = arrayKeys(v.value);
            const maxK = ks.length ? ks[ks.length - 1] + 1 : 0;
            const start = off < 0 ? maxK + off : off;
            let sel = ks.filter((k) => k >= start).map((k) => v.value[k]);
            if (off < 0 && start < 0) sel = [];
            if (len !== undefined) {
              if (len < 0) throw new AbortLine(`${len}: substring expression < 0`, 1);
              sel = sel.slice(0, len);
            }
            emit(ctx, { list: sel, scalar: undefined, star: val.star }, inDq, segs);
            return;
          }
        }
        const n = list.length;
        let start = off < 0 ? n + off : off;
        if (start < 0) {
          emit(ctx, { list: [], scalar: undefined, star: val.star }, inDq, segs);
          return;
        }
        if (pe.name === "@" || pe.name === "*") {
          if (start === 0 && off >= 0) start = 0;
        }
        let end = len === undefined ? n : len < 0 ? n + len : start + len;
        if (len !== undefined && len < 0) throw new AbortLine(`${len}: substring expression < 0`, 1);
        if (end > n) end = n;
        emit(ctx, { list: list.slice(start, Math.max(start, end)), scalar: undefined, star: val.star }, inDq, segs);
        return;
      }
      const scalar = val.scalar ?? "";
      // Offsets count characters; without surrogate pairs those are the string's own units,
      // and slicing it beats splitting it into an array of characters on every expansion.
      const chars = SURROGATE.test(scalar) ? [...scalar] : scalar;
      const n = chars.length;
      let start = off < 0 ? n + off : off;
      if (start < 0 || start > n) {
        segs.push({ s: "", q: inDq, split: !inDq });
        return;
      }
      let end = len === undefined ? n : len < 0 ? n + len : start + len;
      if (end > n) end = n;
      if (end < start) {
        if (len !== undefined && len < 0) throw new AbortLine(`${len}: substring expression < 0`, 1);
        end = start;
      }
      segs.push({ s: typeof chars === "string" ? chars.slice(start, end) : chars.slice(start, end).join(""), q: inDq, split: !inDq });
      return;
    }
    case "@": {
      const t = litText(pe.arg!) ?? "";
      fn = perValue((s) => transform(ctx, t, s, name));
      if (t === "P") {
        await promptParam(ctx, val, inDq, segs);
        return;
      }
      if (t === "a") {
        // one attribute string per element for ${a[@]@a}
        const attrs = attrString(ctx.vars.resolve(name).v);
        if (val.list && pe.index) emit(ctx, { list: val.list.map(() => attrs), scalar: undefined, star: val.star }, inDq, segs);
        else segs.push({ s: attrs, q: inDq, split: !inDq });
        return;
      }
      if (t === "A") {
        segs.push({ s: assignForm(ctx, name, val), q: inDq, split: !inDq });
        return;
      }
      if (t === "K" || t === "k") {
        const v = ctx.vars.resolve(name).v;
        if (isArray(v) || isAssoc(v)) {
          const pairs: string[] = [];
          const entries: [string, string][] = isArray(v)
            ? arrayKeys(v.value).map((k): [string, string] => [String(k), (v.value as string[])[k]])
            : [...v.value.entries()];
          for (const [k, x] of entries) pairs.push(t === "K" ? `${isAssoc(v) ? quote(k) : k} ${quote(x)}` : `${k} ${x}`);
          if (t === "k") {
            emit(ctx, { list: entries.flat(), scalar: undefined, star: val.star }, inDq, segs);
            return;
          }
          segs.push({ s: pairs.join(" "), q: inDq, split: !inDq });
          return;
        }
        fn = perValue((s) => quote(s));
      }
      break;
    }
    default:
      throw new AbortLine(`bad substitution`, 1);
  }
  if (val.list) emit(ctx, { list: val.list.map(fn), scalar: undefined, star: val.star }, inDq, segs);
  else if (val.scalar === undefined && op === "@") segs.push({ s: "", q: inDq, split: !inDq });
  else segs.push({ s: fn(val.scalar ?? ""), q: inDq, split: !inDq });
}

function emit(ctx: ExpandCtx, val: PVal, inDq: boolean, segs: Seg[]): void {
  if (!val.list) {
    segs.push({ s: val.scalar ?? "", q: inDq, split: !inDq });
    return;
  }
  if (inDq && val.star) {
    const ifs = ctx.vars.get("IFS");
    const sep = ifs === undefined ? " " : ifs.slice(0, 1);
    segs.push({ s: val.list.join(sep), q: true, split: false });
    return;
  }
  // With a non-whitespace IFS character, unquoted empty elements still delimit fields:
  // $* joins with IFS[0] and is split again; $@ keeps each empty element as an empty field.
  const ifs = inDq ? undefined : ctx.vars.get("IFS");
  const hard = ifs !== undefined && /[^ \t\n]/.test(ifs);
  if (hard && val.star && !/[ \t\n]/.test(ifs[0])) {
    segs.push({ s: val.list.join(ifs[0]), q: false, split: true });
    return;
  }
  val.list.forEach((s, i) => {
    if (i > 0) segs.push({ brk: true, force: inDq });
    // (like joining with IFS[0] and splitting again: a trailing empty element adds no field)
    segs.push(hard && s === "" && i < val.list!.length - 1 ? { s, q: true, split: false } : { s, q: inDq, split: !inDq });
  });
}

/** Always single-quoted (${x@Q}, alias and trap listings). */
// characters quote() writes as $'...' escapes: controls and raw (non-UTF-8) bytes
const UNPRINTABLE = /[\x00-\x1f\x7f\udc80-\udcff]/;

export function quoteAlways(s: string): string {
  if (UNPRINTABLE.test(s)) return quote(s);
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

/** Backslash style as printf %q prints. */
export function quoteBackslash(s: string): string {
  if (s === "") return "''";
  if (UNPRINTABLE.test(s)) return quote(s);
  // non-ASCII characters are printable in a UTF-8 locale and stay as they are
  return s.replace(/[^A-Za-z0-9_@%+=:,./\u0080-\uffff-]/g, "\\$&");
}

export function quote(s: string): string {
  if (s === "") return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  if (UNPRINTABLE.test(s)) {
    return (
      "$'" +
      s.replace(/[\\']/g, "\\$&").replace(/[\x00-\x1f\x7f\udc80-\udcff]/g, (c) => {
        const m: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\E", "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v" };
        const code = c.charCodeAt(0);
        return m[c] ?? "\\" + (code >= 0xdc80 ? code - 0xdc00 : code).toString(8).padStart(3, "0");
      }) +
      "'"
    );
  }
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

function transform(ctx: ExpandCtx, t: string, s: string, name: string): string {
  void name;
  switch (t) {
    case "Q":
      return quoteAlways(s);
    case "E":
      return ansiExpand(s);
    case "P":
      return s;
    case "U":
      return s.toUpperCase();
    case "u":
      return s.charAt(0).toUpperCase() + s.slice(1);
    case "L":
      return s.toLowerCase();
    default:
      throw new AbortLine(`\${${name}@${t}}: bad substitution`, 1);
  }
}

function ansiExpand(s: string): string {
  // reuse $'...' decoding
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  return ansiDecode(s);
}
import { ansiC } from "../syntax/parser";
function ansiDecode(s: string): string {
  return ansiC(s.replace(/'/g, "\\'") + "'", 0).value;
}

export function attrString(v: import("../interp/vars").Var | undefined): string {
  if (!v) return "";
  let s = "";
  if (isArray(v)) s += "a";
  if (isAssoc(v)) s += "A";
  if (v.attrs & A_INTEGER) s += "i";
  if (v.attrs & A_LOWER) s += "l";
  if (v.attrs & A_NAMEREF) s += "n";
  if (v.attrs & A_READONLY) s += "r";
  if (v.attrs & A_UPPER) s += "u";
  if (v.attrs & A_EXPORT) s += "x";
  return s;
}

function assignForm(ctx: ExpandCtx, name: string, val: PVal): string {
  const v = ctx.vars.resolve(name).v;
  const attrs = attrString(v);
  const flag = attrs ? `declare -${attrs} ` : "";
  if (isArray(v))
    return `${flag || "declare -a "}${name}=(${arrayKeys(v.value)
      .map((k) => `[${k}]=${quote((v.value as string[])[k])}`)
      .join(" ")})`;
  if (isAssoc(v)) return `${flag}${name}=(${[...v.value.entries()].map(([k, x]) => `[${quote(k)}]=${quote(x)}`).join(" ")} )`;
  if (val.scalar === undefined) return "";
  return `${flag}${name}=${quote(val.scalar)}`;
}

/** ${x@P} needs async expansion (prompt strings may contain $(...)), so it bypasses transform. */
async function promptParam(ctx: ExpandCtx, val: PVal, inDq: boolean, segs: Seg[]): Promise<void> {
  if (val.list) {
    const list: string[] = [];
    for (const s of val.list) list.push(await expandPrompt(ctx, s));
    emit(ctx, { list, scalar: undefined, star: val.star }, inDq, segs);
  } else segs.push({ s: val.scalar === undefined ? "" : await expandPrompt(ctx, val.scalar), q: inDq, split: !inDq });
}
