// Word expansion: tilde, parameters, command substitution, arithmetic, then field
// splitting with IFS, pathname expansion and quote removal. Expansion produces
// segments that remember whether their text was quoted, so splitting and globbing
// only touch unquoted expansion results.
import type { ArgWord, ParamExp, Stmt, Word, WordPart } from "../syntax/ast";
import { isAssignArg, litText } from "../syntax/ast";
import { arrayKeys, arrayValues, isArray, isAssoc, ShellError, VarStore, A_EXPORT, A_READONLY, A_INTEGER, A_LOWER, A_UPPER, A_NAMEREF } from "../interp/vars";
import { braceExpand, hasBrace } from "./brace";
import { regexFromPieces } from "./regex";
import { escapePattern, hasGlobMeta, matchPattern, removeAffix, replacePattern, unescapePattern, PatternOpts } from "./pattern";
import { ArithError } from "./arith";
import { Parser } from "../syntax/parser";
import { expandPrompt } from "./prompt";

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
}

type Seg = { s: string; q: boolean; split: boolean } | { brk: true; force: boolean };

/** Fatal expansion errors (unbound variable, ${x?}) exit a non-interactive shell. */
export class ExpandError extends ShellError {}

export class AbortLine extends ShellError {}

const DEFAULT_IFS = " \t\n";

export async function expandArgs(ctx: ExpandCtx, words: ArgWord[]): Promise<string[]> {
  const out: string[] = [];
  for (const aw of words) {
    if (isAssignArg(aw)) {
      out.push(await expandAssignArgText(ctx, aw));
      continue;
    }
    const w = aw;
    // fast path: plain literal
    if (w.parts.length === 1 && w.parts[0].type === "lit") {
      const p = w.parts[0];
      if (p.quoted || !(p.value.includes("{") || hasGlobMeta(p.value, ctx.opt("extglob")))) {
        out.push(p.value);
        continue;
      }
    }
    const ws = ctx.opt("braceexpand") && hasBrace(w) ? braceExpand(w, ctx.braceBudget()) : [w];
    for (const bw of ws) await expandFields(ctx, bw, true, out);
  }
  return out;
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

export async function expandFields(ctx: ExpandCtx, w: Word, glob: boolean, out: string[]): Promise<void> {
  const segs: Seg[] = [];
  await expandParts(ctx, w.parts, false, segs);
  const fields = splitSegs(ctx, segs, true);
  const noglob = !glob || ctx.opt("noglob");
  for (const f of fields) {
    if (!noglob && f.meta && hasGlobMeta(f.pat, ctx.opt("extglob"))) {
      const m = ctx.glob(f.pat);
      if (m.length) { out.push(...m); continue; }
      if (ctx.opt("failglob")) throw new AbortLine(`no match: ${f.text}`, 1);
      if (ctx.opt("nullglob")) continue;
    }
    out.push(f.text);
  }
}

/** Expansion without splitting or globbing (assignments, redirections, here-docs). */
export async function expandString(ctx: ExpandCtx, w: Word): Promise<string> {
  if (w.parts.length === 1) {
    const p = w.parts[0];
    if (p.type === "lit" || p.type === "sq") return p.value;
  }
  const segs: Seg[] = [];
  await expandParts(ctx, w.parts, false, segs, true);
  let s = "";
  for (const g of segs) {
    if ("brk" in g) s += " ";
    else s += g.s;
  }
  return s;
}

/** Expansion to a pattern: quoted text is escaped so it matches literally. */
export async function expandPattern(ctx: ExpandCtx, w: Word): Promise<string> {
  const segs: Seg[] = [];
  await expandParts(ctx, w.parts, false, segs, true);
  let s = "";
  for (const g of segs) {
    if ("brk" in g) s += " ";
    else s += g.q ? escapePattern(g.s) : g.s;
  }
  return s;
}

/** Expansion of the right side of =~ into a POSIX ERE: quoted text matches literally. */
export async function expandRegex(ctx: ExpandCtx, w: Word): Promise<string> {
  const segs: Seg[] = [];
  await expandParts(ctx, w.parts, false, segs, true);
  return regexFromPieces(segs.map((g) => ("brk" in g ? { s: " ", q: false } : g)));
}

interface Field { text: string; pat: string; meta: boolean; nonEmpty: boolean }

function splitSegs(ctx: ExpandCtx, segs: Seg[], split: boolean): Field[] {
  const fields: Field[] = [];
  let cur: Field | null = null;
  const ifsVal = ctx.vars.get("IFS");
  const ifs = ifsVal === undefined ? DEFAULT_IFS : ifsVal;
  let afterWs = false;
  const start = (): Field => (cur ??= { text: "", pat: "", meta: false, nonEmpty: false }) as Field;
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
      const f = start();
      f.text += g.s;
      f.pat += escapePattern(g.s);
      f.nonEmpty = true;
      afterWs = false;
      continue;
    }
    if (!g.split || !split || ifs === "") {
      if (!g.s) continue;
      const f = start();
      f.text += g.s;
      f.pat += g.s;
      f.meta = true;
      afterWs = false;
      continue;
    }
    const s = g.s;
    let run = "";
    const flushRun = () => {
      if (run) {
        const f = start();
        f.text += run;
        f.pat += run;
        f.meta = true;
        run = "";
      }
    };
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (ifs.includes(c)) {
        flushRun();
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
      } else {
        run += c;
        afterWs = false;
      }
    }
    flushRun();
  }
  if (cur && ((cur as Field).nonEmpty || (cur as Field).text)) fields.push(cur);
  return fields;
}

