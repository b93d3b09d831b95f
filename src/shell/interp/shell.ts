// The runner: walks the AST, owns shell state (variables, functions, options, fds)
// and reaches the world only through the ShellHost.
import { noteJob } from "./jobtable";
import { runInteractive, topLevelCommand } from "./interactive";
import { printScript } from "./script-dump";
import { traceRaw, traceTest, traceWords, xtraceQuote } from "./xtrace";
import { runSelect } from "./select";
import type { ByteWriter, ShellHost } from "../host";
import { EpipeError } from "../host";
import type { ArgWord, Assign, Command, Redir, Stmt, TestExpr, Word } from "../syntax/ast";
import { isAssignArg, litText } from "../syntax/ast";
import { Parser, ParseError, lineOf } from "../syntax/parser";
import { formatArray, formatCommand } from "../syntax/print";
import { ArithError, evalArith, parseArith, ArithEnv } from "../expand/arith";
import { glob, joinPath, normalize } from "../expand/glob";
import { matchPattern } from "../expand/pattern";
import { AbortLine, ExpandCtx, ExpandError, expandArgs, expandFields, expandPattern, expandRegex, expandString, resolveIndex, quote, splitSubscript, dynamicKey } from "../expand/word";
import { Budget, LimitError, MAX_FILE_OUTPUT_BYTES } from "./limits";
import { refusedLiteral } from "./literal-check";
import { runShellWrapper } from "./wrappers";
import { BytesReader, Collector, EMPTY, InStream, NullWriter, Pipe, decode, encode } from "./streams";
import { A_EXPORT, A_INTEGER, A_NAMEREF, A_READONLY, ShellError, VarStore, isArray, isAssoc } from "./vars";
import { ereToJs } from "../expand/regex";
import { BashAssoc } from "./assoc";
import { unaryTest, binaryTest } from "./test-eval";
import { FLAG_LETTERS, SET_O, SHOPTS, SHOPTS_ON, getUmask, setOption } from "./options";
import { type Maybe, lastly, repeat, rescue, settled, chain } from "./maybe";
import { timeReport } from "./timeformat";
import { historyList } from "./history";

export interface Fd {
  r?: InStream;
  w?: ByteWriter;
}

export class BreakSig { constructor(public n: number) {} }
export class ContinueSig { constructor(public n: number) {} }
export class ReturnSig { constructor(public status: number) {} }
export class ExitSig { constructor(public status: number) {} }

/** Everything shared by a shell and its subshells within one run. */
export interface RunShared {
  host: ShellHost;
  budget: Budget;
  denied?: { rule: string; reason: string };
  jobs: Map<number, Promise<number>>;
  nextPid: number;
  startMs: number;
  /** Content of <(...) files by fd path. */
  procFiles: Map<string, Uint8Array | Pipe>;
  nextProcFd: number;
  substDepth: number;
  /** The builtins by name: handed in by the caller (src/shell/index.ts), so the runner imports none. */
  builtins: Readonly<Record<string, Builtin>>;
}

/** A builtin command: runs inside the shell, on its file descriptors. */
export type Builtin = (sh: Shell, argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>) => Promise<number> | number;

/** What Debian 12's bash prints for --version (the version this interpreter follows). */
const BASH_VERSION_TEXT = `GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>

This is free software; you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
`;

