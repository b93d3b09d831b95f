/**
 * Line diff as git computes it (xdiff's Myers with its record cleanup, split heuristics and
 * group compaction with the indent heuristic, git's defaults), so hunks match `git diff`
 * line for line. Written from the algorithm as git's xdiff describes it. The one port: the
 * checkpoints' diff (src/checkpoints/diff/render.ts) and the git command (src/tools/git/diff.ts)
 * both build their hunks on `editScript`.
 */

const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;
const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const SNAKE_CNT = 20;
const K_HEUR = 4;
const LINE_MAX = Number.MAX_SAFE_INTEGER;

function bogosqrt(n: number): number {
  let i = 1;
  for (; n > 0; n = Math.floor(n / 4)) i *= 2;
  return i;
}

/** Splits bytes (latin1 string) into records, each with its newline. */
export function records(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) {
      if (start < text.length) out.push(text.slice(start));
      return out;
    }
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
}

interface Side {
  recs: string[];
  ha: number[];
  /** changed flags, index shifted by one: rchg[i + 1] is record i (rchg[0] and rchg[n + 1] stay 0). */
  rchg: Uint8Array;
  rindex: number[];
  hashes: number[];
  dstart: number;
  dend: number;
}

function cleanMmatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > SIMSCAN_WINDOW) s = i - SIMSCAN_WINDOW;
  if (e - i > SIMSCAN_WINDOW) e = i + SIMSCAN_WINDOW;
  let r: number;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (r = 1; i - r >= s; r++) {
    if (!dis[i - r]) rdis0++;
    else if (dis[i - r] === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (r = 1; i + r <= e; r++) {
    if (!dis[i + r]) rdis1++;
    else if (dis[i + r] === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}

/** The changed flags of both sides (true: the record is deleted / added). */
function diffRecords(a: string[], b: string[]): { ch1: boolean[]; ch2: boolean[] } {
  const classes = new Map<string, number>();
  const len1: number[] = [];
  const len2: number[] = [];
  const classify = (recs: string[], pass: 1 | 2) =>
    recs.map((r) => {
      let c = classes.get(r);
      if (c === undefined) {
        c = classes.size;
        classes.set(r, c);
        len1[c] = 0;
        len2[c] = 0;
      }
      if (pass === 1) len1[c]!++;
      else len2[c]!++;
      return c;
    });
  const mk = (recs: string[], hashes: number[]): Side => ({ recs, hashes, ha: [], rchg: new Uint8Array(recs.length + 2), rindex: [], dstart: 0, dend: recs.length - 1 });
  const x1 = mk(a, classify(a, 1));
  const x2 = mk(b, classify(b, 2));
  // trim ends
  let i = 0;
  let lim = Math.min(a.length, b.length);
  for (; i < lim; i++) if (x1.hashes[i] !== x2.hashes[i]) break;
  x1.dstart = x2.dstart = i;
  let j = 0;
  for (lim -= i; j < lim; j++) if (x1.hashes[a.length - 1 - j] !== x2.hashes[b.length - 1 - j]) break;
  x1.dend = a.length - j - 1;
  x2.dend = b.length - j - 1;
  // cleanup records
  const cleanup = (x: Side, other: number[]) => {
    const dis = new Uint8Array(x.recs.length + 1);
    const mlim = Math.min(bogosqrt(x.recs.length), MAX_EQLIMIT);
    for (let k = x.dstart; k <= x.dend; k++) {
      const nm = other[x.hashes[k]!] ?? 0;
      dis[k] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
    }
    for (let k = x.dstart; k <= x.dend; k++) {
      if (dis[k] === 1 || (dis[k] === 2 && !cleanMmatch(dis, k, x.dstart, x.dend))) {
        x.rindex.push(k);
        x.ha.push(x.hashes[k]!);
      } else x.rchg[k + 1] = 1;
    }
  };
  cleanup(x1, len2);
  cleanup(x2, len1);
  // Myers over the kept records
  const n1 = x1.ha.length;
  const n2 = x2.ha.length;
  const ndiags = n1 + n2 + 3;
  const kvdfBuf = new Float64Array(ndiags + 2);
  const kvdbBuf = new Float64Array(ndiags + 2);
  const base = n2 + 1;
  const kvdf = { get: (d: number) => kvdfBuf[d + base]!, set: (d: number, v: number) => void (kvdfBuf[d + base] = v) };
  const kvdb = { get: (d: number) => kvdbBuf[d + base]!, set: (d: number, v: number) => void (kvdbBuf[d + base] = v) };
  const mxcost = Math.max(bogosqrt(ndiags), MAX_COST_MIN);
  const ha1 = x1.ha;
  const ha2 = x2.ha;

  const split = (off1: number, lim1: number, off2: number, lim2: number, needMin: boolean) => {
    const dmin = off1 - lim2;
    const dmax = lim1 - off2;
    const fmid = off1 - off2;
    const bmid = lim1 - lim2;
    const odd = ((fmid - bmid) & 1) !== 0;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    kvdf.set(fmid, off1);
    kvdb.set(bmid, lim1);
    for (let ec = 1; ; ec++) {
      let gotSnake = false;
      if (fmin > dmin) kvdf.set(--fmin - 1, -1);
      else ++fmin;
      if (fmax < dmax) kvdf.set(++fmax + 1, -1);
      else --fmax;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = kvdf.get(d - 1) >= kvdf.get(d + 1) ? kvdf.get(d - 1) + 1 : kvdf.get(d + 1);
        const prev1 = i1;
        let i2 = i1 - d;
        for (; i1 < lim1 && i2 < lim2 && ha1[i1] === ha2[i2]; i1++, i2++);
        if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
        kvdf.set(d, i1);
        if (odd && bmin <= d && d <= bmax && kvdb.get(d) <= i1) return { i1, i2, minLo: true, minHi: true };
      }
      if (bmin > dmin) kvdb.set(--bmin - 1, LINE_MAX);
      else ++bmin;
      if (bmax < dmax) kvdb.set(++bmax + 1, LINE_MAX);
      else --bmax;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = kvdb.get(d - 1) < kvdb.get(d + 1) ? kvdb.get(d - 1) : kvdb.get(d + 1) - 1;
        const prev1 = i1;
        let i2 = i1 - d;
        for (; i1 > off1 && i2 > off2 && ha1[i1 - 1] === ha2[i2 - 1]; i1--, i2--);
        if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
        kvdb.set(d, i1);
        if (!odd && fmin <= d && d <= fmax && i1 <= kvdf.get(d)) return { i1, i2, minLo: true, minHi: true };
      }
      if (needMin) continue;
      if (gotSnake && ec > HEUR_MIN_COST) {
        let best = 0;
        let spl = { i1: 0, i2: 0 };
        for (let d = fmax; d >= fmin; d -= 2) {
          const dd = d > fmid ? d - fmid : fmid - d;
          const i1 = kvdf.get(d);
          const i2 = i1 - d;
          const v = i1 - off1 + (i2 - off2) - dd;
          if (v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2) {
            for (let k = 1; ha1[i1 - k] === ha2[i2 - k]; k++)
              if (k === SNAKE_CNT) {
                best = v;
                spl = { i1, i2 };
                break;
              }
          }
        }
        if (best > 0) return { ...spl, minLo: true, minHi: false };
        best = 0;
        for (let d = bmax; d >= bmin; d -= 2) {
          const dd = d > bmid ? d - bmid : bmid - d;
          const i1 = kvdb.get(d);
          const i2 = i1 - d;
          const v = lim1 - i1 + (lim2 - i2) - dd;
          if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT) {
            for (let k = 0; ha1[i1 + k] === ha2[i2 + k]; k++)
              if (k === SNAKE_CNT - 1) {
                best = v;
                spl = { i1, i2 };
                break;
              }
          }
        }
        if (best > 0) return { ...spl, minLo: false, minHi: true };
      }
      if (ec >= mxcost) {
        let fbest = -1;
        let fbest1 = -1;
        for (let d = fmax; d >= fmin; d -= 2) {
          let i1 = Math.min(kvdf.get(d), lim1);
          let i2 = i1 - d;
          if (lim2 < i2) (i1 = lim2 + d), (i2 = lim2);
          if (fbest < i1 + i2) {
            fbest = i1 + i2;
            fbest1 = i1;
          }
        }
        let bbest = LINE_MAX;
        let bbest1 = LINE_MAX;
        for (let d = bmax; d >= bmin; d -= 2) {
          let i1 = Math.max(off1, kvdb.get(d));
          let i2 = i1 - d;
          if (i2 < off2) (i1 = off2 + d), (i2 = off2);
          if (i1 + i2 < bbest) {
            bbest = i1 + i2;
            bbest1 = i1;
          }
        }
        if (lim1 + lim2 - bbest < fbest - (off1 + off2)) return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
        return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
      }
    }
  };

  const recsCmp = (off1: number, lim1: number, off2: number, lim2: number, needMin: boolean): void => {
    for (; off1 < lim1 && off2 < lim2 && ha1[off1] === ha2[off2]; off1++, off2++);
    for (; off1 < lim1 && off2 < lim2 && ha1[lim1 - 1] === ha2[lim2 - 1]; lim1--, lim2--);
    if (off1 === lim1) {
      for (; off2 < lim2; off2++) x2.rchg[x2.rindex[off2]! + 1] = 1;
    } else if (off2 === lim2) {
      for (; off1 < lim1; off1++) x1.rchg[x1.rindex[off1]! + 1] = 1;
    } else {
      const spl = split(off1, lim1, off2, lim2, needMin);
      recsCmp(off1, spl.i1, off2, spl.i2, spl.minLo);
      recsCmp(spl.i1, lim1, spl.i2, lim2, spl.minHi);
    }
  };
  recsCmp(0, n1, 0, n2, false);
  compact(x1, x2);
  compact(x2, x1);
  const flags = (x: Side) => Array.from({ length: x.recs.length }, (_, k) => x.rchg[k + 1] === 1);
  return { ch1: flags(x1), ch2: flags(x2) };
}

