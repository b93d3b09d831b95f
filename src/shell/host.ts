// The shell's only door to the world. The runner never touches storage, programs or
// the clock except through a ShellHost, so the same interpreter runs over the
// session workspace and over an in-memory test filesystem.

export interface FileStat {
  /** "symlink" only from `lstat`: `stat` follows links. */
  type: "file" | "dir" | "symlink";
  size: number;
  mtimeMs: number;
  /** Permission bits, when the host keeps them (test -x, running a script). */
  mode?: number;
}

/** A path refused by the session's path policy (or otherwise unresolvable). */
export interface PathError {
  message: string;
  denied?: { rule: string; reason: string };
}

export interface ShellFs {
  /** What the path leads to, links followed (null for a dangling link). */
  stat(absPath: string): FileStat | null;
  /** Optional: the entry itself, a link included (`test -L`); hosts without links leave it out. */
  lstat?(absPath: string): FileStat | null;
  readdir(absPath: string): string[];
  readFile(absPath: string): Uint8Array;
  /** `mode`: permission bits for a file this creates (0666 less the umask). */
  writeFile(absPath: string, data: Uint8Array, opts: { append: boolean; mode?: number }): void;
}

/** Async byte source. `null` means end of input. */
export interface ByteReader {
  read(): Promise<Uint8Array | null>;
  /** True when nothing is attached (no stdin, /dev/null): rg without a path then searches `.`. */
  readonly isNull?: boolean;
}

/**
 * The shell's open file description for reading: every command on the same fd takes bytes
 * from one such object, so what one leaves is there for the next.
 */
export interface SharedReader extends ByteReader {
  /** Up to `max` bytes (a whole chunk by default); null at end of input. */
  read(max?: number): Promise<Uint8Array | null>;
  /** As `read` without waiting: undefined when the bytes are not there yet. */
  tryRead(max: number): Uint8Array | null | undefined;
  /** True when `tryRead` never answers undefined (a file, a here-document, a finished pipe). */
  readonly settled: boolean;
  /**
   * Set for a file opened with `<`: lseek moves its offset for everyone reading it; `mtimeNs` is
   * the file's modification time, which fstat on the descriptor reports (`gzip < f` stores it).
   */
  readonly seekable: { seek(offset: number, whence: 0 | 1 | 2): number | null; readonly mtimeNs?: bigint } | null;
}

/** Async byte sink with backpressure. Throws EpipeError once the reader has gone. */
export interface ByteWriter {
  write(data: Uint8Array): Promise<void>;
  /**
   * Present when a write never has to wait (a collector, a file): programs may then run without
   * suspending. `data` is lent for the call only (it may be a view of a program's memory): a
   * writer that keeps bytes copies them.
   */
  writeSync?(data: Uint8Array): void;
}

export class EpipeError extends Error {
  readonly code = "EPIPE";
  constructor() {
    super("write error: Broken pipe");
  }
}

export interface ShellLimits {
  /** Interpreter steps (commands, loop iterations, function calls). Derived from timeoutMs
   * when not given, because the clock does not move during CPU-bound work on Workers. */
  maxSteps: number;
  /** Wall-clock budget checked at await points (where the clock can move). */
  timeoutMs: number;
  maxCallDepth: number;
  maxSubstDepth: number;
  maxStringLength: number;
  maxBraceExpansion: number;
  maxOutputBytes: number;
  pipeBufferBytes: number;
}

export interface ProgramIo {
  cwd: string;
  env: Record<string, string>;
  stdin: SharedReader;
  stdout: ByteWriter;
  stderr: ByteWriter;
  limits: ShellLimits;
  /** The shell's file-creation mask, for what the program creates. */
  umask?: number;
  /** Other open readable fds (3 and up), for programs that read them. */
  extraFds?: Record<number, ByteReader>;
  /** Writable fds above 2 that programs may name as /dev/fd/N (a `>(cmd)`'s pipe). */
  extraWriters?: Record<number, ByteWriter>;
}

export interface ShellHost {
  fs: ShellFs;
  /**
   * Absolute normalized path inside the allowed area, or throws a PathError. Symbolic links are
   * followed (all but a last-component link when `follow` is false, as lstat sees it).
   * `creating`: the caller makes a new file there (a redirect), which a host may refuse where a
   * lookup finds nothing.
   */
  resolvePath(cwd: string, path: string, follow?: boolean, creating?: boolean): string;
  /** Optional: as resolvePath without following links (a logical `cd`); hosts without links leave it out. */
  logicalPath?(cwd: string, path: string): string;
  /** Runs an external program; undefined when there is no such program. */
  runProgram(argv: string[], io: ProgramIo): Promise<number> | undefined;
  /** Optional: the command an absolute path runs (`/usr/bin/sed` → `sed`) when the host lists its
   * commands as files; PATH search then asks this instead of assuming where programs live. */
  commandAt?(absPath: string): string | undefined;
  /** Optional: whether programs that start commands themselves (xargs, find, env) can start
   * `name`; when not, the shell runs the wrapper's part (see interp/wrappers.ts). */
  inToolbox?(name: string): boolean;
  /** Optional: the options of a wrapper command (`nice -n N`, `xargs -I R`) that take a value,
   * as the command policy reads them; the runner uses them to find the wrapped command. */
  wrapperValueOptions?(name: string): readonly string[];
  /** Optional: whether a program exists (for `type`, `command -v`, `hash`). */
  hasProgram?(name: string): boolean;
  /** Deny-rule hook, asked for every simple command after expansion. */
  checkCommand(argv: string[]): { rule: string; reason: string } | null;
  /** Optional deny-rule hook for a redirection's target as written (`> .env`), asked before opening. */
  checkRedirect?(target: string, cwd: string): { rule: string; reason: string } | null;
  /** Optional: refuses reading a file's contents (sensitive files), asked before existence. */
  checkRead?(absPath: string): { rule: string; reason: string } | null;
  /** Optional deny-rule hook for function definitions (fork bombs), asked before defining. */
  checkFunction?(name: string, bodySource: string): { rule: string; reason: string } | null;
  now(): number;
  sleep(ms: number): Promise<void>;
}

// Marker base so limit errors are never mistaken for path errors.
export class LimitErrorMarker extends Error {}
