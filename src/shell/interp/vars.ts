// Variables with bash's dynamic scoping: a stack of frames, the first one global.
// Indexed arrays are sparse JS arrays (Object.keys gives ascending indices);
// associative arrays are BashAssoc maps, listing keys in bash's hash order (assoc.ts).

import { BashAssoc } from "./assoc";
export const A_EXPORT = 1,
  A_READONLY = 2,
  A_INTEGER = 4,
  A_LOWER = 8,
  A_UPPER = 16,
  A_NAMEREF = 32;

export interface Var {
  value: string | string[] | Map<string, string> | undefined; // undefined: declared, not set
  attrs: number;
}

export class ShellError extends Error {
  /** The message's `NAME: line N: ` when it was raised inside a function and is printed after
   * the function has returned (bash prints it where it happened). */
  where?: string;
  constructor(
    message: string,
    public status = 1,
    public fatal = false,
  ) {
    super(message);
  }
}

export interface ArrVar {
  value: string[];
  attrs: number;
}
export interface MapVar {
  value: Map<string, string>;
  attrs: number;
}
export function isArray(v: Var | undefined): v is ArrVar {
  return !!v && Array.isArray(v.value);
}
export function isAssoc(v: Var | undefined): v is MapVar {
  return !!v && v.value instanceof Map;
}

export function arrayKeys(a: string[]): number[] {
  const ks = Object.keys(a);
  const out = new Array<number>(ks.length);
  for (let i = 0; i < ks.length; i++) out[i] = +ks[i];
  return out;
}
export function arrayValues(a: string[]): string[] {
  const out: string[] = [];
  for (const k in a) out.push(a[k]);
  return out;
}

export class VarStore {
  frames: Map<string, Var>[] = [new Map()];
  /** Hook for dynamic variables (RANDOM, SECONDS, LINENO); returns undefined to fall through. */
  dynamic: (name: string) => string | undefined = () => undefined;

  clone(): VarStore {
    const c = new VarStore();
    c.frames = this.frames.map((f) => {
      const m = new Map<string, Var>();
      for (const [k, v] of f) m.set(k, { attrs: v.attrs, value: copyValue(v.value) });
      return m;
    });
    c.dynamic = this.dynamic;
    c.pipe = this.pipe;
    this.frames.forEach((f, i) => {
      if (this.temp.has(f)) c.temp.add(c.frames[i]);
    });
    return c;
  }

  /** PIPESTATUS is kept as raw statuses and only turned into an array when read. */
  pipe: number | number[] = 0;
  private pipeVar: Var = { value: ["0"], attrs: 0 };

  lookup(name: string): Var | undefined {
    if (name === "PIPESTATUS") {
      const p = this.pipe;
      this.pipeVar.value = typeof p === "number" ? [String(p)] : p.map(String);
      return this.pipeVar;
    }
    const fr = this.frames;
    for (let i = fr.length - 1; i >= 0; i--) {
      const v = fr[i].get(name);
      if (v) return v;
    }
    return undefined;
  }

