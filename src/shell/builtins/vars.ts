// Builtins that manage variables and options: declare typeset local export readonly
// unset set shopt shift.
import { formatFunction } from "../syntax/print";
import type { Assign } from "../syntax/ast";
import type { Fd, Shell } from "../interp/shell";
import { SHOPTS, setOption } from "../interp/options";
import { BashAssoc } from "../interp/assoc";
import { A_EXPORT, A_INTEGER, A_LOWER, A_NAMEREF, A_READONLY, A_UPPER, Var, arrayKeys, isArray, isAssoc, ShellError } from "../interp/vars";
import { attrString, dynamicKey, quote } from "../expand/word";
import { berr, errOut, out, skipDashDash } from "./io";
import { Parser } from "../syntax/parser";
import { traceRaw, xtraceQuote } from "../interp/xtrace";

function declLine(name: string, v: Var): string {
  const a = attrString(v) || "-";
  const flags = `declare -${a === "-" ? "-" : a} `;
  if (v.value === undefined) return `${flags}${name}`;
  if (isArray(v))
    return `${flags}${name}=(${arrayKeys(v.value)
      .map((k) => `[${k}]=${dq((v.value as string[])[k])}`)
      .join(" ")})`;
  if (isAssoc(v) && !v.value.size) return `${flags}${name}=()`;
  if (isAssoc(v)) return `${flags}${name}=(${[...v.value.entries()].map(([k, x]) => `[${hasShellMetas(k) ? dq(k) : k}]=${dq(x)}`).join(" ")} )`;
  return `${flags}${name}=${dq(v.value as string)}`;
}
/** bash's sh_contains_shell_metas: whether `declare -p` quotes an associative key. */
function hasShellMetas(s: string): boolean {
  return s === "" || /[ \t\n'"\\|&;()<>!{}*[\]?^$`]/.test(s) || /^[~#]|[=:]~/.test(s);
}
function dq(s: string): string {
  if (/[\x00-\x1f\x7f]/.test(s)) return quote(s);
  return '"' + s.replace(/["\\$`]/g, "\\$&") + '"';
}

export async function declare(sh: Shell, argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>): Promise<number> {
  const cmd = argv[0];
  let on = 0;
  let off = 0;
  let arr = false;
  let assoc = false;
  let print = false;
  let funcs = false;
  let funcNames = false;
  let global = false;
  let i = 1;
  const isLocal = cmd === "local";
  if (cmd === "export") on |= A_EXPORT;
  if (cmd === "readonly") on |= A_READONLY;
  let unexport = false;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!/^[-+][a-zA-Z]+$/.test(a)) break;
    const add = a[0] === "-";
    for (const c of a.slice(1)) {
      let bit = 0;
      switch (c) {
        case "a":
          arr = true;
          break;
        case "A":
          assoc = true;
          break;
        case "p":
          print = true;
          break;
        case "f":
          funcs = true;
          break;
        case "F":
          funcNames = true;
          break;
        case "g":
          global = true;
          break;
        case "x":
          bit = A_EXPORT;
          break;
        case "r":
          bit = A_READONLY;
          break;
        case "i":
          bit = A_INTEGER;
          break;
        case "l":
          bit = A_LOWER;
          break;
        case "u":
          bit = A_UPPER;
          break;
        case "n":
          bit = A_NAMEREF;
          if (cmd === "export") {
            unexport = add;
            bit = 0;
          }
          break;
        case "t":
          break;
        default:
          await berr(sh, fds, cmd, `${a}: invalid option`);
          return 2;
      }
      if (bit) {
        if (add) on |= bit;
        else off |= bit;
      }
    }
  }
  if (unexport) {
    off |= A_EXPORT;
    on &= ~A_EXPORT;
  }
  const names = argv.slice(i);
  // `export -f f` / `declare -fx f`: child shells get the function; `export -nf f` takes it back.
  if (funcs && names.length && (cmd === "export" || on & A_EXPORT || off & A_EXPORT)) {
    let st = 0;
    for (const n of names) {
      if (!sh.funcs.has(n)) {
        await berr(sh, fds, cmd, `${n}: not a function`);
        st = 1;
      } else if (off & A_EXPORT) sh.exportedFuncs.delete(n);
      else sh.exportedFuncs.add(n);
    }
    return st;
  }
  if (funcs || funcNames) {
    if (!names.length) {
      for (const [n, f] of [...sh.funcs].sort()) await out(fds, funcNames ? `declare -f ${n}\n` : `${formatFunction(f)}\n`);
      return 0;
    }
    let st = 0;
    // export -f / readonly -f NAME mark a function (child shells here see every function)
    const marking = (cmd === "export" || cmd === "readonly") && !print;
    for (const n of names) {
      if (!sh.funcs.has(n)) {
        st = 1;
        if (marking) await berr(sh, fds, cmd, `${n}: not a function`);
      } else if (!marking) await out(fds, funcNames ? `${n}\n` : `${formatFunction(sh.funcs.get(n)!)}\n`);
    }
    return st;
  }
  if (!names.length) {
    if (cmd === "local" && sh.callDepth === 0) {
      await berr(sh, fds, cmd, "can only be used in a function");
      return 1;
    }
    // list variables
    const all = sh.vars.names().sort();
    for (const n of all) {
      const v = sh.vars.lookup(n)!;
      if (on && (v.attrs & on) !== on) continue;
      if (arr && !isArray(v)) continue;
      if (assoc && !isAssoc(v)) continue;
      if (cmd === "export" || (cmd === "declare" && on === A_EXPORT)) await out(fds, declLine(n, v).replace(/^declare/, "declare") + "\n");
      else if (cmd === "readonly") await out(fds, declLine(n, v) + "\n");
      else if (print || on || arr || assoc) await out(fds, declLine(n, v) + "\n");
      else if (v.value !== undefined) {
        if (typeof v.value === "string") await out(fds, `${n}=${quote(v.value)}\n`);
        else await out(fds, declLine(n, v).replace(/^declare -\S+ /, "") + "\n");
      }
    }
    return 0;
  }
  if (print) {
    let st = 0;
    for (const n of names) {
      const v = sh.vars.lookup(n);
      if (!v) {
        await berr(sh, fds, cmd, `${n}: not found`);
        st = 1;
        continue;
      }
      await out(fds, declLine(n, v) + "\n");
    }
    return st;
  }
  if (isLocal && sh.callDepth === 0) {
    await berr(sh, fds, cmd, "can only be used in a function");
    return 1;
  }
  let st = 0;
  for (let k = i; k < argv.length; k++) {
    const a = argv[k];
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?=)?(.*)$/s.exec(a);
    if (!m || (!m[3] && m[4])) {
      await berr(sh, fds, cmd, `\`${a}': not a valid identifier`);
      st = 1;
      continue;
    }
    const name = m[1];
    const hasValue = !!m[3];
    const append = m[3] === "+=";
    const inFunc = sh.callDepth > 0;
    const makeLocal = isLocal || ((cmd === "declare" || cmd === "typeset") && inFunc && !global);
    let v: Var;
    if (makeLocal) {
      const top = sh.vars.topFrame();
      const existing = top.get(name);
      if (existing) v = existing;
      else {
        const outer = sh.vars.lookup(name);
        if (outer && outer.attrs & A_READONLY) {
          await berr(sh, fds, cmd, `${name}: readonly variable`);
          st = 1;
          continue;
        }
        v = sh.vars.declareLocal(name);
        // `local x` (without value) keeps the variable unset; bash copies nothing
        if (outer && !hasValue && (cmd === "local" || cmd === "declare") && sh.shopts.localvar_inherit) v.value = outer.value;
      }
    } else {
      v = global
        ? (sh.vars.frames[0].get(name) ??
          (() => {
            const nv: Var = { value: undefined, attrs: 0 };
            sh.vars.frames[0].set(name, nv);
            return nv;
          })())
        : (sh.vars.lookup(name) ?? sh.vars.cell(name));
    }
    if (v.attrs & A_READONLY && (hasValue || off & A_READONLY)) {
      await berr(sh, fds, cmd, `${name}: readonly variable`);
      st = 1;
      continue;
    }
    if (assoc && !isAssoc(v)) {
      if (isArray(v)) {
        await berr(sh, fds, cmd, `${name}: cannot convert indexed to associative array`);
        st = 1;
        continue;
      }
      v.value = new BashAssoc();
    }
    if (arr && !isArray(v) && !isAssoc(v)) v.value = v.value === undefined ? [] : [v.value as string];
    if (on & A_NAMEREF && hasValue && !m[2] && !/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/s.test(m[4])) {
      await berr(sh, fds, cmd, `\`${m[4]}': invalid variable name for name reference`);
      st = 1;
      continue;
    }
    v.attrs = (v.attrs | on) & ~off;
    if (hasValue && sh.opts.allexport && !(off & A_EXPORT)) v.attrs |= A_EXPORT;
    // bash's export and readonly assign through do_assignment_no_expand, which traces each
    // `name=value` under `set -x` (declare, typeset and local assign without a trace)
    if (hasValue && sh.opts.xtrace && (cmd === "export" || cmd === "readonly") && !arrayArgs?.get(k))
      await traceRaw(sh, fds, `${name}${m[2] ?? ""}${m[3]}${m[4] === "" ? "" : xtraceQuote(m[4])}`);
    if (hasValue) {
      const arrAssign = arrayArgs?.get(k);
      if (arrAssign) {
        // `readonly R=(x)` assigns before the attribute holds, as for `readonly x=1`
        const ro = v.attrs & A_READONLY;
        v.attrs &= ~A_READONLY;
        try {
          await sh.assignArray(name, arrAssign.array!, append, assoc || isAssoc(v));
        } finally {
          v.attrs |= ro;
        }
        continue;
      }
      if (!m[2] && (arr || assoc || isArray(v) || isAssoc(v)) && /^\(.*\)$/s.test(m[4])) {
        // declare -a 'x=(1 2)': the value is parsed as an array literal at run time
        const stmts = new Parser(`${name}=${m[4]}`).parseProgram();
        const c = stmts[0]?.cmd;
        if (c && c.type === "simple" && c.assigns[0]?.array) {
          await sh.assignArray(name, c.assigns[0].array, append, assoc || isAssoc(v));
          continue;
        }
      }
      if (v.attrs & A_NAMEREF && !m[2]) {
        v.value = m[4];
        continue;
      }
      // temporarily lift readonly so `readonly x=1` can set
      const ro = v.attrs & A_READONLY;
      v.attrs &= ~A_READONLY;
      try {
        if (m[2]) {
          const idx = m[2].slice(1, -1);
          sh.vars.setIndex(name, isAssoc(v) ? idx : sh.arith(idx).toString(), m[4], append);
        } else if (isArray(v) || isAssoc(v)) {
          if (isArray(v)) v.value[0] = sh.vars.transform(v, m[4], append, v.value[0]);
          else v.value.set("0", m[4]);
        } else {
          v.value = sh.vars.transform(v, m[4], append, typeof v.value === "string" ? v.value : "");
        }
      } finally {
        v.attrs |= ro;
      }
    } else if (v.attrs & A_INTEGER && typeof v.value === "string") {
      // keep value
    }
  }
  return st;
}