/** One change of the edit script: `c1` records of `a` from `i1` replaced by `c2` records of `b` from `i2`. */
interface Edit {
  i1: number;
  c1: number;
  i2: number;
  c2: number;
}

/** The edit script between two record lists (xdl_build_script): runs of changed records, paired in order. */
function editScript(a: string[], b: string[]): Edit[] {
  const { ch1, ch2 } = diffRecords(a, b);
  const out: Edit[] = [];
  for (let i1 = a.length, i2 = b.length; i1 >= 0 || i2 >= 0; i1--, i2--) {
    if ((i1 > 0 && ch1[i1 - 1]) || (i2 > 0 && ch2[i2 - 1])) {
      const l1 = i1;
      const l2 = i2;
      for (; i1 > 0 && ch1[i1 - 1]; i1--);
      for (; i2 > 0 && ch2[i2 - 1]; i2--);
      out.push({ i1, c1: l1 - i1, i2, c2: l2 - i2 });
    }
  }
  return out.reverse();
}

export interface Hunks {
  /** The hunks, without file headers. */
  text: string;
  added: number;
  deleted: number;
}

/**
 * xdiff's emitter over the edit script: changes at most 2×`context` records apart share a hunk;
 * a header names the nearest earlier record that starts with a letter, `_` or `$` (git's default
 * funcname rule), searched no further up than the previous hunk's start and shortened by `cut80`
 * to 80 bytes (records are latin1 for the checkpoints, where a character is a byte; text for git).
 */
