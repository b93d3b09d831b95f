// Programmable-completion builtins: complete, compgen, compopt.
// The shell is never interactive here, so nothing ever *uses* a stored spec; `complete`
// only records and prints specs, and `compgen` generates candidates for one word the way
// a completion function would see them (printed one per line).
import type { Fd, Shell } from "../interp/shell";
import { SHOPTS } from "../interp/options";
import { ShellError, isArray, isAssoc, A_EXPORT } from "../interp/vars";
import { ArithError } from "../expand/arith";
import { expandFields } from "../expand/word";
import { matchPattern } from "../expand/pattern";
import { Parser, ParseError, parse } from "../syntax/parser";
import { berr, out } from "./io";
import { SIGNAL_NAMES } from "./signals";

const KEYWORDS = [
  "!",
  "[[",
  "]]",
  "case",
  "coproc",
  "do",
  "done",
  "elif",
  "else",
  "esac",
  "fi",
  "for",
  "function",
  "if",
  "in",
  "select",
  "then",
  "time",
  "until",
  "while",
  "{",
  "}",
];

// Action letters and their long names, in bash's generation order (file-like actions are
// generated after the name-based ones, as bash does).
const LETTER: Record<string, string> = {
  a: "alias",
  b: "builtin",
  c: "command",
  d: "directory",
  e: "export",
  f: "file",
  g: "group",
  j: "job",
  k: "keyword",
  s: "service",
  u: "user",
  v: "variable",
};
const ACTIONS = [
  "alias",
  "arrayvar",
  "binding",
  "builtin",
  "command",
  "disabled",
  "enabled",
  "export",
  "function",
  "group",
  "helptopic",
  "hostname",
  "job",
  "keyword",
  "running",
  "service",
  "setopt",
  "shopt",
  "signal",
  "stopped",
  "user",
  "variable",
  "directory",
  "file",
];
const COMP_OPTS = ["bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs"];

interface CompSpec {
  opts: string[];
  actions: string[];
  glob?: string;
  words?: string;
  prefix?: string;
  suffix?: string;
  filter?: string;
  func?: string;
  cmd?: string;
}

interface Parsed {
  spec: CompSpec;
  names: string[];
  print: boolean;
  remove: boolean;
  special: string[];
  optsOff: string[];
}

/** Stored specs (keyed by command name; "-D"/"-E"/"-I" for the special ones). A fresh copy
 * is stored on every change because subshells share builtinState values. */
function specTable(sh: Shell): Map<string, CompSpec> {
  const t = sh.builtinState.get("complete") as Map<string, CompSpec> | undefined;
  return new Map(t ?? []);
}
function saveSpecs(sh: Shell, t: Map<string, CompSpec>): void {
  sh.builtinState.set("complete", t);
}

function parseArgs(argv: string[], who: string): Parsed | string {
  const p: Parsed = { spec: { opts: [], actions: [] }, names: [], print: false, remove: false, special: [], optsOff: [] };
  const withArg = "oAGWPSXFC";
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!/^[-+]./.test(a)) break;
    const plus = a[0] === "+";
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      let val: string | undefined;
      if (withArg.includes(c)) {
        val = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
        if (val === undefined) return `${who}: -${c}: option requires an argument`;
        k = a.length;
      }
      if (plus && c !== "o") return `${who}: +${c}: invalid option`;
      switch (c) {
        case "o":
          if (!COMP_OPTS.includes(val!)) return `${who}: ${val}: invalid option name`;
          (plus ? p.optsOff : p.spec.opts).push(val!);
          break;
        case "A":
          if (!ACTIONS.includes(val!)) return `${who}: ${val}: invalid action name`;
          p.spec.actions.push(val!);
          break;
        case "G":
          p.spec.glob = val;
          break;
        case "W":
          p.spec.words = val;
          break;
        case "P":
          p.spec.prefix = val;
          break;
        case "S":
          p.spec.suffix = val;
          break;
        case "X":
          p.spec.filter = val;
          break;
        case "F":
          p.spec.func = val;
          break;
        case "C":
          p.spec.cmd = val;
          break;
        case "p":
          p.print = true;
          break;
        case "r":
          p.remove = true;
          break;
        case "D":
        case "E":
        case "I":
          p.special.push("-" + c);
          break;
        default:
          if (LETTER[c]) {
            p.spec.actions.push(LETTER[c]);
            break;
          }
          return `${who}: -${c}: invalid option`;
      }
    }
  }
  p.names = argv.slice(i);
  return p;
}

