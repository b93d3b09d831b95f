// The runner: walks the AST, owns shell state (variables, functions, options, fds)
// and reaches the world only through the ShellHost. Beside it in interp/: command-lookup.ts
// (a command by name: function, builtin, program), redirects.ts, test-eval.ts ([[ ]] and the
// test operators), assign.ts, child-shell.ts (`bash -c`, a fresh shell's variables), and the
// smaller pieces (select, xtrace, wrappers, history, options). The builtins are handed
// in (RunShared.builtins); none is imported here.
import { noteJob } from "./jobtable";
import { traceRaw, traceWords, xtraceQuote } from "./xtrace";
import { runSelect } from "./select";
import type { ByteWriter, ShellHost } from "../host";
import { EpipeError } from "../host";
import type { ArgWord, ArrayElem, Assign, Command, Stmt, Word } from "../syntax/ast";
import { isAssignArg, litText } from "../syntax/ast";
import { Parser, ParseError, lineOf } from "../syntax/parser";
import { formatCommand } from "../syntax/print";
import { ArithError, evalArith, parseArith, ArithEnv } from "../expand/arith";
import { glob, joinPath } from "../expand/glob";
import { matchPattern } from "../expand/pattern";
import { AbortLine, ExpandCtx, ExpandError, expandArgs, expandPattern, expandString } from "../expand/word";
import { Budget, LimitError } from "./limits";
import { refusedLiteral } from "./literal-check";
import { Collector, EMPTY, InStream, Pipe } from "./streams";
import { decode, encode } from "../bytes";
import { A_EXPORT, ShellError, VarStore, isArray, isAssoc } from "./vars";
import { evalTest } from "./test-eval";
import * as lookup from "./command-lookup";
import * as redirects from "./redirects";
import * as assignment from "./assign";
import { initVars, runChildShell } from "./child-shell";
import { withRedirs } from "./redirects";
import { FLAG_LETTERS, SET_O, SHOPTS, SHOPTS_ON } from "./options";
import { type Maybe, lastly, repeat, rescue, settled, chain } from "./maybe";
import { timeReport } from "./timeformat";
import { historyList } from "./history";

export interface Fd {
  r?: InStream;
  w?: ByteWriter;
}

export class BreakSig {
  constructor(public n: number) {}
}
export class ContinueSig {
  constructor(public n: number) {}
}
export class ReturnSig {
  constructor(public status: number) {}
}
export class ExitSig {
  constructor(public status: number) {}
}

