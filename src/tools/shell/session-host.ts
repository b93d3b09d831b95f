import { checkCommand, checkFunctionDefinition, checkRedirect } from "../../policy/commands";
import { WRAPPERS } from "../../policy/commands/wrappers";
import type { Denial } from "../../policy/denied";
import { PolicyDenied } from "../../policy/denied";
import type { FileStat, PathError, ProgramIo, ShellFs, ShellHost } from "../../shell/host";
import { isVfsError } from "../../vfs/errors";
import type { FileEditor } from "../../vfs/file-editor";
import type { GuardedFs } from "../../policy/guarded-fs";
import { resolveFailure } from "../../policy/paths";
import { programFor } from "../../wasi/programs";
import { LIMITS } from "../../limits";

/** Runs a non-builtin command; undefined when no such program exists. */
export type ProgramRunner = (argv: string[], io: ProgramIo) => Promise<number> | undefined;

/** What the shell can throw at a path: a message, plus `denied` for a policy refusal. */
function toPathError(e: unknown): PathError | unknown {
  if (e instanceof PolicyDenied) return { message: e.message, denied: e.denial };
  if (isVfsError(e)) return { message: e.description };
  return e;
}

/** GuardedFs methods that read nothing a pending redirect could change. */
const BLIND_TO_PENDING = new Set<PropertyKey>(["resolve", "normalize"]);
/**
 * GuardedFs methods that read one path (their first argument). The reads of a file's content
 * are here too: a program reading one file while its output is redirected into another
 * (`uniq -c big.txt > out.txt`) would otherwise commit the output at every chunk it reads, and
 * each commit copies the whole file written so far into a new version (issue 27: a minute for
 * 20 MB).
 */
const READS_ONE_PATH = new Set<PropertyKey>(["stat", "mustStat", "lstat", "noteRead", "read", "readChunk", "readChunks", "readFile", "chunks"]);

/**
 * The shell's view of a session: the guarded workspace, the bundled programs and the command
 * rules. Redirect appends go to open editors that are committed before anything else looks
 * at the workspace, so `echo a >> f` in a loop costs one commit, not one per line; so does
 * `wc -c /dev/null` in a loop redirected to a file, since a bundled program commits them only
 * when it looks at the workspace (`programFs`).
 */
export class SessionShellHost implements ShellHost {
  private readonly pending = new Map<string, FileEditor>();
  /** Pending paths whose file does not exist yet: committing them changes their directory too. */
  private readonly creating = new Set<string>();
  readonly fs: ShellFs;
  /**
   * The workspace for bundled programs: before a call that could see pending redirect output
   * (anything but resolving a path, or the stat of a path that is not pending and not the
   * directory of a file a pending write creates) that output is committed, as it is before the
   * shell's own reads.
   */
  readonly programFs: GuardedFs;