  /** Follows namerefs. */
  resolve(name: string): { name: string; v: Var | undefined; cycle?: boolean } {
    let v = this.lookup(name);
    let n = name;
    for (let k = 0; k < 10 && v && v.attrs & A_NAMEREF && typeof v.value === "string" && v.value; k++) {
      n = v.value;
      const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(n);
      if (!m || m[1] !== n) break;
      v = this.lookup(n);
    }
    // still at a plain-name nameref after the hop limit: a reference cycle, which reads as unset
    if (v && v.attrs & A_NAMEREF && typeof v.value === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v.value)) return { name: n, v: undefined, cycle: true };
    return { name: n, v };
  }

  /** Scalar value (element 0 for arrays); undefined when unset. */
  get(name: string): string | undefined {
    const d = this.dynamic(name);
    if (d !== undefined) return d;
    let v = this.lookup(name);
    if (v && v.attrs & A_NAMEREF) v = this.resolve(name).v;
    if (!v) return undefined;
    const val = v.value;
    if (typeof val === "string" || val === undefined) return val;
    if (Array.isArray(val)) return val[0];
    return val.get("0");
  }

  isSet(name: string): boolean {
    return this.get(name) !== undefined;
  }

  private frameFor(name: string): Map<string, Var> {
    const fr = this.frames;
    for (let i = fr.length - 1; i >= 0; i--) if (fr[i].has(name)) return fr[i];
    return fr[0];
  }

  /** Gets or creates the variable cell for writing (following namerefs). */
  cell(name: string, forWrite = true): Var {
    let v = this.lookup(name);
    if (v && v.attrs & A_NAMEREF && typeof v.value === "string" && v.value) {
      const r = this.resolve(name);
      if (r.cycle) throw new ShellError(`${name}: circular name reference`, 1);
      name = r.name;
      v = r.v;
    }
    if (v) {
      if (forWrite && v.attrs & A_READONLY) throw new ShellError(`${name}: readonly variable`, 1);
      return v;
    }
    const nv: Var = { value: undefined, attrs: 0 };
    this.frames[0].set(name, nv);
    return nv;
  }

  set(name: string, value: string, append = false): void {
    const v = this.cell(name);
    value = this.transform(v, value, append);
    if (Array.isArray(v.value)) v.value[0] = value;
    else if (v.value instanceof Map) v.value.set("0", value);
    else v.value = value;
  }

  transform(v: Var, value: string, append: boolean, old?: string): string {
    const cur = old ?? (typeof v.value === "string" ? v.value : Array.isArray(v.value) ? v.value[0] : v.value?.get("0")) ?? "";
    if (v.attrs & A_INTEGER && this.arith) {
      const n = this.arith(value);
      value = append ? String(BigInt(cur || "0") + BigInt(n)) : n;
    } else if (append) value = cur + value;
    if (v.attrs & A_LOWER) value = value.toLowerCase();
    if (v.attrs & A_UPPER) value = value.toUpperCase();
    return value;
  }
  arith: ((s: string) => string) | null = null;

  setIndex(name: string, key: string, value: string, append = false): void {
    const v = this.cell(name);
    if (v.value instanceof Map) {
      v.value.set(key, this.transform(v, value, append, v.value.get(key)));
      return;
    }
    if (!Array.isArray(v.value)) {
      const old = v.value;
      v.value = [];
      if (old !== undefined) v.value[0] = old;
    }
    let idx = Number(key);
    const arr = v.value as string[];
    if (idx < 0) {
      const ks = arrayKeys(arr);
      const len = ks.length ? ks[ks.length - 1] + 1 : 0;
      idx += len;
      if (idx < 0) throw new ShellError(`${name}[${key}]: bad array subscript`, 1);
    }
    arr[idx] = this.transform(v, value, append, arr[idx]);
  }

  setArray(name: string, values: string[] | Map<string, string>): void {
    const v = this.cell(name);
    v.value = values;
  }

  /** Frames holding prefix assignments (x=1 cmd) are skipped by `local`. */
  temp = new WeakSet<Map<string, Var>>();
  topFrame(): Map<string, Var> {
    for (let i = this.frames.length - 1; i > 0; i--) if (!this.temp.has(this.frames[i])) return this.frames[i];
    return this.frames[0];
  }

  declareLocal(name: string): Var {
    const top = this.topFrame();
    let v = top.get(name);
    if (!v) {
      v = { value: undefined, attrs: 0 };
      top.set(name, v);
    }
    return v;
  }

  unset(name: string): void {
    const f = this.frameFor(name);
    const v = f.get(name);
    if (v && v.attrs & A_READONLY) throw new ShellError(`${name}: cannot unset: readonly variable`, 1);
    if (v && v.attrs & A_NAMEREF && typeof v.value === "string" && v.value) {
      this.unset(v.value);
      return;
    }
    if (v && this.frames.length > 1 && f !== this.frames[0] && f === this.topFrame()) {
      // unsetting a local in its own scope leaves it local but unset (bash 5)
      v.value = undefined;
      v.attrs &= ~A_EXPORT;
      return;
    }
    f.delete(name);
  }

  names(): string[] {
    const s = new Set<string>();
    for (const f of this.frames) for (const [k, v] of f) if (v) s.add(k);
    return [...s];
  }

  exported(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const f of this.frames) {
      for (const [k, v] of f) {
        if (v.attrs & A_EXPORT && typeof v.value === "string") out[k] = k === "SHELLOPTS" || k === "BASHOPTS" ? (this.dynamic(k) ?? v.value) : v.value;
        else if (k in out && !(v.attrs & A_EXPORT)) delete out[k];
      }
    }
    return out;
  }
}

function copyValue(v: Var["value"]): Var["value"] {
  if (Array.isArray(v)) return v.slice();
  if (v instanceof BashAssoc) return v.clone();
  if (v instanceof Map) return new BashAssoc(v);
  return v;
}