export async function unset(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  let mode: "v" | "f" | "fv" | "" = "";
  let i = 1;
  for (; i < argv.length && /^-[vfn]+$/.test(argv[i]); i++) {
    if (argv[i].includes("f")) mode = mode === "v" ? "fv" : "f";
    if (argv[i].includes("v")) mode = mode === "f" || mode === "fv" ? "fv" : "v";
  }
  if (argv[i] === "--") i++;
  if (mode === "fv") {
    await berr(sh, fds, "unset", "cannot simultaneously unset a function and a variable");
    return 1;
  }
  let st = 0;
  for (const n of argv.slice(i)) {
    if (mode === "f") {
      sh.funcs.delete(n);
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/s.exec(n);
    if (!m) {
      await berr(sh, fds, "unset", `\`${n}': not a valid identifier`);
      st = 1;
      continue;
    }
    if (m[2] !== undefined) {
      const { name, v } = sh.vars.resolve(m[1]);
      if (v && v.attrs & A_READONLY) {
        await berr(sh, fds, "unset", `${name}: cannot unset: readonly variable`);
        st = 1;
        continue;
      }
      if (m[2] === "@" || m[2] === "*") {
        sh.vars.unset(name);
        continue;
      }
      if (isAssoc(v)) v.value.delete(await dynamicKey(sh, name, m[2]));
      else if (isArray(v)) {
        let k = Number(sh.arith(m[2]));
        if (k < 0) {
          const ks = arrayKeys(v.value);
          k += ks.length ? ks[ks.length - 1] + 1 : 0;
          if (k < 0) {
            await berr(sh, fds, "unset", `${m[1]}[${m[2]}]: bad array subscript`);
            st = 1;
            continue;
          }
        }
        delete v.value[k];
      } else if (v && sh.arith(m[2]) === 0n) sh.vars.unset(name);
      continue;
    }
    if (mode === "" && sh.vars.lookup(n) === undefined && sh.funcs.has(n)) {
      sh.funcs.delete(n);
      continue;
    }
    try {
      sh.vars.unset(n);
    } catch (e) {
      if (e instanceof ShellError) {
        await berr(sh, fds, "unset", e.message);
        st = 1;
      } else throw e;
    }
  }
  return st;
}

const SET_USAGE = "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]";
const SHOPT_USAGE = "shopt: usage: shopt [-pqsu] [-o] [optname ...]";

/** `set -o` (a table) or `set +o` (commands that restore the options). */
async function listSetOptions(sh: Shell, fds: Fd[], asCommands: boolean): Promise<void> {
  let s = "";
  for (const [k, v] of Object.entries(sh.opts).sort(([a], [b]) => (a < b ? -1 : 1))) {
    s += asCommands ? `set ${v ? "-" : "+"}o ${k}\n` : `${k.padEnd(15)}\t${v ? "on" : "off"}\n`;
  }
  await out(fds, s);
}

// bash's rules: options group (`-euo pipefail`); each `o` in a group takes the next word
// as its option name, or lists the options when there is none; `--` ends the options and
// always sets the positional parameters; `-` ends them, turns off -x and -v, and sets them
// only when words follow.
export async function set(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  if (argv.length === 1) {
    for (const n of sh.vars.names().sort()) {
      const v = sh.vars.lookup(n)!;
      if (v.value === undefined) continue;
      if (typeof v.value === "string") await out(fds, `${n}=${quote(v.value)}\n`);
      else await out(fds, declLine(n, v).replace(/^declare -\S+ /, "") + "\n");
    }
    return 0;
  }
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      sh.positional = argv.slice(i + 1);
      return 0;
    }
    if (a === "-") {
      sh.opts.xtrace = false;
      sh.opts.verbose = false;
      if (i + 1 < argv.length) sh.positional = argv.slice(i + 1);
      return 0;
    }
    if (a.length < 2 || (a[0] !== "-" && a[0] !== "+")) break;
    const on = a[0] === "-";
    for (const c of a.slice(1)) {
      if (c === "o") {
        const name = argv[i + 1];
        if (name === undefined) {
          await listSetOptions(sh, fds, !on);
          continue;
        }
        i++;
        if (!setOption(sh, name, on)) {
          await berr(sh, fds, "set", `${name}: invalid option name`);
          return 2;
        }
      } else if (!setOption(sh, c, on, true)) {
        await berr(sh, fds, "set", `${a[0]}${c}: invalid option`);
        await errOut(fds, SET_USAGE + "\n");
        return 2;
      }
    }
  }
  if (i < argv.length) sh.positional = argv.slice(i);
  return 0;
}

