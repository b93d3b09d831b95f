// Brace expansion on the word AST: only unquoted literal braces and commas count, so
// the word is flattened to single characters plus opaque parts first.
import type { Word, WordPart } from "../syntax/ast";

type Tok = string | WordPart; // string = one unquoted literal char

export function hasBrace(w: Word): boolean {
  for (const p of w.parts) if (p.type === "lit" && !p.quoted && p.value.includes("{")) return true;
  return false;
}

export function braceExpand(w: Word, limit: { n: number; onLimit: () => never }): Word[] {
  const toks: Tok[] = [];
  for (const p of w.parts) {
    if (p.type === "lit" && !p.quoted) for (const c of p.value) toks.push(c);
    else toks.push(p);
  }
  const out = expand(toks, limit);
  return out.map((ts) => ({ parts: rebuild(ts), pos: w.pos }));
}

function rebuild(ts: Tok[]): WordPart[] {
  const parts: WordPart[] = [];
  let lit = "";
  for (const t of ts) {
    if (typeof t === "string") lit += t;
    else {
      if (lit) {
        parts.push({ type: "lit", value: lit });
        lit = "";
      }
      parts.push(t);
    }
  }
  if (lit) parts.push({ type: "lit", value: lit });
  return parts;
}

function expand(ts: Tok[], limit: { n: number; onLimit: () => never }): Tok[][] {
  for (let i = 0; i < ts.length; i++) {
    if (ts[i] !== "{") continue;
    // find the matching close and top-level commas
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let j = i + 1; j < ts.length; j++) {
      const t = ts[j];
      if (t === "{") depth++;
      else if (t === "}") {
        if (depth === 0) {
          close = j;
          break;
        }
        depth--;
      } else if (t === "," && depth === 0) commas.push(j);
    }
    if (close < 0) return [ts];
    const pre = ts.slice(0, i);
    const post = ts.slice(close + 1);
    let alts: Tok[][] | null = null;
    if (commas.length) {
      alts = [];
      let s = i + 1;
      for (const c of [...commas, close]) {
        alts.push(ts.slice(s, c));
        s = c + 1;
      }
    } else {
      const inner = ts.slice(i + 1, close);
      if (inner.every((t) => typeof t === "string")) {
        const seq = sequence((inner as string[]).join(""), limit);
        if (seq) alts = seq.map((s) => [...s]);
      }
    }
    if (!alts) {
      // not a brace expression: keep "{" literal and look further
      const rest = expand(ts.slice(i + 1), limit);
      return rest.map((r) => [...ts.slice(0, i + 1), ...r]);
    }
    const results: Tok[][] = [];
    const posts = expand(post, limit);
    for (const a of alts) {
      for (const e of expand([...pre, ...a], limit)) {
        for (const p of posts) {
          if (--limit.n < 0) limit.onLimit();
          results.push([...e, ...p]);
        }
      }
    }
    return results;
  }
  return [ts];
}

function sequence(s: string, limit: { n: number; onLimit: () => never }): string[] | null {
  let m = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(s);
  if (m) {
    const a = parseInt(m[1], 10);
    const b = parseInt(m[2], 10);
    let step = m[3] ? Math.abs(parseInt(m[3], 10)) : 1;
    if (step === 0) step = 1;
    const width = /^-?0\d/.test(m[1]) || /^-?0\d/.test(m[2]) ? Math.max(m[1].length, m[2].length) : 0;
    const out: string[] = [];
    const count = Math.floor(Math.abs(b - a) / step) + 1;
    if (count > limit.n) limit.onLimit();
    for (let k = 0, v = a; k < count; k++, v += a <= b ? step : -step) {
      let t = String(Math.abs(v));
      if (width) t = t.padStart(v < 0 ? width - 1 : width, "0");
      out.push(v < 0 ? "-" + t : t);
    }
    return out;
  }
  m = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(s);
  if (m) {
    const a = m[1].charCodeAt(0);
    const b = m[2].charCodeAt(0);
    let step = m[3] ? Math.abs(parseInt(m[3], 10)) : 1;
    if (step === 0) step = 1;
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) out.push(String.fromCharCode(v));
    return out;
  }
  return null;
}
