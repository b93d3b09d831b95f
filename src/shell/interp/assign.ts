// Assignments: name=value, name[i]=value, name=(...), name+=..., through namerefs to array
// elements; traced under set -x as bash does.
import type { ArrayElem, Assign } from "../syntax/ast";
import { formatArray } from "../syntax/print";
import { dynamicKey, expandArgs, expandString, resolveIndex, splitSubscript } from "../expand/word";
import { BashAssoc } from "./assoc";
import type { Maybe } from "./maybe";
import { chain } from "./maybe";
import type { Fd, Shell } from "./shell";
import { A_EXPORT, A_INTEGER, A_NAMEREF, ShellError, isArray, isAssoc } from "./vars";
import { traceRaw, xtraceQuote } from "./xtrace";

/** The array element a nameref points at, if it points at one. */
function refElement(sh: Shell, name: string): { name: string; sub: string } | null {
  const v = sh.vars.resolve(name).v;
  return v && v.attrs & A_NAMEREF && typeof v.value === "string" && v.value.endsWith("]") ? splitSubscript(v.value) : null;
}

/** Assignment statement (name=value, name[i]=v, name=(...), name+=...). */
/** `trace`: a standalone assignment under set -x, traced (bash style, one line each) after
 * its value is expanded and before it is stored, so PS4 still sees the old value. */
export function assign(sh: Shell, a: Assign, fds: Fd[], trace = false): Maybe<void> {
  // name=value stays synchronous; traced, indexed, array and nameref-element assignments wait
  if (a.index || a.array || (trace && sh.opts.xtrace) || refElement(sh, a.name)) return assignTraced(sh, a, fds, trace);
  return chain(a.value ? expandString(sh, a.value) : "", (val) => setScalar(sh, a, sh.checkString(val)));
}

async function assignTraced(sh: Shell, a: Assign, fds: Fd[], trace: boolean): Promise<void> {
  const tr = trace && sh.opts.xtrace ? (sub: string, val: string) => traceRaw(sh, fds, `${a.name}${sub}${a.append ? "+=" : "="}${val}`) : null;
  // a nameref to an array element (ref='A[$k]') writes that element, subscript evaluated now
  const target = a.index ? null : refElement(sh, a.name);
  if (target && (a.array || target.sub === "@" || target.sub === "*")) throw new ShellError(`\`${target.name}[${target.sub}]': not a valid identifier`, 1);
  if (target) {
    const val = a.value ? await expandString(sh, a.value) : "";
    if (tr) await tr("", val === "" ? "" : xtraceQuote(val));
    sh.vars.setIndex(target.name, await dynamicKey(sh, target.name, target.sub), sh.checkString(val), a.append);
    return;
  }
  if (a.array) {
    // bash traces a compound assignment as written, before expansion (`+ a=(x "$y")`)
    const elems = a.array;
    await assignArray(sh, a.name, elems, a.append, false, tr ? () => tr("", formatArray(elems)) : undefined);
    return;
  }
  const val = a.value ? await expandString(sh, a.value) : "";
  sh.checkString(val);
  if (a.index) {
    const key = await resolveIndex(sh, a.name, a.index);
    if (tr) await tr(`[${key}]`, val === "" ? "" : xtraceQuote(val));
    sh.vars.setIndex(a.name, key, val, a.append);
  } else {
    if (tr) await tr("", val === "" ? "" : xtraceQuote(val));
    setScalar(sh, a, val);
  }
}

/** Stores name=value / name+=value (element 0 of an array). */
function setScalar(sh: Shell, a: Assign, val: string): void {
  const v = sh.vars.resolve(a.name).v;
  if (v && (isArray(v) || isAssoc(v)) && !a.append) {
    sh.vars.setIndex(a.name, "0", val);
  } else if (v && isArray(v) && a.append) {
    sh.vars.setIndex(a.name, "0", val, true);
  } else sh.vars.set(a.name, val, a.append);
  if (sh.opts.allexport) sh.vars.cell(a.name).attrs |= A_EXPORT;
}

export async function assignArray(
  sh: Shell,
  name: string,
  elems: ArrayElem[],
  append: boolean,
  forceAssoc: boolean,
  trace?: (vals: string[]) => Promise<void>,
): Promise<void> {
  const cell = sh.vars.cell(name);
  const assoc = forceAssoc || cell.value instanceof Map;
  // values are expanded first, then keys are evaluated and assigned in order (bash)
  const vals: (string | string[])[] = [];
  for (const el of elems) vals.push(el.key ? await expandString(sh, el.value) : await expandArgs(sh, [el.value]));
  if (trace) await trace(vals.flat());
  if (assoc) {
    const m = append && cell.value instanceof Map ? cell.value : new BashAssoc();
    cell.value = m;
    const keyed = elems.some((e) => e.key);
    if (!keyed) {
      const flat = (vals as string[][]).flat();
      for (let i = 0; i < flat.length; i += 2) m.set(flat[i], flat[i + 1] ?? "");
      return;
    }
    for (let i = 0; i < elems.length; i++) {
      const el = elems[i];
      if (!el.key) continue;
      const k = await expandString(sh, el.key);
      const v = vals[i] as string;
      m.set(k, el.append ? (m.get(k) ?? "") + v : v);
    }
    return;
  }
  const arr: string[] = append && Array.isArray(cell.value) ? cell.value : append && typeof cell.value === "string" ? [cell.value] : [];
  cell.value = arr;
  const ks = Object.keys(arr);
  let idx = ks.length ? +ks[ks.length - 1] + 1 : 0;
  for (let i = 0; i < elems.length; i++) {
    const el = elems[i];
    if (el.key) {
      let k = Number(sh.arith(await expandString(sh, el.key)));
      if (k < 0) k += idx;
      const v = vals[i] as string;
      arr[k] = el.append ? (arr[k] ?? "") + v : v;
      idx = k + 1;
    } else {
      for (const v of vals[i] as string[]) arr[idx++] = v;
    }
  }
  if (cell.attrs & A_INTEGER) for (const k in arr) arr[k] = sh.arith(arr[k]).toString();
}