  constructor(
    private readonly gfs: GuardedFs,
    private readonly programs: ProgramRunner,
    private readonly home: string,
    private readonly hasProgramFn: (name: string) => boolean = () => false,
    private readonly commandRules?: ReadonlySet<string>,
  ) {
    this.fs = {
      stat: (p) => this.stat(p),
      lstat: (p) => {
        const n = this.pending.has(p) ? null : this.gfs.lstat(p);
        return n?.kind === "symlink" ? { type: "symlink", size: n.size, mtimeMs: n.mtimeMs, mode: n.mode } : this.stat(p);
      },
      readdir: (p) => this.wrap(() => (this.flush(), this.gfs.readdir(p).map((n) => n.path.slice(n.path.lastIndexOf("/") + 1)))),
      readFile: (p) => this.wrap(() => (this.flush(), this.gfs.readFile(p))),
      writeFile: (p, data, opts) => this.wrap(() => this.write(p, data, opts.append, opts.mode)),
    };
    const wrapped = new Map<PropertyKey, unknown>();
    this.programFs = new Proxy(gfs, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        let fn = wrapped.get(key);
        if (!fn) {
          fn = (...args: unknown[]) => {
            if (this.pending.size > 0 && this.seesPending(key, args[0])) this.flush();
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
          wrapped.set(key, fn);
        }
        return fn;
      },
    });
  }

  private seesPending(method: PropertyKey, arg: unknown): boolean {
    if (BLIND_TO_PENDING.has(method)) return false;
    if (!READS_ONE_PATH.has(method) || typeof arg !== "string") return true;
    let path = arg;
    if (this.pending.has(path)) return true;
    // Through a link, a path may reach a pending file (whose key is its real path) under
    // another name: the real path is compared, and a path that does not resolve commits.
    if (this.gfs.ws.hasLinks()) {
      try {
        path = this.gfs.resolve("/", path);
      } catch {
        return true;
      }
      if (this.pending.has(path)) return true;
    }
    const under = path.endsWith("/") ? path : `${path}/`;
    for (const p of this.creating) if (p.startsWith(under)) return true;
    return false;
  }

  private wrap<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw toPathError(e);
    }
  }

  private stat(p: string): FileStat | null {
    const editor = this.pending.get(p);
    const n = this.gfs.stat(p);
    if (editor) return { type: "file", size: editor.size, mtimeMs: Date.now(), mode: n?.mode ?? 0o644 };
    return n ? { type: n.kind, size: n.size, mtimeMs: n.mtimeMs, mode: n.mode } : null;
  }

  private write(p: string, data: Uint8Array, append: boolean, mode?: number): void {
    let editor = this.pending.get(p);
    if (!append && editor) {
      editor.abort();
      this.pending.delete(p);
      this.creating.delete(p);
      editor = undefined;
    }
    if (!editor) {
      // A link may lead a harmless name to a refused one (`ln -s .env e; echo X > e`): the
      // redirect rules see the place it leads to as well as the name written.
      const denied = this.gfs.ws.hasLinks() ? checkRedirect(p, { home: this.home, cwd: this.home }) : null;
      if (denied) throw new PolicyDenied(denied);
      const exists = this.gfs.stat(p) !== null;
      editor = this.gfs.openEditor(p, { create: true, truncate: !append, mode });
      this.pending.set(p, editor);
      if (!exists) this.creating.add(p);
    }
    editor.append(data);
  }

  /** Commits pending redirect output; called before any other look at the workspace. */
  flush(): void {
    for (const [p, editor] of this.pending) {
      this.pending.delete(p);
      this.creating.delete(p);
      editor.commit();
    }
  }

  /** Throws pending output away (the run was refused or crashed before any commit point). */
  discard(): void {
    for (const editor of this.pending.values()) editor.abort();
    this.pending.clear();
    this.creating.clear();
  }

  resolvePath(cwd: string, path: string, follow = true, creating = false): string {
    return this.wrap(() => {
      try {
        return this.gfs.resolve(cwd, path, follow);
      } catch (e) {
        throw resolveFailure(e, creating);
      }
    });
  }

  logicalPath(cwd: string, path: string): string {
    return this.wrap(() => this.gfs.normalize(cwd, path));
  }

  runProgram(argv: string[], io: ProgramIo): Promise<number> | undefined {
    // Bundled programs reach the workspace only through programFs, which commits on demand.
    if (!this.inToolbox(argv[0]!.slice(argv[0]!.lastIndexOf("/") + 1))) this.wrap(() => this.flush());
    return this.programs(argv, io);
  }

  commandAt(absPath: string): string | undefined {
    return this.gfs.system?.commandAt(absPath);
  }

  inToolbox(name: string): boolean {
    return programFor(name) !== undefined;
  }

  wrapperValueOptions(name: string): readonly string[] {
    return WRAPPERS[name]?.valueOptions ?? [];
  }

  hasProgram(name: string): boolean {
    return this.hasProgramFn(name);
  }

  checkCommand(argv: string[]): Denial | null {
    if (this.gfs.ws.hasLinks()) {
      // Links make the answer depend on the tree (a path may lead anywhere): asked afresh.
      return checkCommand(argv, { home: this.home, cwd: this.home, rules: this.commandRules, realPath: this.realPath });
    }
    // Without links the answer depends on the words alone (home, cwd and rules are fixed for
    // this host), and a loop asks the same few commands thousands of times. Shell words hold
    // no NUL byte, so joining on it keeps different argv apart.
    const key = argv.join("\0");
    const known = this.checked.get(key);
    if (known !== undefined) return known;
    const denial = checkCommand(argv, { home: this.home, cwd: this.home, rules: this.commandRules });
    if (this.checked.size >= LIMITS.checkedCommands) this.checked.clear();
    this.checked.set(key, denial);
    return denial;
  }

  /** Answers of checkCommand by argv, for a session without links (see checkCommand). */
  private readonly checked = new Map<string, Denial | null>();
  private readonly realPath = (abs: string): string => this.gfs.resolve("/", abs);

  checkRedirect(target: string, cwd: string): Denial | null {
    return checkRedirect(target, { home: this.home, cwd });
  }

  checkRead(absPath: string): Denial | null {
    try {
      this.gfs.rules.checkRead(absPath);
      return null;
    } catch (e) {
      if (e instanceof PolicyDenied) return e.denial;
      throw e;
    }
  }

  checkFunction(name: string, bodySource: string): Denial | null {
    return checkFunctionDefinition(name, bodySource);
  }

  now(): number {
    return Date.now();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}