export function hunks(a: string[], b: string[], context: number, cut80: (rec: string) => string): Hunks {
  const script = editScript(a, b);
  let text = "";
  let added = 0;
  let deleted = 0;
  let func = "";
  let funcPrev = -1;
  const emit = (prefix: string, rec: string) => {
    text += rec.endsWith("\n") ? prefix + rec : `${prefix}${rec}\n\\ No newline at end of file\n`;
  };
  for (let h = 0; h < script.length; ) {
    let last = h;
    while (last + 1 < script.length && script[last + 1]!.i1 - (script[last]!.i1 + script[last]!.c1) <= 2 * context) last++;
    const first = script[h]!;
    const end = script[last]!;
    const s1 = Math.max(first.i1 - context, 0);
    const s2 = Math.max(first.i2 - context, 0);
    const e1 = Math.min(end.i1 + end.c1 + context, a.length);
    const e2 = Math.min(end.i2 + end.c2 + context, b.length);
    for (let l = s1 - 1; l > funcPrev && l >= 0; l--) {
      if (/^[A-Za-z_$]/.test(a[l]!)) {
        func = cut80(a[l]!.replace(/\n$/, "")).replace(/[ \t\n\v\f\r]+$/, "");
        break;
      }
    }
    funcPrev = s1 - 1;
    const range = (s: number, c: number) => (c === 1 ? `${s + 1}` : `${c ? s + 1 : s},${c}`);
    text += `@@ -${range(s1, e1 - s1)} +${range(s2, e2 - s2)} @@${func ? ` ${func}` : ""}\n`;
    let i1 = s1;
    for (let k = h; k <= last; k++) {
      const ch = script[k]!;
      for (; i1 < ch.i1; i1++) emit(" ", a[i1]!);
      for (let j = 0; j < ch.c1; j++) emit("-", a[ch.i1 + j]!);
      for (let j = 0; j < ch.c2; j++) emit("+", b[ch.i2 + j]!);
      deleted += ch.c1;
      added += ch.c2;
      i1 = ch.i1 + ch.c1;
    }
    for (; i1 < e1; i1++) emit(" ", a[i1]!);
    h = last + 1;
  }
  return { text, added, deleted };
}