async function expandParts(ctx: ExpandCtx, parts: WordPart[], inDq: boolean, segs: Seg[], noSplit = false, litSplit = false): Promise<void> {
  for (const p of parts) {
    switch (p.type) {
      case "lit":
        segs.push({ s: p.value, q: inDq || !!p.quoted, split: litSplit && !inDq && !p.quoted && !noSplit });
        break;
      case "sq":
        segs.push({ s: p.value, q: true, split: false });
        break;
      case "dq": {
        const before = segs.length;
        await expandParts(ctx, p.parts, true, segs, noSplit);
        if (segs.length === before && !p.parts.some(isAtList)) segs.push({ s: "", q: true, split: false });
        break;
      }
      case "tilde": {
        let v: string | undefined;
        if (p.user === "") v = ctx.vars.get("HOME") ?? "/";
        else if (p.user === "+") v = ctx.vars.get("PWD");
        else if (p.user === "-") v = ctx.vars.get("OLDPWD");
        else if (p.user === "root") v = "/root";
        segs.push({ s: v ?? "~" + p.user, q: true, split: false });
        break;
      }
      case "param":
        await expandParam(ctx, p, inDq, segs);
        break;
      case "cmdsub": {
        const s = await ctx.cmdSubst(p.body);
        segs.push({ s, q: inDq, split: !inDq && !noSplit });
        break;
      }
      case "arith": {
        const s = await expandString(ctx, p.expr);
        let v: bigint;
        try {
          v = ctx.arith(s);
        } catch (e) {
          if (e instanceof ArithError) throw new AbortLine(e.message, 1);
          throw e;
        }
        segs.push({ s: v.toString(), q: inDq, split: !inDq && !noSplit });
        break;
      }
      case "procsub": {
        const s = await ctx.procSubst(p.dir, p.body);
        segs.push({ s, q: true, split: false });
        break;
      }
    }
  }
}