/** Everything shared by a shell and its subshells within one run. */
export interface RunShared {
  host: ShellHost;
  budget: Budget;
  denied?: { rule: string; reason: string };
  jobs: Map<number, Promise<number>>;
  /** Jobs `disown` took out of the job table: no longer listed or waited for by `wait`, but the
   * run still waits for them so their output is not lost. */
  disowned: Set<Promise<number>>;
  /** The shell's ends of coprocesses' input pipes, closed when the run ends. */
  coprocWriters: (ByteWriter & { close(): void })[];
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

const SPECIAL_BUILTINS = new Set([
  "break",
  ":",
  ".",
  "continue",
  "eval",
  "exec",
  "exit",
  "export",
  "readonly",
  "return",
  "set",
  "shift",
  "times",
  "trap",
  "unset",
  "source",
]);

/** The file (or "environment") each function definition was read from, for error messages. */
const FN_SOURCE = new WeakMap<object, string>();

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
  /** The line each function in funcStack was called from (`caller`). */
  callLines: number[] = [];
  /** Builtins turned off with `enable -n`: the name finds a function or a program instead. */
  disabled = new Set<string>();
  /** Where each running function was defined (bash's BASH_SOURCE), innermost last: bash names
   * that in its error messages, so a function from a `bash -c` string says `environment:`. */
  funcSources: string[] = [];
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
  hashedFor: string | undefined;
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
      case "?":
        return String(this.status);
      case "#":
        return String(this.positional.length);
      case "$":
        return String(this.shared.nextPid > 0 ? this.rootPid : this.pid);
      case "!":
        return this.lastBg;
      case "0":
        return this.arg0;
      case "-":
        return this.flagString();
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
    return index === "0" ? (this.vars.get(name) ?? "") : "";
  }
  set(name: string, index: string | undefined, _n: unknown, value: string): void {
    if (index === undefined) this.vars.set(name, value);
    else this.vars.setIndex(name, index, value);
  }
  isAssoc(name: string): boolean {
    return isAssoc(this.vars.resolve(name).v);
  }
  checkString(s: string): string {
    if (s.length > this.shared.budget.limits.maxStringLength)
      throw new LimitError("string", `toolshed: string length limit (${this.shared.budget.limits.maxStringLength}) exceeded`);
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
    const res = glob(
      pattern,
      this.cwd,
      this.host.fs,
      {
        dotglob: this.shopts.dotglob || !!ignore,
        globstar: this.shopts.globstar,
        extglob: this.shopts.extglob,
        nocase: this.shopts.nocaseglob,
      },
      budget,
    );
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
      case "SECONDS":
        return String(Math.floor((this.host.now() - this.shared.startMs) / 1000));
      case "LINENO":
        return String(this.lineno());
      case "BASH_SUBSHELL":
        return String(this.subshellLevel);
      case "SHELLOPTS":
        return SET_O.filter((o) => this.opts[o])
          .sort()
          .join(":");
      case "BASHOPTS":
        return SHOPTS.filter((o) => this.shopts[o]).join(":");
      case "BASHPID":
        return String(this.pid);
      case "PPID":
        return "1";
      case "UID":
      case "EUID":
        return "1000";
      case "FUNCNAME":
        return this.funcStack.length ? this.funcStack[this.funcStack.length - 1] : undefined;
      case "PWD":
        return undefined;
      case "_":
        return this.lastArg;
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
    s.callLines = this.callLines.slice();
    s.disabled = new Set(this.disabled);
    s.funcSources = this.funcSources.slice();
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
      const w = fds[2]?.w;
      if (w) void w.write(encode((e.where ?? this.errPrefix()) + e.message + "\n")).catch(() => {});
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
  /** bash's get_name_for_error: the innermost BASH_SOURCE (a function's file, a sourced file),
   * else $0. */
  errPrefix(): string {
    const name = this.funcSources[this.funcSources.length - 1] || this.source[this.source.length - 1] || this.arg0;
    return `${name}: line ${this.lineno()}: `;
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
  /** A ShellError's message, with where it was raised if that was inside a function. */
  async errFrom(fds: Fd[], e: ShellError): Promise<void> {
    const w = fds[2]?.w;
    if (w) await w.write(encode((e.where ?? this.errPrefix()) + e.message + "\n")).catch(() => {});
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
      await fds[2]?.w
        ?.write(encode(`toolshed: denied (${rule}): ${reason}${where ? `\ntoolshed: ${where}; change or remove that line and run again.` : ""}\n`))
        .catch(() => {});
      this.status = 126;
      return 126;
    }
    const parser = new Parser(src, { alias: (n) => (this.shopts.expand_aliases ? this.aliases.get(n) : undefined), extglob: () => this.shopts.extglob });
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
        if (before)
          await before(
            parser.src
              .slice(start, parser.i)
              .replace(/^(\s*#[^\n]*\n|\s*\n)*/, "")
              .trim(),
          );
        try {
          this.status = await this.execList(stmts, fds);
        } catch (e) {
          if (e instanceof ArithError) {
            await this.err(fds, e.message);
            this.status = 1;
            continue;
          }
          if (e instanceof AbortLine && !(e instanceof ExpandError)) {
            await this.errFrom(fds, e);
            this.status = e.status;
            continue;
          }
          if (e instanceof ExpandError) {
            await this.errFrom(fds, e);
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

  /** eval / trap / source: parse whole string first (errors return status 2). */
  async evalString(src: string, fds: Fd[], what: string): Promise<number> {
    // parsed and run one line at a time, like bash's parse_and_execute (aliases apply)
    const parser = new Parser(src, { alias: (n) => (this.shopts.expand_aliases ? this.aliases.get(n) : undefined), extglob: () => this.shopts.extglob });
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
    const skip =
      (c.type === "andor" && this.lastAndOrShort) ||
      (c.type === "pipeline" && c.bang) ||
      ((c.type === "group" || c.type === "if" || c.type === "while" || c.type === "for" || c.type === "forarith" || c.type === "case" || c.type === "select") &&
        !this.redirFailed);
    if (skip) return undefined;
    const errexit = () => {
      if (this.opts.errexit) throw new ExitSig(st);
    };
    if (this.traps.has("ERR") && this.trapAllowed("ERR") && (this.callDepth === 0 || this.opts.errtrace)) return this.runTrap("ERR", fds).then(errexit);
    errexit();
    return undefined;
  }
  private lastAndOrShort = false;
  redirFailed = false;

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

  /** `coproc`: the command runs as a background job with its stdin and stdout on two pipes; the
   * shell holds their other ends as file descriptors (NAME[0] reads what the job writes, NAME[1]
   * writes what it reads), as bash does. The run closes the write ends when it ends, so a job
   * still reading (`coproc cat`) sees end of input then. */
  private startCoproc(cmd: Command & { type: "coproc" }, fds: Fd[]): number {
    const cap = this.shared.budget.limits.pipeBufferBytes;
    const toJob = new Pipe(cap);
    const fromJob = new Pipe(cap);
    const sh = this.subshell();
    const jfds = fds.slice();
    jfds[0] = { r: new InStream(toJob.reader) };
    jfds[1] = { w: fromJob.writer };
    const pid = sh.pid;
    const p = sh
      .runSubshellCmd(cmd.body, jfds)
      .catch((e) => {
        if (e instanceof LimitError) throw e;
        return 1;
      })
      .finally(() => {
        fromJob.writer.close();
        toJob.reader.close();
      });
    this.shared.jobs.set(pid, p);
    this.shared.coprocWriters.push(toJob.writer);
    noteJob(this.shared, pid, cmd);
    this.lastBg = String(pid);
    // bash's numbers: the read end from 63 down, the write end from 60 down
    const free = (from: number) => {
      let n = from;
      while (n > 10 && fds[n]) n--;
      return n;
    };
    const rfd = free(63);
    fds[rfd] = { r: new InStream(fromJob.reader) };
    const wfd = free(60);
    fds[wfd] = { w: toJob.writer };
    const arr = this.vars.cell(cmd.name);
    arr.value = [String(rfd), String(wfd)];
    this.vars.set(`${cmd.name}_PID`, String(pid));
    return 0;
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
      case "simple":
        return this.execSimple(cmd, fds);
      case "pipeline":
        return this.execPipeline(cmd, fds);
      case "andor": {
        this.errexitOff++;
        const left = lastly(
          () => this.exec(cmd.left, fds),
          () => this.errexitOff--,
        );
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
      case "coproc":
        return this.startCoproc(cmd, fds);
      default:
        return cmd.redirs.length ? withRedirs(this, cmd.redirs, fds, (f) => this.execCompound(cmd, f)) : this.execCompound(cmd, fds);
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
    // bash records a function's file; a function from a command string has "environment".
    FN_SOURCE.set(cmd, this.source[this.source.length - 1] ?? (this.fromC ? "environment" : this.arg0));
    return 0;
  }

  private execCompound(cmd: Command, fds: Fd[]): Maybe<number> {
    switch (cmd.type) {
      case "group":
        return this.execList(cmd.body, fds);
      case "subshell": {
        const sh = this.subshell();
        return sh.runSubshellBody(cmd.body, fds);
      }
      case "if":
        return this.execIf(cmd, fds, 0);
      case "while": {
        let st = 0;
        this.loopDepth++;
        const iteration = (): Maybe<boolean> => {
          this.shared.budget.step();
          this.errexitOff++;
          const cond = lastly(
            () => rescue(() => this.execList(cmd.cond, fds), loopSignal),
            () => this.errexitOff--,
          );
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
        return lastly(
          () => chain(repeat(iteration), () => st),
          () => this.loopDepth--,
        );
      }
      case "for":
      case "select": {
        const items = cmd.words ? expandArgs(this, cmd.words) : this.positional.slice();
        return chain(items, (items) => {
          if (cmd.type === "select") {
            this.loopDepth++;
            return lastly(
              () => runSelect(this, cmd, items, fds, () => this.loopBody(cmd.body, fds), LOOP_BREAK),
              () => this.loopDepth--,
            );
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
          return lastly(
            () => chain(repeat(iteration), () => st),
            () => this.loopDepth--,
          );
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
          return chain(trap, () => {
            this.pos = cmd.pos;
          });
        };
        const iteration = (): Maybe<boolean> => {
          this.shared.budget.step();
          return chain(atLoop(), () =>
            chain(ev(cmd.cond, 1n), (c) => {
              if (c === 0n) return false;
              return chain(this.loopBody(cmd.body, fds), (r) => {
                st = r === LOOP_BREAK ? 0 : r;
                if (r === LOOP_BREAK) return false;
                return chain(atLoop(), () => chain(ev(cmd.step, 0n), () => true));
              });
            }),
          );
        };
        this.loopDepth++;
        return lastly(
          () => {
            const init = chain(this.traps.size ? this.debugAt(cmd.pos, fds) : undefined, () => ev(cmd.init, 0n));
            return chain(init, () => chain(repeat(iteration), () => st));
          },
          () => this.loopDepth--,
        );
      }
      case "arithcmd":
        return rescue(
          () =>
            chain(this.arithWord(cmd.expr), (v) => {
              if (this.opts.xtrace) return this.traceArithCmd(cmd, fds, v);
              return v !== 0n ? 0 : 1;
            }),
          async (e) => {
            if (e instanceof AbortLine) {
              await this.err(fds, `((: ${e.message}`);
              return 1;
            }
            throw e;
          },
        );
      default:
        return this.execCompoundAsync(cmd, fds);
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
      const c = lastly(
        () => this.execList(cl.cond, fds),
        () => this.errexitOff--,
      );
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
              if (matchPattern(subject, pat, { extglob: true, nocase: this.shopts.nocasematch })) {
                hit = true;
                break;
              }
            }
          }
          if (!hit) continue;
          const st = await this.execList(it.body, fds);
          this.status = st;
          if (it.term === ";;") return st;
          if (it.term === ";&") {
            fall = true;
            continue;
          }
          fall = false;
          if (i === cmd.items.length - 1) return st;
        }
        return fall ? this.status : 0;
      }
      case "test": {
        try {
          return (await evalTest(this, cmd.expr, fds)) ? 0 : 1;
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
    return rescue(
      () => this.execList(body, fds),
      (e) => {
        if (e instanceof BreakSig) {
          if (e.n > 1) {
            e.n--;
            throw e;
          }
          return LOOP_BREAK;
        }
        if (e instanceof ContinueSig) {
          if (e.n > 1) {
            e.n--;
            throw e;
          }
          return 0;
        }
        throw e;
      },
    );
  }

  private execPipeline(cmd: Command & { type: "pipeline" }, fds: Fd[]): Maybe<number> {
    if (cmd.time) return this.timePipeline(cmd, fds);
    let st: Maybe<number>;
    if (cmd.cmds.length === 1) {
      if (!cmd.bang) st = this.exec(cmd.cmds[0], fds);
      else {
        this.errexitOff++;
        st = lastly(
          () => this.exec(cmd.cmds[0], fds),
          () => this.errexitOff--,
        );
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
    return lastly(
      () => this.execSimpleInner(cmd, fds),
      () => {
        if (this.procCreated.length === mark) return;
        // Like bash closing its end of each <(...)/>(...) after the command: a >(...) reader
        // sees end of input, and the fd number is free again.
        for (const path of this.procCreated.splice(mark)) {
          const pf = this.shared.procFiles.get(path);
          if (pf instanceof Pipe) pf.writer.close();
          this.shared.procFiles.delete(path);
        }
      },
    );
  }

  private execSimpleInner(cmd: Command & { type: "simple" }, fds: Fd[]): Maybe<number> {
    this.pos = cmd.pos;
    this.lastSubstStatus = null;
    if (cmd.words.length && this.isDeclWord(cmd.words[0])) {
      return this.expandDeclArgs(cmd.words, fds).then((r) => this.runWords(cmd, fds, r.argv, r.arrays));
    }
    this.globbed = [];
    const argv = lastly(
      () => expandArgs(this, cmd.words),
      () => {
        this.patterns = this.globbed;
        this.globbed = null;
      },
    );
    return chain(argv, (argv) => this.runWords(cmd, fds, argv, undefined));
  }

  /** A simple command once its words are expanded: assignments only, or a command to run. */
  private runWords(cmd: Command & { type: "simple" }, fds: Fd[], argv: string[], arrayArgs: Map<number, Assign> | undefined): Maybe<number> {
    if (!argv.length) {
      this.lastArg = "";
      const assigned = rescue(
        () => this.assignAll(cmd.assigns, fds, 0),
        (e) => this.assignFailed(e, fds),
      );
      return chain(assigned, () => {
        const st = this.lastSubstStatus ?? 0;
        if (cmd.redirs.length) return withRedirs(this, cmd.redirs, fds, () => st);
        return st;
      });
    }

    // The rules also see the patterns the words globbed from: `rm -rf ~/*` matched every file
    // by name, but what was asked for is the whole home directory.
    const patterns = this.patterns ?? [];
    this.patterns = null;
    const denial = this.host.checkCommand(argv) ?? (patterns.length ? this.host.checkCommand([...argv, ...patterns]) : null);
    if (denial || this.opts.xtrace || cmd.assigns.length) return this.runWordsTraced(cmd, fds, argv, arrayArgs, denial);
    return lastly(
      () => this.invokeWithRedirs(cmd, fds, argv, arrayArgs, null),
      () => this.noteLastArg(argv, arrayArgs),
    );
  }

  private assignAll(assigns: Assign[], fds: Fd[], from: number): Maybe<void> {
    for (let i = from; i < assigns.length; i++) {
      const r = assignment.assign(this, assigns[i], fds, true);
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

  private invokeWithRedirs(
    cmd: Command & { type: "simple" },
    fds: Fd[],
    argv: string[],
    arrayArgs: Map<number, Assign> | undefined,
    tempEnv: Record<string, string> | null,
  ): Maybe<number> {
    if (!cmd.redirs.length) return this.invoke(argv, fds, arrayArgs, tempEnv);
    return withRedirs(
      this,
      cmd.redirs,
      fds,
      (f) => this.invoke(argv, f, arrayArgs, tempEnv),
      argv[0] === "exec" && (argv.length === 1 || (argv.length === 2 && argv[1] === "--")),
    );
  }

  /** $_ after a command: its last argument (the name only, for declare's array arguments). */
  private noteLastArg(argv: string[], arrayArgs: Map<number, Assign> | undefined): void {
    const last = argv[argv.length - 1];
    this.lastArg = arrayArgs?.has(argv.length - 1) ? last.replace(/\+?=.*$/s, "") : last;
  }

  /** The rest of a simple command that was refused, is traced (set -x) or has prefix assignments. */
  private async runWordsTraced(
    cmd: Command & { type: "simple" },
    fds: Fd[],
    argv: string[],
    arrayArgs: Map<number, Assign> | undefined,
    denial: { rule: string; reason: string } | null,
  ): Promise<number> {
    if (denial) {
      if (!this.shared.denied) this.shared.denied = denial;
      await fds[2]?.w?.write(encode(`toolshed: denied (${denial.rule}): ${denial.reason}\n`)).catch(() => {});
      return 126;
    }
    // set -x: bash traces prefix assignments (`+ IFS=`) before the command they belong to
    if (this.opts.xtrace && !cmd.assigns.length) await this.xtrace(fds, argv, arrayArgs);

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
        for (const a of cmd.assigns) await assignment.assign(this, a, fds, true);
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
      if (this.opts.xtrace) await this.xtrace(fds, argv, arrayArgs);
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

  private async expandDeclArgs(words: ArgWord[], fds: Fd[]): Promise<{ argv: string[]; arrays: Map<number, Assign> }> {
    const argv: string[] = [];
    const arrays = new Map<number, Assign>();
    for (const w of words) {
      if (isAssignArg(w)) {
        if (w.assign.array) {
          arrays.set(argv.length, this.opts.xtrace ? await this.traceDeclArray(w.assign, fds) : w.assign);
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

  /** set -x: bash expands a declaration's compound assignment with the other words and traces
   * it on its own line, each key and value single-quoted (`+ m=(['k']='v')`), before the
   * builtin's line names the variable alone (`+ declare -A m`). The elements are expanded once,
   * here: the builtin is handed them as quoted literals. */
  private async traceDeclArray(a: Assign, fds: Fd[]): Promise<Assign> {
    const sq = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    const lit = (s: string): Word => ({ parts: [{ type: "sq", value: s }], pos: a.pos });
    const elems: ArrayElem[] = [];
    const shown: string[] = [];
    for (const el of a.array ?? []) {
      if (el.key) {
        const k = await expandString(this, el.key);
        const v = await expandString(this, el.value);
        elems.push({ key: lit(k), append: el.append, value: lit(v) });
        shown.push(`[${sq(k)}]${el.append ? "+=" : "="}${sq(v)}`);
      } else
        for (const v of await expandArgs(this, [el.value])) {
          elems.push({ value: lit(v) });
          shown.push(sq(v));
        }
    }
    await traceRaw(this, fds, `${a.name}${a.append ? "+=" : "="}(${shown.join(" ")})`);
    return { ...a, array: elems };
  }

  async xtrace(fds: Fd[], argv: string[], arrayArgs?: Map<number, Assign>): Promise<void> {
    // a declaration's array arguments were traced on their own lines: the builtin's shows the name
    await traceWords(this, fds, arrayArgs?.size ? argv.map((w, i) => (arrayArgs.has(i) ? w.replace(/\+?=.*$/s, "") : w)) : argv);
  }

  // ---------- commands by name (command-lookup.ts) and files of redirections (redirects.ts) ----------
  // Methods as well, for the builtins and wrappers that call them on the shell they are handed.
  invoke(argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>, tempEnv?: Record<string, string> | null): Maybe<number> {
    return lookup.invoke(this, argv, fds, arrayArgs, tempEnv);
  }
  invokeNoFunc(argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>, tempEnv?: Record<string, string> | null, builtinsOnly = false): Maybe<number> {
    return lookup.invokeNoFunc(this, argv, fds, arrayArgs, tempEnv, builtinsOnly);
  }
  env(tempEnv: Record<string, string> | null): Record<string, string> {
    return lookup.env(this, tempEnv);
  }
  isShellName(name: string): boolean {
    return lookup.isShellName(name);
  }
  runWithEnv(argv: string[], fds: Fd[], env: Record<string, string>): Promise<number> {
    return lookup.runWithEnv(this, argv, fds, env);
  }
  lookupCommand(name: string): { kind: "host" | "script"; path: string } | null {
    return lookup.lookupCommand(this, name);
  }
  findInPath(name: string): { kind: "host" | "script"; path: string } | null {
    return lookup.findInPath(this, name);
  }
  programIo(fds: Fd[], tempEnv: Record<string, string> | null) {
    return lookup.programIo(this, fds, tempEnv);
  }
  readFileForRedirect(path: string, fds: Fd[]): Uint8Array | null {
    return redirects.readFileForRedirect(this, path, fds);
  }
  pathError(fds: Fd[], path: string, e: unknown): void {
    redirects.pathError(this, fds, path, e);
  }

  assignArray(name: string, elems: import("../syntax/ast").ArrayElem[], append: boolean, forceAssoc: boolean, trace?: (vals: string[]) => Promise<void>): Promise<void> {
    return assignment.assignArray(this, name, elems, append, forceAssoc, trace);
  }
  /** `bash -c`, `sh script`, `bash` with stdin: a fresh shell in the same run (child-shell.ts). */
  runChildShell(argv: string[], fds: Fd[], tempEnv: Record<string, string> | null): Promise<number> {
    return runChildShell(this, new Shell(this.shared), argv, fds, tempEnv);
  }

  callFunction(fn: Command & { type: "func" }, argv: string[], fds: Fd[]): Maybe<number> {
    if (this.callDepth >= this.shared.budget.limits.maxCallDepth) {
      throw new LimitError("depth", `toolshed: function call depth limit (${this.shared.budget.limits.maxCallDepth}) exceeded`);
    }
    const savedPos = this.positional;
    this.positional = argv.slice(1);
    this.vars.frames.push(new Map());
    this.callLines.push(this.lineno());
    this.funcStack.push(fn.name);
    this.funcSources.push(FN_SOURCE.get(fn) ?? "");
    this.callDepth++;
    const savedLoop = this.loopDepth;
    this.loopDepth = 0;
    // functions inherit the DEBUG trap only under functrace (set -T)
    const hiddenDebug = !this.opts.functrace && this.traps.size ? this.traps.get("DEBUG") : undefined;
    if (hiddenDebug !== undefined) this.traps.delete("DEBUG");
    // likewise RETURN: a RETURN trap this function sets runs when it returns
    const hiddenReturn = !this.opts.functrace && this.traps.size ? this.traps.get("RETURN") : undefined;
    if (hiddenReturn !== undefined) this.traps.delete("RETURN");
    const saved: CallFrameSave = { positional: savedPos, loopDepth: savedLoop, hiddenDebug, hiddenReturn };
    // A method and inline arrows rather than named local closures: the bundler wraps every named
    // closure in a call that sets its name (keep_names), once per call here, a fifth of a call's cost.
    return ++this.nesting % NEST_YIELD === 0 ? Promise.resolve().then(() => this.runFunctionBody(fn, fds, saved)) : this.runFunctionBody(fn, fds, saved);
  }

  private runFunctionBody(fn: Command & { type: "func" }, fds: Fd[], saved: CallFrameSave): Maybe<number> {
    return lastly(
      () =>
        chain(
          rescue(
            () => this.exec(fn.body, fds),
            (e) => {
              if (e instanceof ShellError && e.where === undefined) e.where = this.errPrefix();
              return returnStatus(e);
            },
          ),
          (st) => (this.traps.has("RETURN") && !this.runningTraps.has("RETURN") ? this.runTrap("RETURN", fds).then(() => st) : st),
        ),
      () => {
        if (saved.hiddenDebug !== undefined && !this.traps.has("DEBUG")) this.traps.set("DEBUG", saved.hiddenDebug);
        if (saved.hiddenReturn !== undefined && !this.traps.has("RETURN")) this.traps.set("RETURN", saved.hiddenReturn);
        this.loopDepth = saved.loopDepth;
        this.callDepth--;
        this.nesting--;
        this.funcStack.pop();
        this.callLines.pop();
        this.funcSources.pop();
        this.vars.frames.pop();
        this.positional = saved.positional;
      },
    );
  }

  /** The builtin of this name, unless `enable -n` turned it off. */
  builtin(name: string): Builtin | undefined {
    return this.disabled.size && this.disabled.has(name) ? undefined : this.shared.builtins[name];
  }

  /** The whole environment of the command being started, when a wrapper (env -i) built it. */
  envOverride: Record<string, string> | null = null;

  pendingClose: { close(): void }[] = [];
}

const NEST_YIELD = 16;

/** What a function call changes in the shell and puts back when it returns. */
interface CallFrameSave {
  positional: string[];
  loopDepth: number;
  hiddenDebug: string | undefined;
  hiddenReturn: string | undefined;
}

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

export { initVars };