// ---- compaction (xdl_change_compact) with the indent heuristic ------------------------

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";

function getIndent(rec: string): number {
  let ret = 0;
  for (const c of rec) {
    if (!isSpace(c)) return ret;
    if (c === " ") ret += 1;
    else if (c === "\t") ret += 8 - (ret % 8);
    if (ret >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface Measure {
  endOfFile: boolean;
  indent: number;
  preBlank: number;
  preIndent: number;
  postBlank: number;
  postIndent: number;
}

function measureSplit(x: Side, split: number): Measure {
  const n = x.recs.length;
  const m: Measure = { endOfFile: split >= n, indent: split >= n ? -1 : getIndent(x.recs[split]!), preBlank: 0, preIndent: -1, postBlank: 0, postIndent: -1 };
  for (let i = split - 1; i >= 0; i--) {
    m.preIndent = getIndent(x.recs[i]!);
    if (m.preIndent !== -1) break;
    m.preBlank += 1;
    if (m.preBlank === MAX_BLANKS) {
      m.preIndent = 0;
      break;
    }
  }
  for (let i = split + 1; i < n; i++) {
    m.postIndent = getIndent(x.recs[i]!);
    if (m.postIndent !== -1) break;
    m.postBlank += 1;
    if (m.postBlank === MAX_BLANKS) {
      m.postIndent = 0;
      break;
    }
  }
  return m;
}

function scoreAddSplit(m: Measure, s: { effectiveIndent: number; penalty: number }): void {
  if (m.preIndent === -1 && m.preBlank === 0) s.penalty += START_OF_FILE_PENALTY;
  if (m.endOfFile) s.penalty += END_OF_FILE_PENALTY;
  const postBlank = m.indent === -1 ? 1 + m.postBlank : 0;
  const totalBlank = m.preBlank + postBlank;
  s.penalty += TOTAL_BLANK_WEIGHT * totalBlank;
  s.penalty += POST_BLANK_WEIGHT * postBlank;
  const indent = m.indent !== -1 ? m.indent : m.postIndent;
  const anyBlanks = totalBlank !== 0;
  s.effectiveIndent += indent;
  if (indent === -1 || m.preIndent === -1) {
    // no adjustment
  } else if (indent > m.preIndent) {
    s.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  } else if (indent === m.preIndent) {
    // same level
  } else if (m.postIndent !== -1 && m.postIndent > indent) {
    s.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  } else {
    s.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
  }
}

const scoreCmp = (a: { effectiveIndent: number; penalty: number }, b: { effectiveIndent: number; penalty: number }) =>
  INDENT_WEIGHT * (Number(a.effectiveIndent > b.effectiveIndent) - Number(a.effectiveIndent < b.effectiveIndent)) + (a.penalty - b.penalty);

function compact(x: Side, o: Side): void {
  const ch = (s: Side, i: number) => s.rchg[i + 1] === 1;
  const setCh = (s: Side, i: number, v: 0 | 1) => void (s.rchg[i + 1] = v);
  const n = (s: Side) => s.recs.length;
  const g = { start: 0, end: 0 };
  const go = { start: 0, end: 0 };
  const init = (s: Side, gr: { start: number; end: number }) => {
    gr.start = gr.end = 0;
    while (ch(s, gr.end)) gr.end++;
  };
  const next = (s: Side, gr: { start: number; end: number }) => {
    if (gr.end === n(s)) return false;
    gr.start = gr.end + 1;
    for (gr.end = gr.start; ch(s, gr.end); gr.end++);
    return true;
  };
  const previous = (s: Side, gr: { start: number; end: number }) => {
    if (gr.start === 0) return false;
    gr.end = gr.start - 1;
    for (gr.start = gr.end; ch(s, gr.start - 1); gr.start--);
    return true;
  };
  const slideDown = (s: Side, gr: { start: number; end: number }) => {
    if (gr.end < n(s) && s.hashes[gr.start] === s.hashes[gr.end]) {
      setCh(s, gr.start++, 0);
      setCh(s, gr.end++, 1);
      while (ch(s, gr.end)) gr.end++;
      return true;
    }
    return false;
  };
  const slideUp = (s: Side, gr: { start: number; end: number }) => {
    if (gr.start > 0 && s.hashes[gr.start - 1] === s.hashes[gr.end - 1]) {
      setCh(s, --gr.start, 1);
      setCh(s, --gr.end, 0);
      while (ch(s, gr.start - 1)) gr.start--;
      return true;
    }
    return false;
  };
  const bug = (what: string): never => {
    throw new Error(`diff: ${what}`);
  };
  init(x, g);
  init(o, go);
  for (;;) {
    if (g.end !== g.start) {
      let groupsize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupsize = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(x, g)) if (!previous(o, go)) bug("group sync broken sliding up");
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!slideDown(x, g)) break;
          if (!next(o, go)) bug("group sync broken sliding down");
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupsize !== g.end - g.start);
      if (g.end === earliestEnd) {
        // no shifting possible
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          if (!slideUp(x, g)) bug("match disappeared");
          if (!previous(o, go)) bug("group sync broken sliding to match");
        }
      } else {
        let shift = earliestEnd;
        if (g.end - groupsize - 1 > shift) shift = g.end - groupsize - 1;
        if (g.end - INDENT_HEURISTIC_MAX_SLIDING > shift) shift = g.end - INDENT_HEURISTIC_MAX_SLIDING;
        let bestShift = -1;
        let best = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score = { effectiveIndent: 0, penalty: 0 };
          scoreAddSplit(measureSplit(x, shift), score);
          scoreAddSplit(measureSplit(x, shift - groupsize), score);
          if (bestShift === -1 || scoreCmp(score, best) <= 0) {
            best = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          if (!slideUp(x, g)) bug("best shift unreached");
          if (!previous(o, go)) bug("group sync broken sliding to blank line");
        }
      }
    }
    if (!next(x, g)) break;
    if (!next(o, go)) bug("group sync broken moving to next group");
  }
}
