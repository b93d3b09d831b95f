import type { Fd } from "@bjorn3/browser_wasi_shim";

/** A bundled WASI program and how a command name runs it (the toolbox, python3, sqlite3, ...). */
export interface Program {
  module: WebAssembly.Module;
  /** What the program gets as argv[0]; the toolbox picks its command from it. */
  argv0: string;
  /** Arguments put before the caller's. */
  args?: string[];
  /** Preopened directories the program needs besides the session's (Python's stdlib). */
  preopens?: () => Fd[];
  /** Variables added to the caller's environment. */
  env?: Record<string, string>;
  /** Adapts the caller's arguments (after argv[0]) to the working directory. */
  adaptArgs?: (args: string[], cwd: string) => string[];
  /** Loads what the program needs (from the Worker's static assets) before its first run. */
  prepare?: (assets: Fetcher | undefined) => Promise<void>;
  /**
   * The program asks the session for commands and fetches on /dev/toolshed (Python's subprocess,
   * urllib; sed's e command): always, or when its arguments say it may (the caller's argv after argv[0]).
   */
  hostCalls?: boolean | ((args: readonly string[]) => boolean);
  /**
   * Whether a run may start from a kept copy of the program after its own initialization
   * (src/wasi/snapshot.ts): for these arguments (after argv[0], adapted) and environment, the
   * variables ("NAME=value") that initialization may see, which also key the copy; null when
   * the run must start from `_start`.
   */
  snapshotEnv?: (args: readonly string[], env: Readonly<Record<string, string>>) => string[] | null;
}