function isAtList(p: WordPart): boolean {
  return p.type === "param" && (p.name === "@" || (p.index !== undefined && litText(p.index) === "@") || (p.prefixNames === "@") || (!!p.keys && litText(p.index!) === "@")) && !p.length;
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
export function subscriptWord(sub: string): Word {
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

async function expandParam(ctx: ExpandCtx, pe: ParamExp, inDq: boolean, segs: Seg[]): Promise<void> {
  // fast path: $x / ${x}
  if (!pe.op && !pe.index && !pe.length && !pe.indirect && !pe.prefixNames && !pe.keys && !specialList(ctx, pe)) {
    let s: string | undefined;
    if (pe.name.length === 1 && !/[A-Za-z_]/.test(pe.name)) s = (await paramValue(ctx, pe.name, undefined)).scalar;
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
  if (pe.op === "bad") throw new ExpandError(`${litText(pe.arg!)}: bad substitution`, 1, true);
  let val: PVal;
  let name = pe.name;
  if (pe.prefixNames) {
    const names = ctx.vars.names().filter((n) => n.startsWith(pe.name) && ctx.vars.lookup(n)!.value !== undefined).sort();
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
  const isNull = val.list
    ? val.list.length === 0 || (val.list.length === 1 && val.list[0] === "") || (val.star && val.list.join(starSep) === "")
    : !val.scalar;
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
    case "#": case "##": case "%": case "%%": {
      const pat = await expandPattern(ctx, pe.arg!);
      fn = (s) => removeAffix(s, pat, op, popts);
      break;
    }
    case "/": case "//": case "/#": case "/%": {
      const pat = await expandPattern(ctx, pe.arg!);
      const rep = pe.arg2 ? await expandString(ctx, pe.arg2) : "";
      const mode = op === "/" ? "" : (op.slice(1) as "/" | "#" | "%");
      fn = (s) => ctx.checkString(replacePattern(s, pat, rep, mode, popts));
      break;
    }
    case "^": case "^^": case ",": case ",,": {
      const pat = pe.arg && pe.arg.parts.length ? await expandPattern(ctx, pe.arg) : "?";
      const up = op[0] === "^";
      const all = op.length === 2;
      fn = (s) => {
        let out = "";
        let done = false;
        for (const ch of s) {
          if (!done && matchPattern(ch, pat, popts)) {
            out += up ? ch.toUpperCase() : ch.toLowerCase();
            if (!all) done = true;
          } else {
            out += ch;
            if (!all) done = true;
          }
        }
        return out;
      };
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
        if (start < 0) { emit(ctx, { list: [], scalar: undefined, star: val.star }, inDq, segs); return; }
        if (pe.name === "@" || pe.name === "*") {
          if (start === 0 && off >= 0) start = 0;
        }
        let end = len === undefined ? n : len < 0 ? n + len : start + len;
        if (len !== undefined && len < 0) throw new AbortLine(`${len}: substring expression < 0`, 1);
        if (end > n) end = n;
        emit(ctx, { list: list.slice(start, Math.max(start, end)), scalar: undefined, star: val.star }, inDq, segs);
        return;
      }
      const chars = [...(val.scalar ?? "")];
      const n = chars.length;
      let start = off < 0 ? n + off : off;
      if (start < 0 || start > n) { segs.push({ s: "", q: inDq, split: !inDq }); return; }
      let end = len === undefined ? n : len < 0 ? n + len : start + len;
      if (end > n) end = n;
      if (end < start) {
        if (len !== undefined && len < 0) throw new AbortLine(`${len}: substring expression < 0`, 1);
        end = start;
      }
      segs.push({ s: chars.slice(start, end).join(""), q: inDq, split: !inDq });
      return;
    }
    case "@": {
      const t = litText(pe.arg!) ?? "";
      fn = (s) => transform(ctx, t, s, name);
      if (t === "P") { await promptParam(ctx, val, inDq, segs); return; }
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
          const entries: [string, string][] = isArray(v) ? arrayKeys(v.value).map((k): [string, string] => [String(k), (v.value as string[])[k]]) : [...v.value.entries()];
          for (const [k, x] of entries) pairs.push(t === "K" ? `${isAssoc(v) ? quote(k) : k} ${quote(x)}` : `${k} ${x}`);
          if (t === "k") { emit(ctx, { list: entries.flat(), scalar: undefined, star: val.star }, inDq, segs); return; }
          segs.push({ s: pairs.join(" "), q: inDq, split: !inDq });
          return;
        }
        fn = (s) => quote(s);
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
    return "$'" + s.replace(/[\\']/g, "\\$&").replace(/[\x00-\x1f\x7f\udc80-\udcff]/g, (c) => {
      const m: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\E", "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v" };
      const code = c.charCodeAt(0);
      return m[c] ?? "\\" + (code >= 0xdc80 ? code - 0xdc00 : code).toString(8).padStart(3, "0");
    }) + "'";
  }
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

function transform(ctx: ExpandCtx, t: string, s: string, name: string): string {
  void name;
  switch (t) {
    case "Q": return quoteAlways(s);
    case "E": return ansiExpand(s);
    case "P": return s;
    case "U": return s.toUpperCase();
    case "u": return s.charAt(0).toUpperCase() + s.slice(1);
    case "L": return s.toLowerCase();
    default: throw new AbortLine(`\${${name}@${t}}: bad substitution`, 1);
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
  if (isArray(v)) return `${flag || "declare -a "}${name}=(${arrayKeys(v.value).map((k) => `[${k}]=${quote((v.value as string[])[k])}`).join(" ")})`;
  if (isAssoc(v)) return `${flag}${name}=(${[...v.value.entries()].map(([k, x]) => `[${quote(k)}]=${quote(x)}`).join(" ")} )`;
  if (val.scalar === undefined) return "";
  return `${flag}${name}=${quote(val.scalar)}`;
}

export { unescapePattern };

/** ${x@P} needs async expansion (prompt strings may contain $(...)), so it bypasses transform. */
async function promptParam(ctx: ExpandCtx, val: PVal, inDq: boolean, segs: Seg[]): Promise<void> {
  if (val.list) {
    const list: string[] = [];
    for (const s of val.list) list.push(await expandPrompt(ctx, s));
    emit(ctx, { list, scalar: undefined, star: val.star }, inDq, segs);
  } else segs.push({ s: val.scalar === undefined ? "" : await expandPrompt(ctx, val.scalar), q: inDq, split: !inDq });
}