export async function shopt(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const flags = new Set<string>();
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (a.length < 2 || a[0] !== "-") break;
    for (const c of a.slice(1)) {
      if (!"suqop".includes(c)) {
        await berr(sh, fds, "shopt", `-${c}: invalid option`);
        await errOut(fds, SHOPT_USAGE + "\n");
        return 2;
      }
      flags.add(c);
    }
  }
  if (flags.has("s") && flags.has("u")) {
    await berr(sh, fds, "shopt", "cannot set and unset shell options simultaneously");
    return 1;
  }
  const mode = flags.has("s") ? "s" : flags.has("u") ? "u" : "";
  const oMode = flags.has("o");
  const quiet = flags.has("q");
  const print = flags.has("p");
  const table = oMode ? sh.opts : sh.shopts;
  const line = (k: string) =>
    (print ? (oMode ? `set ${table[k] ? "-" : "+"}o ${k}` : `shopt ${table[k] ? "-s" : "-u"} ${k}`) : `${k.padEnd(15)}\t${table[k] ? "on" : "off"}`) + "\n";
  const names = argv.slice(i);
  if (!names.length) {
    if (quiet) return 0;
    let s = "";
    for (const k of oMode ? Object.keys(sh.opts).sort() : SHOPTS) {
      if ((mode === "s" && !table[k]) || (mode === "u" && table[k])) continue;
      s += line(k);
    }
    await out(fds, s);
    return 0;
  }
  let st = 0;
  for (const n of names) {
    if (!(n in table)) {
      await berr(sh, fds, "shopt", `${n}: invalid ${oMode ? "option" : "shell option"} name`);
      st = 1;
      continue;
    }
    if (mode) {
      if (oMode) setOption(sh, n, mode === "s");
      else table[n] = mode === "s";
    } else {
      if (!table[n]) st = 1;
      if (!quiet) await out(fds, line(n));
    }
  }
  return st;
}

export async function shift(sh: Shell, args: string[], fds: Fd[]): Promise<number> {
  const argv = skipDashDash(args);
  let n = 1;
  if (argv[1] !== undefined) {
    if (!/^\d+$/.test(argv[1])) {
      await berr(sh, fds, "shift", `${argv[1]}: numeric argument required`);
      return 1;
    }
    n = parseInt(argv[1], 10);
  }
  if (n > sh.positional.length) return 1;
  sh.positional = sh.positional.slice(n);
  return 0;
}