const sq = (s: string) => "'" + s.replace(/'/g, "'\\''") + "'";

function specLine(spec: CompSpec, name: string): string {
  const parts = ["complete"];
  for (const o of spec.opts) parts.push("-o", o);
  const short = Object.fromEntries(Object.entries(LETTER).map(([k, v]) => [v, k]));
  for (const a of spec.actions) parts.push(short[a] ? "-" + short[a] : "-A " + a);
  if (spec.glob !== undefined) parts.push("-G", sq(spec.glob));
  if (spec.words !== undefined) parts.push("-W", sq(spec.words));
  if (spec.prefix !== undefined) parts.push("-P", sq(spec.prefix));
  if (spec.suffix !== undefined) parts.push("-S", sq(spec.suffix));
  if (spec.filter !== undefined) parts.push("-X", sq(spec.filter));
  if (spec.func !== undefined) parts.push("-F", spec.func);
  if (spec.cmd !== undefined) parts.push("-C", sq(spec.cmd));
  if (name.startsWith("-")) parts.push(name);
  else parts.push(name);
  return parts.join(" ") + "\n";
}

export async function complete(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const p = parseArgs(argv, "complete");
  if (typeof p === "string") {
    await sh.err(fds, p);
    return 2;
  }
  const table = specTable(sh);
  const targets = [...p.special, ...p.names];
  const hasSpec =
    p.spec.actions.length ||
    p.spec.opts.length ||
    p.spec.func !== undefined ||
    p.spec.words !== undefined ||
    p.spec.cmd !== undefined ||
    p.spec.glob !== undefined ||
    p.spec.prefix !== undefined ||
    p.spec.suffix !== undefined ||
    p.spec.filter !== undefined;
  if (p.remove) {
    if (!targets.length) table.clear();
    let st = 0;
    for (const n of targets)
      if (!table.delete(n)) {
        await berr(sh, fds, "complete", `${n}: no completion specification`);
        st = 1;
      }
    saveSpecs(sh, table);
    return st;
  }
  if (p.print || (!targets.length && !hasSpec)) {
    let st = 0;
    if (!targets.length) for (const [n, s] of table) await out(fds, specLine(s, n));
    for (const n of targets) {
      const s = table.get(n);
      if (s) await out(fds, specLine(s, n));
      else {
        await berr(sh, fds, "complete", `${n}: no completion specification`);
        st = 1;
      }
    }
    return st;
  }
  if (!targets.length) {
    await sh.err(
      fds,
      "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
    );
    return 2;
  }
  for (const n of targets) table.set(n, { ...p.spec, opts: [...p.spec.opts], actions: [...p.spec.actions] });
  saveSpecs(sh, table);
  return 0;
}

export async function compopt(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const p = parseArgs(argv, "compopt");
  if (typeof p === "string") {
    await sh.err(fds, p);
    return 2;
  }
  const table = specTable(sh);
  const targets = [...p.special, ...p.names];
  if (!targets.length) {
    // bash only allows this while a completion function runs, which never happens here
    await berr(sh, fds, "compopt", "not currently executing completion function");
    return 1;
  }
  let st = 0;
  for (const n of targets) {
    const s = table.get(n);
    if (!s) {
      await berr(sh, fds, "compopt", `${n}: no completion specification`);
      st = 1;
      continue;
    }
    table.set(n, { ...s, opts: [...new Set([...s.opts, ...p.spec.opts])].filter((o) => !p.optsOff.includes(o)) });
  }
  saveSpecs(sh, table);
  return st;
}

export async function compgen(sh: Shell, argv: string[], fds: Fd[]): Promise<number> {
  const p = parseArgs(argv, "compgen");
  if (typeof p === "string") {
    await sh.err(fds, p);
    return 2;
  }
  const word = p.names[0] ?? "";
  const spec = p.spec;
  let cands: string[] = [];
  try {
    for (const a of ACTIONS) if (spec.actions.includes(a)) cands.push(...actionCands(sh, a, word));
    if (spec.glob !== undefined) cands.push(...sh.glob(spec.glob));
    if (spec.words !== undefined) {
      for (const w of await expandWordList(sh, spec.words)) if (w.startsWith(word)) cands.push(w);
    }
    if (spec.func !== undefined) cands.push(...(await runCompFunc(sh, spec.func, word, fds)));
    if (spec.cmd !== undefined) {
      const text = await sh.cmdSubst(parse(`${spec.cmd} compgen ${sq(word)} ''`));
      cands.push(...text.split("\n").filter((l) => l !== ""));
    }
  } catch (e) {
    if (e instanceof ShellError || e instanceof ArithError || e instanceof ParseError) {
      await berr(sh, fds, "compgen", e.message);
      return 1;
    }
    throw e;
  }
  if (spec.filter !== undefined) {
    let pat = spec.filter;
    const neg = pat.startsWith("!");
    if (neg) pat = pat.slice(1);
    // bash: -X removes matches; a leading ! keeps only the matches
    cands = cands.filter((c) => matchPattern(c, pat, { extglob: sh.shopts.extglob }) === neg);
  }
  if (!cands.length) return 1;
  const pre = spec.prefix ?? "",
    suf = spec.suffix ?? "";
  await out(fds, cands.map((c) => pre + c + suf + "\n").join(""));
  return 0;
}

function byPrefix(names: Iterable<string>, word: string): string[] {
  return [...names].filter((n) => n.startsWith(word)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function actionCands(sh: Shell, action: string, word: string): string[] {
  switch (action) {
    case "alias":
      return byPrefix(sh.aliases.keys(), word);
    case "arrayvar":
      return byPrefix(
        sh.vars.names().filter((n) => {
          const v = sh.vars.lookup(n);
          return isArray(v) || isAssoc(v);
        }),
        word,
      );
    case "builtin":
    case "enabled":
    case "helptopic":
      return byPrefix(Object.keys(sh.shared.builtins), word);
    case "command": {
      const s = new Set<string>([...sh.aliases.keys(), ...sh.funcs.keys(), ...Object.keys(sh.shared.builtins), ...KEYWORDS]);
      for (const d of (sh.vars.get("PATH") ?? "").split(":")) for (const f of listDir(sh, d || ".")) s.add(f);
      return byPrefix(s, word);
    }
    case "export":
      return byPrefix(
        sh.vars.names().filter((n) => (sh.vars.lookup(n)?.attrs ?? 0) & A_EXPORT && sh.vars.get(n) !== undefined),
        word,
      );
    case "function":
      return byPrefix(sh.funcs.keys(), word);
    case "keyword":
      return byPrefix(KEYWORDS, word);
    case "setopt":
      return byPrefix(Object.keys(sh.opts), word);
    case "shopt":
      return byPrefix(SHOPTS, word);
    case "signal":
      return byPrefix(
        SIGNAL_NAMES.map((s) => "SIG" + s),
        word,
      );
    case "job":
    case "running":
      return byPrefix([...sh.shared.jobs.keys()].map(String), word);
    case "user": {
      const u = sh.vars.get("USER");
      return u && u.startsWith(word) ? [u] : [];
    }
    case "variable":
      return byPrefix(
        sh.vars.names().filter((n) => sh.vars.lookup(n)?.value !== undefined || isArray(sh.vars.lookup(n))),
        word,
      );
    case "file":
    case "directory":
      return fileCands(sh, word, action === "directory");
    default:
      return []; // binding, disabled, group, hostname, service, stopped: none exist here
  }
}

function listDir(sh: Shell, dir: string): string[] {
  try {
    const abs = sh.host.resolvePath(sh.cwd, dir);
    return sh.host.fs.readdir(abs);
  } catch {
    return [];
  }
}

function fileCands(sh: Shell, word: string, dirsOnly: boolean): string[] {
  const slash = word.lastIndexOf("/");
  const dirPart = slash >= 0 ? word.slice(0, slash + 1) : "";
  const base = word.slice(slash + 1);
  const res: string[] = [];
  for (const name of listDir(sh, dirPart || ".")) {
    if (name === "." || name === ".." || !name.startsWith(base)) continue;
    if (dirsOnly) {
      try {
        if (sh.host.fs.stat(sh.host.resolvePath(sh.cwd, dirPart + name))?.type !== "dir") continue;
      } catch {
        continue;
      }
    }
    res.push(dirPart + name);
  }
  return res;
}

/** -W: split at unquoted IFS characters (quotes, backslashes and $(...) protect), then expand
 * each piece as one shell word (with field splitting), like bash's completion word lists. */
async function expandWordList(sh: Shell, text: string): Promise<string[]> {
  const ifs = sh.vars.get("IFS") ?? " \t\n";
  const pieces: string[] = [];
  let cur = "",
    depth = 0,
    q = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      cur += c;
      if (c === "\\" && q === '"' && i + 1 < text.length) cur += text[++i];
      else if (c === q) q = "";
      continue;
    }
    if (c === "\\" && i + 1 < text.length) {
      cur += c + text[++i];
      continue;
    }
    if (c === "'" || c === '"') {
      q = c;
      cur += c;
      continue;
    }
    if (c === "$" && (text[i + 1] === "(" || text[i + 1] === "{")) {
      depth++;
      cur += c + text[++i];
      continue;
    }
    if (depth && (c === "(" || c === "{")) {
      depth++;
      cur += c;
      continue;
    }
    if (depth && (c === ")" || c === "}")) {
      depth--;
      cur += c;
      continue;
    }
    if (!depth && ifs.includes(c)) {
      if (cur) pieces.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur) pieces.push(cur);
  const res: string[] = [];
  for (const piece of pieces) {
    const w = new Parser(piece).subWord(piece, "normal", 0);
    await expandFields(sh, w, false, res);
  }
  return res;
}

/** -F: calls the function as a completion function would be called, then reads COMPREPLY. */
async function runCompFunc(sh: Shell, name: string, word: string, fds: Fd[]): Promise<string[]> {
  const fn = sh.funcs.get(name);
  if (!fn) throw new ShellError(`${name}: function not found`, 1);
  const frame = new Map<string, import("../interp/vars").Var>([
    ["COMP_WORDS", { value: [], attrs: 0 }],
    ["COMP_CWORD", { value: "-1", attrs: 0 }],
    ["COMP_LINE", { value: "", attrs: 0 }],
    ["COMP_POINT", { value: "0", attrs: 0 }],
  ]);
  sh.vars.frames.push(frame);
  try {
    await sh.callFunction(fn, [name, "compgen", word, ""], fds);
  } finally {
    const i = sh.vars.frames.lastIndexOf(frame);
    if (i >= 0) sh.vars.frames.splice(i, 1);
  }
  const v = sh.vars.lookup("COMPREPLY");
  if (!v || v.value === undefined) return [];
  if (typeof v.value === "string") return [v.value];
  if (Array.isArray(v.value)) return Object.values(v.value);
  return [...v.value.values()];
}