const SPECIAL_BUILTINS = new Set(["break", ":", ".", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset", "source"]);

export class Shell implements ExpandCtx, ArithEnv {
  vars = new VarStore();
  funcs = new Map<string, Command & { type: "func" }>();
  /** Functions marked with `export -f`: child shells (`bash -c`, scripts) define them too. */
  exportedFuncs = new Set<string>();
  aliases = new Map<string, string>();
  opts: Record<string, boolean> = Object.fromEntries(SET_O.map((o) => [o, false]));
  shopts: Record<string, boolean> = Object.fromEntries(SHOPTS.map((o) => [o, false]));
  cwd = "/";
  positional: string[] = [];
  arg0 = "bash";
  status = 0;
  lastBg = "";
  fds: Fd[] = [];
  traps = new Map<string, string>();
  /** A subshell lists its parent's traps (as bash does) until it sets one of its own. */
  parentTraps?: Map<string, string>;
  funcStack: string[] = [];
  callDepth = 0;
  /** Function calls, eval, source and trap bodies in progress. The hot paths run synchronously,
   * so nested calls grow the JS stack: every NEST_YIELD levels a call waits a microtask, which
   * unwinds it (a recursion 1,000 calls deep stays within V8's stack). */
  nesting = 0;
  loopDepth = 0;
  errexitOff = 0;
  subshellLevel = 0;
  /** Command substitutions and evals around this command: set -x repeats PS4's first character. */
  traceLevel = 0;
  pos = 0;
  src = "";
  lineBase = 0;
  pid: number;
  lastSubstStatus: number | null = null;
  randomState = 12345;
  source: string[] = [];
  inTrap = false;
  /** Traps now running. DEBUG may run inside an ERR trap and ERR inside DEBUG (as in bash); no trap re-enters itself. */
  private runningTraps = new Set<string>();
  private trapAllowed(name: "ERR" | "DEBUG"): boolean {
    const other = name === "ERR" ? "DEBUG" : "ERR";
    for (const t of this.runningTraps) if (t !== other) return false;
    return true;
  }
  dirStack: string[] = [];
  /** bash's command hash: name -> PATH hit, reused until `hash -r` or PATH changes. */
  hashed = new Map<string, { kind: "host" | "script"; path: string; hits: number }>();
  private hashedFor: string | undefined;
  lastArg = "";
  fromC = false;
  /** State owned by individual builtins (umask, ulimit, completion specs...). Values must be
   * treated as immutable: a subshell gets a shallow copy of the map, so replace, never mutate. */
  builtinState = new Map<string, unknown>();

  constructor(public shared: RunShared) {
    this.opts.braceexpand = true;
    this.opts.hashall = true;
    this.opts["interactive-comments"] = true;
    for (const o of SHOPTS_ON) this.shopts[o] = true;
    this.pid = shared.nextPid++;
    this.vars.dynamic = (n) => this.dynamicVar(n);
    this.vars.arith = (s) => this.arith(s).toString();
  }

  get host(): ShellHost {
    return this.shared.host;
  }

  // ---------- ExpandCtx ----------
  special(name: string): string {
    switch (name) {
      case "?": return String(this.status);
      case "#": return String(this.positional.length);
      case "$": return String(this.shared.nextPid > 0 ? this.rootPid : this.pid);
      case "!": return this.lastBg;
      case "0": return this.arg0;
      case "-": return this.flagString();
    }
    return "";
  }
  rootPid = 0;
  flagString(): string {
    let s = "";
    for (const [c, o] of FLAG_LETTERS) {
      if (this.opts[o]) s += c;
      // bash lists `i` right after `h` for an interactive shell
      if (c === "h" && this.builtinState.get("interactive")) s += "i";
    }
    return s + (this.fromC ? "c" : "s");
  }
  opt(name: string): boolean {
    return this.opts[name] ?? this.shopts[name] ?? false;
  }
  arith(expr: string): bigint {
    try {
      return evalArith(parseArith(expr), this);
    } catch (e) {
      // bash names the expression before a division by zero (`1/0: division by 0 ...`)
      if (e instanceof ArithError && e.message.startsWith("division by 0")) throw new ArithError(`${expr.trim()}: ${e.message}`, e.fatal);
      throw e;
    }
  }
  // ArithEnv
  get(name: string, index: string | undefined): string {
    if (index === undefined) {
      const v = this.vars.get(name);
      if (v === undefined && this.opts.nounset) throw new ExpandError(`${name}: unbound variable`, 1, true);
      return v ?? "";
    }
    const v = this.vars.resolve(name).v;
    if (isAssoc(v)) return v.value.get(index) ?? "";
    if (isArray(v)) {
      let k = Number(index);
      if (k < 0) {
        const ks = Object.keys(v.value);
        k += ks.length ? +ks[ks.length - 1] + 1 : 0;
      }
      return v.value[k] ?? "";
    }
    return index === "0" ? this.vars.get(name) ?? "" : "";
  }
  set(name: string, index: string | undefined, _n: unknown, value: string): void {
    if (index === undefined) this.vars.set(name, value);
    else this.vars.setIndex(name, index, value);
  }
  isAssoc(name: string): boolean {
    return isAssoc(this.vars.resolve(name).v);
  }
  checkString(s: string): string {
    if (s.length > this.shared.budget.limits.maxStringLength) throw new LimitError("string", `toolshed: string length limit (${this.shared.budget.limits.maxStringLength}) exceeded`);
    return s;
  }
  /** The current command's number: it is already recorded when history is on. */
  historyNumber(): number {
    const h = historyList(this);
    return h.base + h.lines.length - (this.opt("history") ? 1 : 0);
  }
  braceBudget() {
    return {
      n: this.shared.budget.limits.maxBraceExpansion,
      onLimit: (): never => {
        throw new LimitError("brace", `toolshed: brace expansion limit (${this.shared.budget.limits.maxBraceExpansion} words) exceeded`);
      },
    };
  }
  /** Patterns the words of the simple command being expanded globbed (for the deny rules). */
  private globbed: string[] | null = null;
  private patterns: string[] | null = null;

  glob(pattern: string): string[] {
    // Absolute, because the rules resolve relative operands against $HOME, not the cwd.
    this.globbed?.push(pattern.startsWith("/") ? pattern : joinPath(this.cwd, pattern));
    const budget = { n: 100_000 };
    const ignore = this.vars.get("GLOBIGNORE");
    const res = glob(pattern, this.cwd, this.host.fs, {
      dotglob: this.shopts.dotglob || !!ignore, globstar: this.shopts.globstar, extglob: this.shopts.extglob, nocase: this.shopts.nocaseglob,
    }, budget);
    if (!ignore) return res;
    const pats = ignore.split(":").filter(Boolean);
    return res.filter((p) => {
      const base = p.replace(/^.*\//, "");
      if (base === "." || base === "..") return false;
      return !pats.some((g) => matchPattern(p, g, { extglob: true, pathname: true }));
    });
  }

  async cmdSubst(body: Stmt[]): Promise<string> {
    const sh = this.subshell();
    sh.traceLevel++;
    const out = new Collector(this.shared.budget.limits.maxOutputBytes, () => new LimitError("output", "toolshed: command substitution output limit exceeded"));
    const fds = this.fds.slice();
    fds[1] = { w: out };
    if (++this.shared.substDepth > this.shared.budget.limits.maxSubstDepth) {
      this.shared.substDepth--;
      throw new LimitError("depth", `toolshed: command substitution nesting limit (${this.shared.budget.limits.maxSubstDepth}) exceeded`);
    }
    try {
      // $(< file) reads the file directly
      const only = body.length === 1 ? body[0].cmd : null;
      if (only && only.type === "simple" && !only.words.length && !only.assigns.length && only.redirs.length === 1 && only.redirs[0].op === "<") {
        const path = await expandString(this, only.redirs[0].target);
        const data = this.readFileForRedirect(path, fds);
        this.lastSubstStatus = data ? 0 : 1;
        return data ? this.substText(decode(data), fds) : "";
      }
      sh.fds = fds;
      if (!this.shopts.inherit_errexit) sh.opts.errexit = false;
      const st = await sh.runSubshellBody(body, fds);
      this.lastSubstStatus = st;
      this.status = st;
    } finally {
      this.shared.substDepth--;
    }
    return this.checkString(this.substText(decode(out.bytes()), fds));
  }

  /** A command substitution's value: trailing newlines dropped, NUL bytes dropped with bash's warning. */
  private substText(s: string, fds: Fd[]): string {
    if (s.includes("\0")) {
      s = s.replace(/\0/g, "");
      this.errSync(fds, "warning: command substitution: ignored null byte in input");
    }
    return s.replace(/\n+$/, "");
  }

  /** /dev/fd paths of process substitutions made by the simple command running now. */
  procCreated: string[] = [];

  async procSubst(dir: "<" | ">", body: Stmt[]): Promise<string> {
    // As bash: the highest free fd from 63 down; freed again when the command is done.
    let n = 63;
    while (this.shared.procFiles.has(`/dev/fd/${n}`)) n--;
    const path = `/dev/fd/${n}`;
    this.shared.procFiles.set(path, EMPTY);
    this.procCreated.push(path);
    if (dir === "<") {
      const sh = this.subshell();
      const out = new Collector(this.shared.budget.limits.maxOutputBytes, () => new LimitError("output", "toolshed: output limit exceeded"));
      const fds = this.fds.slice();
      fds[1] = { w: out };
      await sh.runSubshellBody(body, fds);
      this.shared.procFiles.set(path, out.bytes());
    } else {
      const pipe = new Pipe(this.shared.budget.limits.pipeBufferBytes);
      const sh = this.subshell();
      const fds = this.fds.slice();
      fds[0] = { r: new InStream(pipe.reader) };
      this.shared.procFiles.set(path, pipe);
      // Like a forked reader that takes a while to start, the body runs once the command has
      // written to it or closed it: `echo hi > >(false)` writes before `false` goes away.
      const p = pipe.used.then(() => sh.runSubshellBody(body, fds)).finally(() => pipe.reader.close());
      this.shared.jobs.set(this.shared.nextPid++, p);
    }
    return path;
  }

  // ---------- dynamic variables ----------
  private dynamicVar(n: string): string | undefined {
    switch (n) {
      case "RANDOM":
        this.randomState = (this.randomState * 1103515245 + 12345) & 0x7fffffff;
        return String((this.randomState >> 16) & 0x7fff);
      case "SECONDS": return String(Math.floor((this.host.now() - this.shared.startMs) / 1000));
      case "LINENO": return String(this.lineno());
      case "BASH_SUBSHELL": return String(this.subshellLevel);
      case "SHELLOPTS": return SET_O.filter((o) => this.opts[o]).sort().join(":");
      case "BASHOPTS": return SHOPTS.filter((o) => this.shopts[o]).join(":");
      case "BASHPID": return String(this.pid);
      case "PPID": return "1";
      case "UID": case "EUID": return "1000";
      case "FUNCNAME": return this.funcStack.length ? this.funcStack[this.funcStack.length - 1] : undefined;
      case "PWD": return undefined;
      case "_": return this.lastArg;
    }
    return undefined;
  }
  lineno(): number {
    return this.lineBase + lineOf(this.src, this.pos);
  }

  // ---------- subshells ----------
  subshell(): Shell {
    const s = new Shell(this.shared);
    s.vars = this.vars.clone();
    s.vars.dynamic = (n) => s.dynamicVar(n);
    s.vars.arith = (x) => s.arith(x).toString();
    s.funcs = new Map(this.funcs);
    s.exportedFuncs = new Set(this.exportedFuncs);
    s.aliases = new Map(this.aliases);
    s.opts = { ...this.opts };
    s.shopts = { ...this.shopts };
    s.cwd = this.cwd;
    s.positional = this.positional.slice();
    s.arg0 = this.arg0;
    s.status = this.status;
    s.lastBg = this.lastBg;
    s.fds = this.fds.slice();
    // EXIT is never inherited; ERR only with errtrace (set -E), DEBUG/RETURN with functrace
    s.parentTraps = this.parentTraps ?? (this.traps.size ? new Map(this.traps) : undefined);
    s.traps = new Map([...this.traps].filter(([k]) => k !== "EXIT" && (k !== "ERR" || this.opts.errtrace) && ((k !== "DEBUG" && k !== "RETURN") || this.opts.functrace)));
    s.funcStack = this.funcStack.slice();
    s.callDepth = this.callDepth;
    s.nesting = this.nesting;
    s.subshellLevel = this.subshellLevel + 1;
    s.traceLevel = this.traceLevel;
    s.src = this.src;
    s.pos = this.pos;
    s.lineBase = this.lineBase;
    s.rootPid = this.rootPid;
    s.randomState = (this.randomState * 7 + s.pid) & 0x7fffffff;
    s.errexitOff = this.shopts.inherit_errexit ? this.errexitOff : this.errexitOff;
    s.loopDepth = 0;
    s.source = this.source.slice();
    s.dirStack = this.dirStack.slice();
    s.builtinState = new Map(this.builtinState);
    s.lastArg = this.lastArg;
    return s;
  }

  /** Runs statements as a subshell: exit only ends this subshell; EXIT trap runs. */
  runSubshellBody(body: Stmt[], fds: Fd[]): Promise<number> {
    return this.asProcess(fds, () => this.execList(body, fds));
  }

  runSubshellCmd(cmd: Command, fds: Fd[]): Promise<number> {
    return this.asProcess(fds, () => this.exec(cmd, fds));
  }

  /** One subshell "process": counted against the live-process limit, errors and EXIT trap at its edge. */
  private async asProcess(fds: Fd[], run: () => Maybe<number>): Promise<number> {
    this.shared.budget.enterProcess();
    try {
      this.fds = fds;
      let st: number;
      try {
        st = await run();
      } catch (e) {
        st = this.catchTop(e, fds);
      }
      return await this.runExitTrap(st);
    } finally {
      this.shared.budget.leaveProcess();
    }
  }

  /** Converts control-flow and error exceptions at a shell boundary to a status. */
  catchTop(e: unknown, fds: Fd[]): number {
    if (e instanceof ExitSig) return e.status;
    if (e instanceof ReturnSig) return e.status;
    if (e instanceof BreakSig || e instanceof ContinueSig) return this.status;
    if (e instanceof EpipeError) return 141;
    if (e instanceof LimitError) throw e;
    if (e instanceof ShellError) {
      this.errSync(fds, e.message);
      return e.status;
    }
    throw e;
  }

  async runExitTrap(st: number): Promise<number> {
    const t = this.traps.get("EXIT");
    if (t === undefined) return st;
    this.traps.delete("EXIT");
    this.status = st;
    try {
      await this.evalString(t, this.fds, "trap");
    } catch (e) {
      if (e instanceof ExitSig) return e.status;
      if (e instanceof LimitError) throw e;
    }
    return st;
  }

  // ---------- errors and output ----------
  errPrefix(): string {
    return `${this.arg0 === "bash" || this.arg0 === "sh" ? this.arg0 : this.arg0}: line ${this.lineno()}: `;
  }
  /** bash -c names the string `-c` in a syntax error and, after an unexpected token, shows the line. */
  private async commandStringSyntaxError(fds: Fd[], msg: string, src: string, pos: number): Promise<void> {
    const at = `${this.arg0}: -c: line ${this.lineno()}: `;
    let text = at + msg + "\n";
    if (msg.startsWith("syntax error near unexpected token")) {
      const start = src.lastIndexOf("\n", Math.max(0, Math.min(pos, src.length) - 1)) + 1;
      const end = src.indexOf("\n", start);
      text += `${at}\`${src.slice(start, end < 0 ? undefined : end)}'\n`;
    }
    await fds[2]?.w?.write(encode(text)).catch(() => {});
  }
  errSync(fds: Fd[], msg: string): void {
    const w = fds[2]?.w;
    if (w) void w.write(encode(this.errPrefix() + msg + "\n")).catch(() => {});
  }
  async err(fds: Fd[], msg: string): Promise<void> {
    const w = fds[2]?.w;
    if (w) await w.write(encode(this.errPrefix() + msg + "\n")).catch(() => {});
  }

  // ---------- running source ----------
  /** Parses and runs a script line by line (aliases and syntax errors behave as in bash).
   * `before` sees each complete command's source before it runs; `after` runs between
   * commands (interactive shells: history and prompts). */
  async runScript(src: string, fds: Fd[], parseErrStatus = 2, before?: (text: string) => Promise<void>, after?: () => Promise<void>): Promise<number> {
    const refused = refusedLiteral(src, this.host);
    if (refused) {
      // The whole script is refused before any line runs (so `ls || rm -rf /` never runs `ls`
      // first, and a setup script never half-runs); the message names the line to change.
      const { rule, reason, line, command } = refused;
      this.shared.denied ??= { rule, reason };
      const where = src.includes("\n") ? `line ${line} (\`${command}\`) was refused, so nothing in this script ran` : "";
      await fds[2]?.w?.write(encode(`toolshed: denied (${rule}): ${reason}${where ? `\ntoolshed: ${where}; change or remove that line and run again.` : ""}\n`)).catch(() => {});
      this.status = 126;
      return 126;
    }
    const parser = new Parser(src, { alias: (n) => (this.shopts.expand_aliases ? this.aliases.get(n) : undefined) });
    const prevSrc = this.src;
    const prevBase = this.lineBase;
    this.src = src;
    this.lineBase = 0;
    try {
      if (++this.nesting % NEST_YIELD === 0) await undefined;
      for (let chunk = 0; ; chunk++) {
        if (chunk && after) await after();
        let stmts: Stmt[] | null;
        const start = parser.i;
        try {
          stmts = parser.parseNext();
        } catch (e) {
          if (e instanceof ParseError) {
            this.src = parser.src;
            this.pos = e.pos;
            if (this.fromC && this.nesting === 1) await this.commandStringSyntaxError(fds, e.message, parser.src, e.pos);
            else await this.err(fds, e.message);
            this.status = parseErrStatus;
            return parseErrStatus;
          }
          throw e;
        }
        if (!stmts) break;
        this.src = parser.src;
        if (before) await before(parser.src.slice(start, parser.i).replace(/^(\s*#[^\n]*\n|\s*\n)*/, "").trim());
        try {
          this.status = await this.execList(stmts, fds);
        } catch (e) {
          if (e instanceof ArithError) {
            await this.err(fds, e.message);
            this.status = 1;
            continue;
          }
          if (e instanceof AbortLine && !(e instanceof ExpandError)) {
            await this.err(fds, e.message);
            this.status = e.status;
            continue;
          }
          if (e instanceof ExpandError) {
            await this.err(fds, e.message);
            // bash -c exits 127 after an expansion error (a script file or subshell exits 1)
            throw new ExitSig(this.fromC && this.callDepth === 0 ? 127 : e.status);
          }
          throw e;
        }
      }
    } finally {
      this.nesting--;
      this.src = prevSrc;
      this.lineBase = prevBase;
    }
    return this.status;
  }
  private isBash(): boolean {
    return true;
  }

  /** eval / trap / source: parse whole string first (errors return status 2). */
  async evalString(src: string, fds: Fd[], what: string): Promise<number> {
    // parsed and run one line at a time, like bash's parse_and_execute (aliases apply)
    const parser = new Parser(src, { alias: (n) => (this.shopts.expand_aliases ? this.aliases.get(n) : undefined) });
    const prevSrc = this.src;
    const prevPos = this.pos;
    const prevBase = this.lineBase;
    this.lineBase = this.lineno() - 1;
    let st = 0;
    const level = what === "eval" ? 1 : 0;
    this.traceLevel += level;
    try {
      if (++this.nesting % NEST_YIELD === 0) await undefined;
      for (;;) {
        let stmts: Stmt[] | null;
        try {
          stmts = parser.parseNext();
        } catch (e) {
          if (e instanceof ParseError) {
            this.src = parser.src;
            this.pos = e.pos;
            await this.err(fds, `${what === "eval" ? "eval: " : ""}${e.message}`);
            return 1;
          }
          throw e;
        }
        if (!stmts) break;
        this.src = parser.src;
        st = await this.execList(stmts, fds);
        this.status = st;
      }
      return st;
    } finally {
      this.nesting--;
      this.traceLevel -= level;
      this.src = prevSrc;
      this.pos = prevPos;
      this.lineBase = prevBase;
    }
  }

  // ---------- execution ----------
  // The exec* functions return a status, or a promise of one once something waits (see maybe.ts).
  execList(stmts: Stmt[], fds: Fd[], from = 0, st = this.status): Maybe<number> {
    for (let i = from; i < stmts.length; i++) {
      const s = stmts[i];
      if (s.background) {
        this.startBackground(s.cmd, fds);
        st = 0;
        this.status = 0;
        continue;
      }
      this.redirFailed = false;
      const r = this.exec(s.cmd, fds);
      if (typeof r !== "number") return this.execListAfter(stmts, fds, i, r);
      st = r;
      const trap = this.afterStatement(s.cmd, st, fds);
      if (trap) {
        const next = i + 1;
        return trap.then(() => this.execList(stmts, fds, next, r));
      }
    }
    return st;
  }

  private async execListAfter(stmts: Stmt[], fds: Fd[], i: number, running: Promise<number>): Promise<number> {
    const st = await running;
    await this.afterStatement(stmts[i].cmd, st, fds);
    return this.execList(stmts, fds, i + 1, st);
  }

  /** $? and PIPESTATUS after a statement, then ERR trap and errexit; a promise only while the trap runs. */
  private afterStatement(c: Command, st: number, fds: Fd[]): Promise<void> | undefined {
    this.status = st;
    if (c.type !== "pipeline") this.vars.pipe = st;
    if (st === 0 || this.errexitOff) return undefined;
    const skip = (c.type === "andor" && this.lastAndOrShort) || (c.type === "pipeline" && c.bang) ||
      ((c.type === "group" || c.type === "if" || c.type === "while" || c.type === "for" || c.type === "forarith" || c.type === "case" || c.type === "select") && !this.redirFailed);
    if (skip) return undefined;
    const errexit = () => {
      if (this.opts.errexit) throw new ExitSig(st);
    };
    if (this.traps.has("ERR") && this.trapAllowed("ERR") && (this.callDepth === 0 || this.opts.errtrace)) return this.runTrap("ERR", fds).then(errexit);
    errexit();
    return undefined;
  }
  private lastAndOrShort = false;
  private redirFailed = false;

  async runTrap(name: string, fds: Fd[]): Promise<void> {
    const t = this.traps.get(name);
    if (!t) return;
    const saved = this.status;
    const wasIn = this.inTrap;
    this.inTrap = true;
    this.runningTraps.add(name);
    try {
      await this.evalString(t, fds, "trap");
    } finally {
      this.runningTraps.delete(name);
      this.inTrap = wasIn;
      this.status = saved;
    }
  }

  /** DEBUG trap before a loop iteration, case, or pipeline part, at the given line position. */
  private async debugAt(pos: number, fds: Fd[]): Promise<void> {
    if (!this.traps.size || !this.traps.has("DEBUG") || !this.trapAllowed("DEBUG")) return;
    this.pos = pos;
    await this.runDebugTrap(fds);
  }

  private async runDebugTrap(fds: Fd[]): Promise<void> {
    const saved = this.status;
    const wasIn = this.inTrap;
    this.inTrap = true;
    this.runningTraps.add("DEBUG");
    let st: number;
    try {
      st = await this.evalString(this.traps.get("DEBUG")!, fds, "trap");
    } catch (e) {
      if (e instanceof ReturnSig) st = e.status;
      else throw e;
    } finally {
      this.runningTraps.delete("DEBUG");
      this.inTrap = wasIn;
    }
    this.status = saved;
    if (st !== 0 && this.opts.errexit) throw new ExitSig(st);
  }

  startBackground(cmd: Command, fds: Fd[]): void {
    // Background jobs run concurrently (interleaved at await points) in a subshell with
    // stdin from /dev/null; `wait` joins them and the run waits for all before returning.
    const sh = this.subshell();
    const bfds = fds.slice();
    bfds[0] = { r: new InStream(null) };
    const pid = sh.pid;
    const p = sh.runSubshellCmd(cmd, bfds).catch((e) => {
      if (e instanceof LimitError) throw e;
      return 1;
    });
    this.shared.jobs.set(pid, p);
    noteJob(this.shared, pid, cmd);
    this.lastBg = String(pid);
  }

  exec(cmd: Command, fds: Fd[]): Maybe<number> {
    this.shared.budget.step();
    // set -n: read commands but run none (not even set +n)
    if (this.opts.noexec) return 0;
    if (cmd.type !== "pipeline" && cmd.type !== "andor") this.pos = cmd.pos;
    // $BASH_COMMAND: what DEBUG and ERR traps report (`trap 'echo "failed: $BASH_COMMAND"' ERR`);
    // kept only while a trap is set, the one time anything reads it
    // (a trap's own commands leave it alone: it still names the command that triggered the trap)
    if (this.traps.size && !this.inTrap && (cmd.type === "simple" || cmd.type === "arithcmd" || cmd.type === "test")) this.vars.set("BASH_COMMAND", formatCommand(cmd));
    if (this.traps.size && this.traps.has("DEBUG") && (cmd.type === "simple" || cmd.type === "arithcmd" || cmd.type === "test") && this.trapAllowed("DEBUG")) {
      return this.runDebugTrap(fds).then(() => this.execNode(cmd, fds));
    }
    return this.execNode(cmd, fds);
  }

  private execNode(cmd: Command, fds: Fd[]): Maybe<number> {
    switch (cmd.type) {
      case "simple": return this.execSimple(cmd, fds);
      case "pipeline": return this.execPipeline(cmd, fds);
      case "andor": {
        this.errexitOff++;
        const left = lastly(() => this.exec(cmd.left, fds), () => this.errexitOff--);
        return chain(left, (st) => {
          this.status = st;
          if ((cmd.op === "&&") !== (st === 0)) {
            this.lastAndOrShort = true;
            return st;
          }
          return chain(this.exec(cmd.right, fds), (right) => {
            this.lastAndOrShort = false;
            return right;
          });
        });
      }
      case "func":
        return this.defineFunction(cmd, fds);
      default:
        return cmd.redirs.length ? this.withRedirs(cmd.redirs, fds, (f) => this.execCompound(cmd, f)) : this.execCompound(cmd, fds);
    }
  }

  private async defineFunction(cmd: Command & { type: "func" }, fds: Fd[]): Promise<number> {
    if (/[$`'"\\]/.test(cmd.name)) {
      await this.err(fds, `\`${cmd.name}': not a valid identifier`);
      return 1;
    }
    const denial = this.host.checkFunction?.(cmd.name, cmd.bodySrc ?? "");
    if (denial) {
      if (!this.shared.denied) this.shared.denied = denial;
      await fds[2]?.w?.write(encode(`toolshed: denied (${denial.rule}): ${denial.reason}\n`)).catch(() => {});
      return 126;
    }
    this.funcs.set(cmd.name, cmd);
    return 0;
  }

  private execCompound(cmd: Command, fds: Fd[]): Maybe<number> {
    switch (cmd.type) {
      case "group": return this.execList(cmd.body, fds);
      case "subshell": {
        const sh = this.subshell();
        return sh.runSubshellBody(cmd.body, fds);
      }
      case "if": return this.execIf(cmd, fds, 0);
      case "while": {
        let st = 0;
        this.loopDepth++;
        const iteration = (): Maybe<boolean> => {
          this.shared.budget.step();
          this.errexitOff++;
          const cond = lastly(() => rescue(() => this.execList(cmd.cond, fds), loopSignal), () => this.errexitOff--);
          return chain(cond, (c) => {
            if (c === LOOP_BREAK) return false;
            if (c === LOOP_CONTINUE) return true;
            if ((c === 0) === cmd.until) return false;
            return chain(this.loopBody(cmd.body, fds), (r) => {
              st = r === LOOP_BREAK ? 0 : r;
              return r !== LOOP_BREAK;
            });
          });
        };
        return lastly(() => chain(repeat(iteration), () => st), () => this.loopDepth--);
      }
      case "for": case "select": {
        const items = cmd.words ? expandArgs(this, cmd.words) : this.positional.slice();
        return chain(items, (items) => {
          if (cmd.type === "select") {
            this.loopDepth++;
            return lastly(() => runSelect(this, cmd, items, fds, () => this.loopBody(cmd.body, fds), LOOP_BREAK), () => this.loopDepth--);
          }
          let st = 0;
          let k = 0;
          this.loopDepth++;
          const iteration = (): Maybe<boolean> => {
            if (k >= items.length) return false;
            this.shared.budget.step();
            const before = this.traps.size ? this.debugAt(cmd.pos, fds) : undefined;
            const traced = this.opts.xtrace ? chain(before, () => traceRaw(this, fds, `${cmd.type} ${cmd.name} in ${cmd.text ?? '"$@"'}`)) : before;
            return chain(traced, () => {
              this.vars.set(cmd.name, items[k++]);
              return chain(this.loopBody(cmd.body, fds), (r) => {
                st = r === LOOP_BREAK ? 0 : r;
                return r !== LOOP_BREAK;
              });
            });
          };
          return lastly(() => chain(repeat(iteration), () => st), () => this.loopDepth--);
        });
      }
      case "forarith": {
        let st = 0;
        const ev = (w: Word | undefined, dflt: bigint): Maybe<bigint> => {
          if (!this.opts.xtrace) return w ? this.arithWord(w) : dflt;
          // set -x: bash traces each of the three expressions (`(( 1 ))` for an empty one)
          return chain(w ? expandString(this, w) : "1", (t) => chain(traceRaw(this, fds, `(( ${t.trimStart()} ))`), () => (w ? this.arithWord(w) : dflt)));
        };
        // DEBUG trap (if set) and LINENO at the loop's line before each of its expressions
        const atLoop = (): Maybe<void> => {
          const trap = this.traps.size ? this.debugAt(cmd.pos, fds) : undefined;
          return chain(trap, () => { this.pos = cmd.pos; });
        };
        const iteration = (): Maybe<boolean> => {
          this.shared.budget.step();
          return chain(atLoop(), () => chain(ev(cmd.cond, 1n), (c) => {
            if (c === 0n) return false;
            return chain(this.loopBody(cmd.body, fds), (r) => {
              st = r === LOOP_BREAK ? 0 : r;
              if (r === LOOP_BREAK) return false;
              return chain(atLoop(), () => chain(ev(cmd.step, 0n), () => true));
            });
          }));
        };
        this.loopDepth++;
        return lastly(() => {
          const init = chain(this.traps.size ? this.debugAt(cmd.pos, fds) : undefined, () => ev(cmd.init, 0n));
          return chain(init, () => chain(repeat(iteration), () => st));
        }, () => this.loopDepth--);
      }
      case "arithcmd": return rescue(() => chain(this.arithWord(cmd.expr), (v) => {
        if (this.opts.xtrace) return this.traceArithCmd(cmd, fds, v);
        return v !== 0n ? 0 : 1;
      }), async (e) => {
        if (e instanceof AbortLine) {
          await this.err(fds, `((: ${e.message}`);
          return 1;
        }
        throw e;
      });
      default: return this.execCompoundAsync(cmd, fds);
    }
  }

  private async traceArithCmd(cmd: Command & { type: "arithcmd" }, fds: Fd[], v: bigint): Promise<number> {
    await traceRaw(this, fds, `(( ${await expandString(this, cmd.expr)} ))`);
    return v !== 0n ? 0 : 1;
  }

  private execIf(cmd: Command & { type: "if" }, fds: Fd[], from: number): Maybe<number> {
    for (let k = from; k < cmd.clauses.length; k++) {
      const cl = cmd.clauses[k];
      this.errexitOff++;
      const c = lastly(() => this.execList(cl.cond, fds), () => this.errexitOff--);
      if (typeof c !== "number") {
        const next = k + 1;
        return c.then((c) => (c === 0 ? this.execList(cl.body, fds) : this.execIf(cmd, fds, next)));
      }
      if (c === 0) return this.execList(cl.body, fds);
    }
    if (cmd.elseBody) return this.execList(cmd.elseBody, fds);
    return 0;
  }

  private async execCompoundAsync(cmd: Command, fds: Fd[]): Promise<number> {
    switch (cmd.type) {
      case "case": {
        if (this.traps.size) await this.debugAt(cmd.pos, fds);
        if (this.opts.xtrace) await traceRaw(this, fds, `case ${cmd.text ?? ""} in`);
        const subject = await expandString(this, cmd.word);
        let fall = false;
        for (let i = 0; i < cmd.items.length; i++) {
          const it = cmd.items[i];
          let hit = fall;
          if (!hit) {
            for (const p of it.patterns) {
              const pat = await expandPattern(this, p);
              if (matchPattern(subject, pat, { extglob: true, nocase: this.shopts.nocasematch })) { hit = true; break; }
            }
          }
          if (!hit) continue;
          const st = await this.execList(it.body, fds);
          this.status = st;
          if (it.term === ";;") return st;
          if (it.term === ";&") { fall = true; continue; }
          fall = false;
          if (i === cmd.items.length - 1) return st;
        }
        return fall ? this.status : 0;
      }
      case "test": {
        try {
          return (await this.evalTest(cmd.expr, fds)) ? 0 : 1;
        } catch (e) {
          if (e instanceof ShellError && !(e instanceof ExpandError)) {
            if (e.message) await this.err(fds, e.message);
            return 2;
          }
          throw e;
        }
      }
    }
    throw new Error("unreachable");
  }

  arithWord(w: Word): Maybe<bigint> {
    return chain(expandString(this, w), (s) => {
      try {
        return this.arith(s);
      } catch (e) {
        if (e instanceof ArithError) throw new AbortLine(e.message, 1);
        throw e;
      }
    });
  }

  /** A loop body's status, or LOOP_BREAK when `break` left the loop (`continue` is status 0). */
  private loopBody(body: Stmt[], fds: Fd[]): Maybe<number> {
    return rescue(() => this.execList(body, fds), (e) => {
      if (e instanceof BreakSig) {
        if (e.n > 1) { e.n--; throw e; }
        return LOOP_BREAK;
      }
      if (e instanceof ContinueSig) {
        if (e.n > 1) { e.n--; throw e; }
        return 0;
      }
      throw e;
    });
  }

  /** `bang`: the `! ` set -x prints before a negated primary. */
  async evalTest(e: TestExpr, fds: Fd[], bang = ""): Promise<boolean> {
    const tr = this.opts.xtrace ? (words: string[]) => traceTest(this, fds, words, bang) : null;
    switch (e.type) {
      case "and": return (await this.evalTest(e.left, fds)) && this.evalTest(e.right, fds);
      case "or": return (await this.evalTest(e.left, fds)) || this.evalTest(e.right, fds);
      case "not": return !(await this.evalTest(e.expr, fds, bang + "! "));
      case "word": {
        const w = await expandString(this, e.word);
        if (tr) await tr(["-n", xtraceQuote(w)]);
        return w !== "";
      }
      case "unary": {
        const a = await expandString(this, e.arg);
        if (tr) await tr([e.op, xtraceQuote(a)]);
        return unaryTest(this, e.op, a, fds);
      }
      case "binary": {
        const l = await expandString(this, e.left);
        if (e.op === "==" || e.op === "=" || e.op === "!=") {
          const pat = await expandPattern(this, e.right);
          if (tr) await tr([xtraceQuote(l), e.op, pat === "" ? "''" : pat]);
          const m = matchPattern(l, pat, { extglob: true, nocase: this.shopts.nocasematch });
          return e.op === "!=" ? !m : m;
        }
        if (e.op === "=~") {
          const re = await expandRegex(this, e.right);
          if (tr) await tr([xtraceQuote(l), e.op, re === "" ? "''" : re]);
          let rx: RegExp;
          try {
            rx = new RegExp(ereToJs(re), this.shopts.nocasematch ? "is" : "s");
          } catch {
            // bash returns 2 without a message for a regex glibc rejects
            throw new ShellError("", 2);
          }
          const m = rx.exec(l);
          if (!m) {
            this.vars.setArray("BASH_REMATCH", []);
            return false;
          }
          const arr: string[] = [];
          m.forEach((g, i) => { arr[i] = g ?? ""; });
          this.vars.setArray("BASH_REMATCH", arr);
          return true;
        }
        const r = await expandString(this, e.right);
        if (tr) await tr([xtraceQuote(l), e.op, xtraceQuote(r)]);
        if (e.op === "<") return l < r;
        if (e.op === ">") return l > r;
        if (/^-(eq|ne|lt|le|gt|ge)$/.test(e.op)) {
          const a = this.arithOrFail(l);
          const b = this.arithOrFail(r);
          return binaryTest(this, e.op, a.toString(), b.toString(), fds);
        }
        return binaryTest(this, e.op, l, r, fds);
      }
    }
  }
  private arithOrFail(s: string): bigint {
    try {
      return this.arith(s);
    } catch (e) {
      if (e instanceof ArithError) throw new ShellError(e.message, 1);
      throw e;
    }
  }

  private execPipeline(cmd: Command & { type: "pipeline" }, fds: Fd[]): Maybe<number> {
    if (cmd.time) return this.timePipeline(cmd, fds);
    let st: Maybe<number>;
    if (cmd.cmds.length === 1) {
      if (!cmd.bang) st = this.exec(cmd.cmds[0], fds);
      else {
        this.errexitOff++;
        st = lastly(() => this.exec(cmd.cmds[0], fds), () => this.errexitOff--);
      }
      st = chain(st, (st) => {
        this.vars.pipe = st;
        return st;
      });
    } else st = this.pipelineParts(cmd, fds);
    return chain(st, (st) => {
      this.pos = cmd.pos;
      return cmd.bang ? (st === 0 ? 1 : 0) : st;
    });
  }

  private async timePipeline(cmd: Command & { type: "pipeline" }, fds: Fd[]): Promise<number> {
    const start = this.host.now();
    const st = await this.execPipeline({ ...cmd, time: false }, fds);
    const report = timeReport(this.vars.get("TIMEFORMAT"), (this.host.now() - start) / 1000);
    if (report !== null) await fds[2]?.w?.write(encode(report)).catch(() => {});
    return st;
  }

  /** A pipeline of several commands, each in its own subshell (the last one here under lastpipe). */
  private async pipelineParts(cmd: Command & { type: "pipeline" }, fds: Fd[]): Promise<number> {
    const n = cmd.cmds.length;
      const pipes: Pipe[] = [];
      for (let k = 0; k < n - 1; k++) pipes.push(new Pipe(this.shared.budget.limits.pipeBufferBytes));
      if (cmd.bang) this.errexitOff++;
      // parts run in subshells that do not inherit DEBUG; bash runs it for each simple part first
      if (this.traps.size) for (const c of cmd.cmds) if (c.type === "simple") await this.debugAt(c.pos, fds);
      const runs = cmd.cmds.map((c, k) => {
        const sfds = fds.slice();
        if (k > 0) sfds[0] = { r: new InStream(pipes[k - 1].reader) };
        if (k < n - 1) {
          sfds[1] = { w: pipes[k].writer };
          if (cmd.stderrPipes[k]) sfds[2] = { w: pipes[k].writer };
        }
        const last = k === n - 1 && this.shopts.lastpipe;
        const sh = last ? this : this.subshell();
        const p = last ? settled(() => this.exec(c, sfds)).catch((e) => this.catchTop(e, sfds)) : sh.runSubshellCmd(c, sfds);
        return p.finally(() => {
          if (k < n - 1) pipes[k].writer.close();
          if (k > 0) pipes[k - 1].reader.close();
        });
      });
      let sts: number[];
      try {
        sts = await Promise.all(runs);
      } finally {
        if (cmd.bang) this.errexitOff--;
      }
      this.vars.pipe = sts;
      let st = sts[n - 1];
      if (this.opts.pipefail) for (const s of sts) if (s !== 0) st = s;
    return st;
  }

  // ---------- simple commands ----------
  private execSimple(cmd: Command & { type: "simple" }, fds: Fd[]): Maybe<number> {
    const mark = this.procCreated.length;
    return lastly(() => this.execSimpleInner(cmd, fds), () => {
      if (this.procCreated.length === mark) return;
      // Like bash closing its end of each <(...)/>(...) after the command: a >(...) reader
      // sees end of input, and the fd number is free again.
      for (const path of this.procCreated.splice(mark)) {
        const pf = this.shared.procFiles.get(path);
        if (pf instanceof Pipe) pf.writer.close();
        this.shared.procFiles.delete(path);
      }
    });
  }

  private execSimpleInner(cmd: Command & { type: "simple" }, fds: Fd[]): Maybe<number> {
    this.pos = cmd.pos;
    this.lastSubstStatus = null;
    if (cmd.words.length && this.isDeclWord(cmd.words[0])) {
      return this.expandDeclArgs(cmd.words).then((r) => this.runWords(cmd, fds, r.argv, r.arrays));
    }
    this.globbed = [];
    const argv = lastly(() => expandArgs(this, cmd.words), () => {
      this.patterns = this.globbed;
      this.globbed = null;
    });
    return chain(argv, (argv) => this.runWords(cmd, fds, argv, undefined));
  }

  /** A simple command once its words are expanded: assignments only, or a command to run. */
  private runWords(cmd: Command & { type: "simple" }, fds: Fd[], argv: string[], arrayArgs: Map<number, Assign> | undefined): Maybe<number> {
    if (!argv.length) {
      this.lastArg = "";
      const assigned = rescue(() => this.assignAll(cmd.assigns, fds, 0), (e) => this.assignFailed(e, fds));
      return chain(assigned, () => {
        const st = this.lastSubstStatus ?? 0;
        if (cmd.redirs.length) return this.withRedirs(cmd.redirs, fds, () => st);
        return st;
      });
    }

    // The rules also see the patterns the words globbed from: `rm -rf ~/*` matched every file
    // by name, but what was asked for is the whole home directory.
    const patterns = this.patterns ?? [];
    this.patterns = null;
    const denial = this.host.checkCommand(argv) ?? (patterns.length ? this.host.checkCommand([...argv, ...patterns]) : null);
    if (denial || this.opts.xtrace || cmd.assigns.length) return this.runWordsTraced(cmd, fds, argv, arrayArgs, denial);
    return lastly(() => this.invokeWithRedirs(cmd, fds, argv, arrayArgs, null), () => this.noteLastArg(argv, arrayArgs));
  }

  private assignAll(assigns: Assign[], fds: Fd[], from: number): Maybe<void> {
    for (let i = from; i < assigns.length; i++) {
      const r = this.assign(assigns[i], fds, true);
      if (r instanceof Promise) {
        const next = i + 1;
        return r.then(() => this.assignAll(assigns, fds, next));
      }
    }
  }

  private async assignFailed(e: unknown, fds: Fd[]): Promise<never> {
    if (e instanceof ShellError && !(e instanceof AbortLine)) {
      // a failed assignment (readonly) aborts the line; POSIX mode exits the shell
      if (this.opts.posix) {
        await this.err(fds, e.message);
        throw new ExitSig(1);
      }
      throw new AbortLine(e.message, 1);
    }
    throw e;
  }

  private invokeWithRedirs(cmd: Command & { type: "simple" }, fds: Fd[], argv: string[], arrayArgs: Map<number, Assign> | undefined, tempEnv: Record<string, string> | null): Maybe<number> {
    if (!cmd.redirs.length) return this.invoke(argv, fds, arrayArgs, tempEnv);
    return this.withRedirs(cmd.redirs, fds, (f) => this.invoke(argv, f, arrayArgs, tempEnv), argv[0] === "exec" && (argv.length === 1 || (argv.length === 2 && argv[1] === "--")));
  }

  /** $_ after a command: its last argument (the name only, for declare's array arguments). */
  private noteLastArg(argv: string[], arrayArgs: Map<number, Assign> | undefined): void {
    const last = argv[argv.length - 1];
    this.lastArg = arrayArgs?.has(argv.length - 1) ? last.replace(/\+?=.*$/s, "") : last;
  }

  /** The rest of a simple command that was refused, is traced (set -x) or has prefix assignments. */
  private async runWordsTraced(cmd: Command & { type: "simple" }, fds: Fd[], argv: string[], arrayArgs: Map<number, Assign> | undefined, denial: { rule: string; reason: string } | null): Promise<number> {
    if (denial) {
      if (!this.shared.denied) this.shared.denied = denial;
      await fds[2]?.w?.write(encode(`toolshed: denied (${denial.rule}): ${denial.reason}\n`)).catch(() => {});
      return 126;
    }
    // set -x: bash traces prefix assignments (`+ IFS=`) before the command they belong to
    if (this.opts.xtrace && !cmd.assigns.length) await this.xtrace(fds, argv);

    // prefix assignments are temporary and exported for the command
    let restore: (() => void) | null = null;
    let tempEnv: Record<string, string> | null = null;
    if (cmd.assigns.length) {
      tempEnv = {};
      // (the posix special-builtin case below clears cmd.assigns)
      const saved: { name: string; prev: import("./vars").Var | undefined; frame: Map<string, import("./vars").Var> }[] = [];
      const frame = new Map<string, import("./vars").Var>();
      if (this.opts.posix && SPECIAL_BUILTINS.has(argv[0]) && !this.funcs.has(argv[0])) {
        // POSIX: assignments before special builtins persist
        for (const a of cmd.assigns) await this.assign(a, fds, true);
        cmd = { ...cmd, assigns: [] };
      }
      this.vars.frames.push(frame);
      this.vars.temp.add(frame);
      restore = () => {
        const i = this.vars.frames.lastIndexOf(frame);
        if (i >= 0) this.vars.frames.splice(i, 1);
      };
      try {
        for (const a of cmd.assigns) {
          if (a.index || a.array) continue;
          const v = a.value ? await expandString(this, a.value) : "";
          if (this.opts.xtrace) await traceRaw(this, fds, `${a.name}${a.append ? "+=" : "="}${v === "" ? "" : xtraceQuote(v)}`);
          tempEnv[a.name] = v;
          frame.set(a.name, { value: v, attrs: A_EXPORT });
        }
      } catch (e) {
        restore();
        throw e;
      }
      void saved;
      if (this.opts.xtrace) await this.xtrace(fds, argv);
    }
    try {
      return await this.invokeWithRedirs(cmd, fds, argv, arrayArgs, tempEnv);
    } finally {
      if (restore) restore();
      this.noteLastArg(argv, arrayArgs);
    }
  }

  private isDeclWord(w: ArgWord): boolean {
    if (isAssignArg(w)) return false;
    const t = litText(w);
    return t === "declare" || t === "typeset" || t === "local" || t === "export" || t === "readonly";
  }

  private async expandDeclArgs(words: ArgWord[]): Promise<{ argv: string[]; arrays: Map<number, Assign> }> {
    const argv: string[] = [];
    const arrays = new Map<number, Assign>();
    for (const w of words) {
      if (isAssignArg(w)) {
        if (w.assign.array) {
          arrays.set(argv.length, w.assign);
          argv.push(`${w.assign.name}${w.assign.append ? "+=" : "="}(...)`);
        } else {
          const a = w.assign;
          let s = a.name;
          if (a.index) s += "[" + (await expandString(this, a.index)) + "]";
          s += (a.append ? "+=" : "=") + (a.value ? await expandString(this, a.value) : "");
          argv.push(s);
        }
      } else argv.push(...(await expandArgs(this, [w])));
    }
    return { argv, arrays };
  }

  async xtrace(fds: Fd[], argv: string[]): Promise<void> {
    await traceWords(this, fds, argv);
  }

  /** The array element a nameref points at, if it points at one. */
  refElement(name: string): { name: string; sub: string } | null {
    const v = this.vars.resolve(name).v;
    return v && v.attrs & A_NAMEREF && typeof v.value === "string" && v.value.endsWith("]") ? splitSubscript(v.value) : null;
  }

  /** Assignment statement (name=value, name[i]=v, name=(...), name+=...). */
  /** `trace`: a standalone assignment under set -x, traced (bash style, one line each) after
   * its value is expanded and before it is stored, so PS4 still sees the old value. */
  assign(a: Assign, fds: Fd[], trace = false): Maybe<void> {
    // name=value stays synchronous; traced, indexed, array and nameref-element assignments wait
    if (a.index || a.array || (trace && this.opts.xtrace) || this.refElement(a.name)) return this.assignTraced(a, fds, trace);
    return chain(a.value ? expandString(this, a.value) : "", (val) => this.setScalar(a, this.checkString(val)));
  }

  private async assignTraced(a: Assign, fds: Fd[], trace: boolean): Promise<void> {
    const tr = trace && this.opts.xtrace
      ? (sub: string, val: string) => traceRaw(this, fds, `${a.name}${sub}${a.append ? "+=" : "="}${val}`)
      : null;
    // a nameref to an array element (ref='A[$k]') writes that element, subscript evaluated now
    const target = a.index ? null : this.refElement(a.name);
    if (target && (a.array || target.sub === "@" || target.sub === "*")) throw new ShellError(`\`${target.name}[${target.sub}]': not a valid identifier`, 1);
    if (target) {
      const val = a.value ? await expandString(this, a.value) : "";
      if (tr) await tr("", val === "" ? "" : xtraceQuote(val));
      this.vars.setIndex(target.name, await dynamicKey(this, target.name, target.sub), this.checkString(val), a.append);
      return;
    }
    if (a.array) {
      // bash traces a compound assignment as written, before expansion (`+ a=(x "$y")`)
      const elems = a.array;
      await this.assignArray(a.name, elems, a.append, false, tr ? () => tr("", formatArray(elems)) : undefined);
      return;
    }
    const val = a.value ? await expandString(this, a.value) : "";
    this.checkString(val);
    if (a.index) {
      const key = await resolveIndex(this, a.name, a.index);
      if (tr) await tr(`[${key}]`, val === "" ? "" : xtraceQuote(val));
      this.vars.setIndex(a.name, key, val, a.append);
    } else {
      if (tr) await tr("", val === "" ? "" : xtraceQuote(val));
      this.setScalar(a, val);
    }
  }

  /** Stores name=value / name+=value (element 0 of an array). */
  private setScalar(a: Assign, val: string): void {
    const v = this.vars.resolve(a.name).v;
    if (v && (isArray(v) || isAssoc(v)) && !a.append) {
      this.vars.setIndex(a.name, "0", val);
    } else if (v && isArray(v) && a.append) {
      this.vars.setIndex(a.name, "0", val, true);
    } else this.vars.set(a.name, val, a.append);
    if (this.opts.allexport) this.vars.cell(a.name).attrs |= A_EXPORT;
  }

  async assignArray(name: string, elems: import("../syntax/ast").ArrayElem[], append: boolean, forceAssoc: boolean, trace?: (vals: string[]) => Promise<void>): Promise<void> {
    const cell = this.vars.cell(name);
    const assoc = forceAssoc || cell.value instanceof Map;
    // values are expanded first, then keys are evaluated and assigned in order (bash)
    const vals: (string | string[])[] = [];
    for (const el of elems) vals.push(el.key ? await expandString(this, el.value) : await expandArgs(this, [el.value]));
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
        const k = await expandString(this, el.key);
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
        let k = Number(this.arith(await expandString(this, el.key)));
        if (k < 0) k += idx;
        const v = vals[i] as string;
        arr[k] = el.append ? (arr[k] ?? "") + v : v;
        idx = k + 1;
      } else {
        for (const v of vals[i] as string[]) arr[idx++] = v;
      }
    }
    if (cell.attrs & A_INTEGER) for (const k in arr) arr[k] = this.arith(arr[k]).toString();
  }

  /** Runs a command by name: function, builtin, this shell, a script, or a host program. */
  invoke(argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>, tempEnv?: Record<string, string> | null): Maybe<number> {
    const name = argv[0];
    const fn = this.funcs.get(name);
    if (fn) return this.callFunction(fn, argv, fds);
    return this.invokeNoFunc(argv, fds, arrayArgs, tempEnv);
  }

  invokeNoFunc(argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>, tempEnv?: Record<string, string> | null, builtinsOnly = false): Maybe<number> {
    const name = argv[0];
    const b = this.shared.builtins[name];
    if (b) {
      return rescue(() => b(this, argv, fds, arrayArgs), async (e) => {
        if ((e instanceof ShellError && !(e instanceof ExpandError) && !(e instanceof AbortLine)) || e instanceof ArithError) {
          await this.err(fds, `${name}: ${e.message}`);
          return e instanceof ShellError ? e.status : 1;
        }
        throw e;
      });
    }
    if (builtinsOnly) return this.err(fds, `builtin: ${name}: not a shell builtin`).then(() => 1);
    return this.runExternal(argv, fds, tempEnv ?? null);
  }

  callFunction(fn: Command & { type: "func" }, argv: string[], fds: Fd[]): Maybe<number> {
    if (this.callDepth >= this.shared.budget.limits.maxCallDepth) {
      throw new LimitError("depth", `toolshed: function call depth limit (${this.shared.budget.limits.maxCallDepth}) exceeded`);
    }
    const savedPos = this.positional;
    this.positional = argv.slice(1);
    this.vars.frames.push(new Map());
    this.funcStack.push(fn.name);
    this.callDepth++;
    const savedLoop = this.loopDepth;
    this.loopDepth = 0;
    // functions inherit the DEBUG trap only under functrace (set -T)
    const hiddenDebug = !this.opts.functrace && this.traps.size ? this.traps.get("DEBUG") : undefined;
    if (hiddenDebug !== undefined) this.traps.delete("DEBUG");
    // likewise RETURN: a RETURN trap this function sets runs when it returns
    const hiddenReturn = !this.opts.functrace && this.traps.size ? this.traps.get("RETURN") : undefined;
    if (hiddenReturn !== undefined) this.traps.delete("RETURN");
    const body = () => chain(rescue(() => this.exec(fn.body, fds), returnStatus), (st) =>
      this.traps.has("RETURN") && !this.runningTraps.has("RETURN") ? this.runTrap("RETURN", fds).then(() => st) : st);
    const run = () => lastly(body, () => {
      if (hiddenDebug !== undefined && !this.traps.has("DEBUG")) this.traps.set("DEBUG", hiddenDebug);
      if (hiddenReturn !== undefined && !this.traps.has("RETURN")) this.traps.set("RETURN", hiddenReturn);
      this.loopDepth = savedLoop;
      this.callDepth--;
      this.nesting--;
      this.funcStack.pop();
      this.vars.frames.pop();
      this.positional = savedPos;
    });
    return ++this.nesting % NEST_YIELD === 0 ? Promise.resolve().then(run) : run();
  }

  /** The whole environment of the command being started, when a wrapper (env -i) built it. */
  private envOverride: Record<string, string> | null = null;

  env(tempEnv: Record<string, string> | null): Record<string, string> {
    if (this.envOverride) return { ...this.envOverride };
    const e = this.vars.exported();
    if (tempEnv) Object.assign(e, tempEnv);
    return e;
  }

  isShellName(name: string): boolean {
    return name === "bash" || name === "sh" || name === "/bin/bash" || name === "/bin/sh" || name === "/usr/bin/bash" || name === "/usr/bin/env bash";
  }

  /** Runs a command outside the shell (a script, the shell, a program) with exactly `env`. */
  async runWithEnv(argv: string[], fds: Fd[], env: Record<string, string>): Promise<number> {
    const saved = this.envOverride;
    this.envOverride = env;
    try {
      return await this.runExternal(argv, fds, null);
    } finally {
      this.envOverride = saved;
    }
  }

  private async runExternal(argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number> {
    const name = argv[0];
    if (this.isShellName(name)) return this.runChildShell(argv, fds, tempEnv);
    if (name.includes("/")) {
      let abs: string;
      try {
        abs = this.host.resolvePath(this.cwd, name);
      } catch (e) {
        await this.err(fds, `${name}: ${(e as { message: string }).message}`);
        return 126;
      }
      const command = this.host.commandAt?.(abs);
      if (command) return this.runExternal([command, ...argv.slice(1)], fds, tempEnv);
      const st = this.host.fs.stat(abs);
      if (!st) {
        await this.err(fds, `${name}: No such file or directory`);
        return 127;
      }
      if (st.type === "dir") {
        await this.err(fds, `${name}: Is a directory`);
        return 126;
      }
      if (st.mode !== undefined && (st.mode & 0o100) === 0) {
        await this.err(fds, `${name}: Permission denied`);
        return 126;
      }
      const text = decode(this.host.fs.readFile(abs));
      const first = text.split("\n", 1)[0];
      const m = /^#!\s*(\S+)(?:\s+(.*\S))?/.exec(first);
      // `#!/usr/bin/env NAME`, `#!/usr/bin/awk -f` (one optional argument, as Linux passes it).
      const viaEnv = m?.[1].endsWith("/env") ?? false;
      const interp = m ? (viaEnv ? m[2]?.split(/\s+/)[0] ?? "" : m[1]) : "sh";
      const interpArgs = m && !viaEnv && m[2] !== undefined ? [m[2]] : [];
      const base = interp.split("/").pop() ?? "";
      if (base === "bash" || base === "sh" || base === "dash") return this.runChildShell(["bash", name, ...argv.slice(1)], fds, tempEnv);
      const r = this.host.runProgram([base, ...interpArgs, name, ...argv.slice(1)], this.programIo(fds, tempEnv));
      if (r) return r;
      await this.err(fds, `${name}: ${m?.[1] === interp ? interp : `${m?.[1]} ${interp}`}: interpreter not available in this sandbox (there is no node or perl here; python3 is); scripts can use bash or sh, and the commands in /usr/bin (awk, sed, jq, ...)`);
      return 127;
    }
    const found = this.lookupCommand(name);
    if (found && found.kind === "script") return this.runExternal([found.path, ...argv.slice(1)], fds, tempEnv);
    const wrapped = await runShellWrapper(this, argv, fds, tempEnv);
    if (wrapped !== undefined) return wrapped;
    let r: Promise<number> | undefined;
    try {
      r = this.host.runProgram(argv, this.programIo(fds, tempEnv));
    } catch (e) {
      // the host commits pending redirect output first; a refusal there is reported, not a crash
      if ((e as { denied?: unknown } | null)?.denied) { this.pathError(fds, name, e); return 126; }
      throw e;
    }
    if (!r) {
      await this.err(fds, `${name}: command not found`);
      return 127;
    }
    try {
      return await r;
    } catch (e) {
      if (e instanceof EpipeError) return 141;
      throw e;
    }
  }

  /** PATH search through the hash table, as bash does: a remembered path is used even if stale. */
  lookupCommand(name: string): { kind: "host" | "script"; path: string } | null {
    const path = this.vars.get("PATH");
    if (path !== this.hashedFor) {
      this.hashed.clear();
      this.hashedFor = path;
    }
    const hit = this.hashed.get(name);
    if (hit) {
      hit.hits++;
      return hit;
    }
    const f = this.findInPath(name);
    if (f) this.hashed.set(name, { ...f, hits: 1 });
    return f;
  }

  /** PATH search: system dirs name host programs; other dirs may hold workspace scripts. */
  findInPath(name: string): { kind: "host" | "script"; path: string } | null {
    const SYSTEM = new Set(["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/sbin"]);
    const path = this.vars.get("PATH") ?? "";
    for (const dir of path.split(":")) {
      const d = dir === "" ? "." : dir;
      // A host with a machine view lists its commands under /bin and /usr/bin itself.
      if (this.host.commandAt) {
        try {
          if (this.host.commandAt(this.host.resolvePath(this.cwd, `${d}/${name}`))) return { kind: "host", path: `${d}/${name}` };
        } catch {
          continue;
        }
      } else if (SYSTEM.has(d)) {
        if (this.host.hasProgram?.(name)) return { kind: "host", path: `${d}/${name}` };
        continue;
      }
      try {
        const abs = this.host.resolvePath(this.cwd, `${d}/${name}`);
        if (this.host.fs.stat(abs)?.type === "file") return { kind: "script", path: d.includes("/") || d === "." ? `${d}/${name}` : `./${d}/${name}` };
      } catch {
        // outside the allowed area: not searched
      }
    }
    return null;
  }

  /** Readable fds above 2, plus <(...) outputs under their /dev/fd numbers. */
  private extraFds(fds: Fd[]): Record<number, InStream> {
    const out: Record<number, InStream> = {};
    fds.forEach((f, i) => { if (i > 2 && f?.r) out[i] = f.r; });
    for (const [p, v] of this.shared.procFiles) {
      if (v instanceof Uint8Array) out[Number(p.slice(8))] = new InStream(new BytesReader(v));
    }
    return out;
  }

  /** >(...) pipes under their /dev/fd numbers, for programs that write to them. */
  private extraWriters(): Record<number, ByteWriter> {
    const out: Record<number, ByteWriter> = {};
    for (const [p, v] of this.shared.procFiles) if (v instanceof Pipe) out[Number(p.slice(8))] = v.writer;
    return out;
  }

  programIo(fds: Fd[], tempEnv: Record<string, string> | null) {
    return {
      cwd: this.cwd,
      env: this.env(tempEnv),
      stdin: fds[0]?.r ?? new InStream(null),
      stdout: fds[1]?.w ?? new NullWriter(),
      stderr: fds[2]?.w ?? new NullWriter(),
      limits: this.shared.budget.limits,
      umask: getUmask(this),
      extraFds: this.extraFds(fds),
      extraWriters: this.extraWriters(),
    };
  }

  /** `bash -c`, `sh script`, `bash` with stdin: a fresh shell in the same run. */
  async runChildShell(argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number> {
    const child = new Shell(this.shared);
    child.rootPid = this.rootPid;
    child.cwd = this.cwd;
    child.fds = fds;
    const env = this.env(tempEnv);
    initVars(child, env, this.cwd);
    for (const name of this.exportedFuncs) {
      const fn = this.funcs.get(name);
      if (!fn) continue;
      child.funcs.set(name, fn);
      child.exportedFuncs.add(name);
    }
    let i = 1;
    let script: string | null = null;
    let arg0 = argv[0];
    const sets: string[] = [];
    // bash's flag parsing: -c only marks that the first operand is the command string, so
    // flags may follow it (bash -c -x 'cmd'); each o/O in a flag group takes the next word.
    let cflag = false;
    let interactive = false, norc = false, fromStdin = false, pretty = false;
    let dump: "strings" | "po" | undefined;
    let rcfile: string | undefined;
    const bad = async (msg: string) => {
      await fds[2]?.w?.write(encode(`${argv[0]}: ${msg}\n`)).catch(() => {});
      return 2;
    };
    while (i < argv.length) {
      const a = argv[i];
      if (a === "--" || a === "-") { i++; break; }
      if (a === "--help") {
        await fds[1]?.w?.write(encode(`Usage:\t${argv[0]} [option] ...\n\t${argv[0]} [option] script-file ...\n\t${argv[0]} [option] -c command-string [name [arg ...]]\nShell options:\n\t-ilrsD or -c command\n\t-abefhkmnptuvxBCEHPT or -o option\n`)).catch(() => {});
        return 0;
      }
      if (a === "--version") {
        await fds[1]?.w?.write(encode(BASH_VERSION_TEXT)).catch(() => {});
        return 0;
      }
      if (a === "--rcfile" || a === "--init-file") { rcfile = argv[i + 1]; i += 2; continue; }
      if (a === "--restricted" || /^-[a-zA-Z]*r/.test(a)) return bad(`${a === "--restricted" ? a : "-r"}: restricted shells are not supported in this sandbox (the policy already limits what commands may do)`);
      if (a.startsWith("--")) {
        if (!["--norc", "--noprofile", "--posix", "--login", "--noediting", "--verbose", "--debugger", "--debug", "--pretty-print", "--dump-strings", "--dump-po-strings"].includes(a)) return bad(`${a}: invalid option`);
        if (a === "--posix") sets.push("-o", "posix");
        if (a === "--norc") norc = true;
        if (a === "--verbose") sets.push("-v");
        if (a === "--pretty-print") pretty = true;
        if (a === "--dump-strings") dump = "strings";
        if (a === "--dump-po-strings") dump = "po";
        // bash looks for the bashdb debugger's start file; there is none here either
        if (a === "--debugger") await fds[2]?.w?.write(encode(`${argv[0]}: /usr/share/bashdb/bashdb-main.inc: No such file or directory\n${argv[0]}: warning: cannot start debugger; debugging mode disabled\n`)).catch(() => {});
        i++;
        continue;
      }
      if (/^[-+][a-zA-Z]+$/.test(a)) {
        i++;
        for (const ch of a.slice(1)) {
          if (ch === "c") cflag = true;
          else if (ch === "i") interactive = a[0] === "-";
          else if (ch === "D") dump = "strings";
          else if (ch === "o") sets.push(a[0] + "o", argv[i++] ?? "");
          else if (ch === "O") child.shopts[argv[i++] ?? ""] = a[0] === "-";
          else if (!"ls".includes(ch)) sets.push(a[0] + ch);
        }
        continue;
      }
      break;
    }
    if (cflag) {
      if (i >= argv.length) return bad("-c: option requires an argument");
      script = argv[i++];
      child.fromC = true;
    }
    for (let k = 0; k < sets.length; k++) {
      const s = sets[k];
      if (s === "-o" || s === "+o") {
        const name = sets[++k];
        if (!setOption(child, name, s === "-o")) return bad(`${name}: invalid option name`);
        continue;
      }
      if (!setOption(child, s[1], s[0] === "-", true)) return bad(`${s}: invalid option`);
    }
    if (script !== null) {
      if (i < argv.length) arg0 = argv[i++];
      child.arg0 = arg0;
      child.positional = argv.slice(i);
    } else if (i < argv.length) {
      const file = argv[i++];
      let abs: string;
      try {
        abs = this.host.resolvePath(this.cwd, file);
      } catch (e) {
        await this.err(fds, `${file}: ${(e as { message: string }).message}`);
        return 127;
      }
      const st = this.host.fs.stat(abs);
      if (!st || st.type !== "file") {
        await fds[2]?.w?.write(encode(`${argv[0]}: ${file}: No such file or directory\n`)).catch(() => {});
        return 127;
      }
      script = decode(this.host.fs.readFile(abs));
      child.arg0 = file;
      child.positional = argv.slice(i);
    } else {
      script = decode(await (fds[0]?.r ?? new InStream(null)).readAll());
      child.arg0 = argv[0];
      fromStdin = true;
    }
    if (dump || (pretty && !child.fromC)) return printScript(script, dump ?? "pretty", child.fromC ? "-c" : child.arg0, fds);
    let st: number;
    try {
      st = interactive
        ? await runInteractive(child, script, fds, { rcfile, norc, fromStdin })
        : await child.runScript(script, fds, 2, (text) => topLevelCommand(child, text, fds));
    } catch (e) {
      st = child.catchTop(e, fds);
    }
    st = await child.runExitTrap(st);
    return st;
  }

  // ---------- redirections ----------
  withRedirs(redirs: Redir[], fds: Fd[], body: (fds: Fd[]) => Maybe<number>, permanent = false): Maybe<number> {
    if (!redirs.length) return body(fds);
    return this.withOpenRedirs(redirs, fds, body, permanent);
  }

  private async withOpenRedirs(redirs: Redir[], fds: Fd[], body: (fds: Fd[]) => Maybe<number>, permanent: boolean): Promise<number> {
    const mark = this.pendingClose.length;
    try {
      return await this.withRedirsInner(redirs, fds, body, permanent);
    } finally {
      // writers into >(...) close when the command that opened them is done
      if (!permanent) for (const w of this.pendingClose.splice(mark)) w.close();
    }
  }
  pendingClose: { close(): void }[] = [];

  private async withRedirsInner(redirs: Redir[], fds: Fd[], body: (fds: Fd[]) => Maybe<number>, permanent: boolean): Promise<number> {
    const nfds = permanent ? fds : fds.slice();
    for (const r of redirs) {
      const ok = await this.applyRedir(r, nfds);
      if (!ok) {
        this.redirFailed = true;
        return 1;
      }
    }
    if (permanent) {
      this.fds = nfds;
      return 0;
    }
    return body(nfds);
  }

  /** Opens a file for reading honouring /dev/* names; null (after a message) on error. */
  readFileForRedirect(path: string, fds: Fd[]): Uint8Array | null {
    const pf = this.shared.procFiles.get(path);
    if (pf instanceof Uint8Array) return pf;
    if (path === "/dev/null") return EMPTY;
    if (this.refusedRedirect(path, fds)) return null;
    try {
      const abs = this.host.resolvePath(this.cwd, path);
      const refused = this.host.checkRead?.(abs);
      if (refused) throw { message: refused.reason, denied: refused };
      const st = this.host.fs.stat(abs);
      if (!st) { this.errSync(fds, `${path}: No such file or directory`); return null; }
      if (st.type === "dir") { this.errSync(fds, `${path}: Is a directory`); return null; }
      return this.host.fs.readFile(abs);
    } catch (e) {
      this.pathError(fds, path, e);
      return null;
    }
  }

  /** Asks the deny rules about a redirection's target (`> .env`); true (after saying so) when refused. */
  private refusedRedirect(path: string, fds: Fd[]): boolean {
    const denial = this.host.checkRedirect?.(path, this.cwd);
    if (denial) this.pathError(fds, path, { message: denial.reason, denied: denial });
    return !!denial;
  }

  pathError(fds: Fd[], path: string, e: unknown): void {
    const pe = e as { message?: string; denied?: { rule: string; reason: string } };
    if (pe && pe.denied) {
      if (!this.shared.denied) this.shared.denied = pe.denied;
      void fds[2]?.w?.write(encode(`toolshed: denied (${pe.denied.rule}): ${pe.denied.reason}\n`)).catch(() => {});
      return;
    }
    if (e instanceof LimitError) throw e;
    this.errSync(fds, `${path}: ${pe?.message ?? String(e)}`);
  }

  /** A writer that appends to a file in the workspace. */
  fileWriter(path: string, append: boolean, fds: Fd[], clobberCheck: boolean): ByteWriter | null {
    if (path === "/dev/null") return new NullWriter();
    if (path === "/dev/stdout") return fds[1]?.w ?? null;
    if (path === "/dev/stderr") return fds[2]?.w ?? null;
    const m = /^\/dev\/fd\/(\d+)$/.exec(path);
    if (m) {
      const pf = this.shared.procFiles.get(path);
      if (pf instanceof Pipe) {
        this.pendingClose.push(pf.writer);
        return pf.writer;
      }
      return fds[+m[1]]?.w ?? null;
    }
    if (this.refusedRedirect(path, fds)) return null;
    let abs: string;
    try {
      abs = this.host.resolvePath(this.cwd, path);
    } catch (e) {
      this.pathError(fds, path, e);
      return null;
    }
    const fs = this.host.fs;
    // stat may be refused too (a protected file): every step reports a denial as a path error
    try {
      const st = fs.stat(abs);
      if (st && st.type === "dir") { this.errSync(fds, `${path}: Is a directory`); return null; }
      const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
      const pst = fs.stat(parent);
      if (!pst || pst.type !== "dir") { this.errSync(fds, `${path}: No such file or directory`); return null; }
      if (clobberCheck && st && this.opts.noclobber) { this.errSync(fds, `${path}: cannot overwrite existing file`); return null; }
      if (!append || !st) fs.writeFile(abs, EMPTY, { append: false, mode: 0o666 & ~getUmask(this) });
    } catch (e) {
      this.pathError(fds, path, e);
      return null;
    }
    const budget = this.shared.budget;
    const writeSync = (data: Uint8Array) => {
      budget.outputBytes += data.length;
      if (budget.outputBytes > MAX_FILE_OUTPUT_BYTES) throw new LimitError("output", `toolshed: file output limit (${MAX_FILE_OUTPUT_BYTES} bytes) exceeded`);
      try {
        fs.writeFile(abs, data, { append: true });
      } catch (e) {
        // a refusal after the file was opened (appending needs read access to a protected
        // file once earlier output was committed): report it and stop the writer
        if ((e as { denied?: unknown } | null)?.denied) { this.pathError(fds, path, e); throw new EpipeError(); }
        throw e;
      }
    };
    return { write: async (data: Uint8Array) => writeSync(data), writeSync };
  }

  async applyRedir(r: Redir, fds: Fd[]): Promise<boolean> {
    const op = r.op;
    let fd = r.fd ?? (op.startsWith("<") ? 0 : 1);
    if (op === "<<" || op === "<<-") {
      const body = r.heredocQuoted ? (r.target.parts[0] as { value: string }).value : await expandString(this, r.target);
      fds[fd] = { r: new InStream(new BytesReader(encode(body))) };
      return true;
    }
    if (op === "<<<") {
      const target = await expandString(this, r.target);
      fds[fd] = { r: new InStream(new BytesReader(encode(target + "\n"))) };
      return true;
    }
    // the target is split and globbed; it must come out as exactly one word
    const words: string[] = [];
    try {
      await expandFields(this, r.target, true, words);
    } catch (e) {
      if (e instanceof AbortLine && !(e instanceof ExpandError)) {
        await this.err(fds, e.message);
        return false;
      }
      throw e;
    }
    if (words.length !== 1) {
      await this.err(fds, `${litText(r.target) ?? "$" + "word"}: ambiguous redirect`);
      return false;
    }
    const target = words[0];
    if (r.varFd) {
      if (op === ">&" || op === "<&") {
        if (target === "-") {
          const n = Number(this.vars.get(r.varFd));
          delete fds[n];
          return true;
        }
      }
      let n = 10;
      while (fds[n]) n++;
      this.vars.set(r.varFd, String(n));
      fd = n;
    }
    switch (op) {
      case ">": case ">|": case ">>": case "&>": case "&>>": {
        const w = this.fileWriter(target, op.endsWith(">>"), fds, op === ">" || op === "&>");
        if (!w) return false;
        fds[fd] = { w };
        if (op.startsWith("&")) {
          fds[1] = { w };
          fds[2] = { w };
        }
        return true;
      }
      case "<": {
        const dm = /^\/dev\/(stdin|fd\/(\d+))$/.exec(target);
        if (dm) {
          const pf = this.shared.procFiles.get(target);
          if (pf instanceof Uint8Array) { fds[fd] = { r: new InStream(new BytesReader(pf)) }; return true; }
          const src = dm[1] === "stdin" ? 0 : +dm[2];
          fds[fd] = { r: fds[src]?.r ?? new InStream(null) };
          return true;
        }
        const data = this.readFileForRedirect(target, fds);
        if (!data) return false;
        fds[fd] = { r: new InStream(new BytesReader(data, true), target === "/dev/null") };
        return true;
      }
      case "<>": {
        const data = target === "/dev/null" ? EMPTY : this.readFileForRedirect(target, fds);
        if (!data) {
          const w = this.fileWriter(target, true, fds, false);
          if (!w) return false;
          fds[fd] = { w, r: new InStream(null) };
          return true;
        }
        const w = this.fileWriter(target, true, fds, false);
        fds[fd] = { r: new InStream(new BytesReader(data)), w: w ?? undefined };
        return true;
      }
      case ">&": case "<&": {
        if (target === "-") {
          delete fds[fd];
          return true;
        }
        let t = target;
        let move = false;
        if (t.endsWith("-")) { move = true; t = t.slice(0, -1); }
        if (/^\d+$/.test(t)) {
          const src = fds[+t];
          if (!src) {
            await this.err(fds, `${t}: Bad file descriptor`);
            return false;
          }
          fds[fd] = src;
          if (move) delete fds[+t];
          return true;
        }
        if (op === ">&" && r.fd === undefined) {
          const w = this.fileWriter(target, false, fds, true);
          if (!w) return false;
          fds[1] = { w };
          fds[2] = { w };
          return true;
        }
        await this.err(fds, `${target}: ambiguous redirect`);
        return false;
      }
    }
    return false;
  }
}

const NEST_YIELD = 16;

// Loop outcomes beside a status (statuses are 0..255).
const LOOP_BREAK = -1;
const LOOP_CONTINUE = -2;

/** `break`/`continue` thrown by a loop's condition: this loop's outcome, or passed on one level up. */
/** `return` ends the function with its status. */
function returnStatus(e: unknown): number {
  if (e instanceof ReturnSig) return e.status;
  throw e;
}

function loopSignal(e: unknown): number {
  if (e instanceof BreakSig && e.n <= 1) return LOOP_BREAK;
  if (e instanceof ContinueSig && e.n <= 1) return LOOP_CONTINUE;
  if (e instanceof BreakSig || e instanceof ContinueSig) e.n--;
  throw e;
}

export function initVars(sh: Shell, env: Record<string, string>, cwd: string): void {
  for (const [k, v] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) continue;
    sh.vars.frames[0].set(k, { value: v, attrs: A_EXPORT });
  }
  // an exported SHELLOPTS carries set -o options into child shells; both lists are read-only views
  for (const o of (env.SHELLOPTS ?? "").split(":")) if (o && o in sh.opts) sh.opts[o] = true;
  for (const k of ["SHELLOPTS", "BASHOPTS"]) sh.vars.frames[0].set(k, { value: "", attrs: A_READONLY | (k in env ? A_EXPORT : 0) });
  const set = (k: string, v: string) => { if (sh.vars.get(k) === undefined) sh.vars.set(k, v); };
  sh.vars.set("PWD", cwd);
  sh.vars.cell("PWD").attrs |= A_EXPORT;
  set("IFS", " \t\n");
  set("PS4", "+ ");
  set("OPTIND", "1");
  set("HOME", "/workspace");
  set("PATH", "/usr/local/bin:/usr/bin:/bin");
  set("SHELL", "/bin/bash");
  set("HOSTNAME", "toolshed");
  set("OSTYPE", "linux-gnu");
  set("MACHTYPE", "x86_64-pc-linux-gnu");
  set("HOSTTYPE", "x86_64");
  sh.vars.set("BASH_VERSION", "5.2.15(1)-release");
  sh.vars.set("BASH", "/bin/bash");
  sh.vars.setArray("BASH_VERSINFO", ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"]);
  sh.vars.set("SHLVL", "1");
}

export { normalize, joinPath };
