import { checkCommand } from "../policy/commands";
import type { Denial } from "../policy/denied";
import { LIMITS } from "../limits";

/**
 * The `toolshed` import module: what bundled programs may ask the host beyond WASI.
 *
 * `check_command(argv_ptr, argv_len) -> i32` — toolbox's xargs, find -exec, env and timeout
 * run other commands in-process, out of the shell's sight, so they show each command line here
 * first. The argv is `argv_len` bytes of NUL-terminated strings. The answer is 0 (run it) or 1
 * (refused): the host has then written `toolshed: denied (rule): reason` to the program's
 * stderr, as the shell does, and recorded the denial for the run's result.
 *
 * `path_mode(path_ptr, path_len) -> i32` — a file's permission bits (WASI's filestat has none),
 * with ROOT_OWNED set when root owns it (ls -l and stat name the owner), or minus an errno. `path_set_mode(path_ptr, path_len, mode) -> i32` — chmod (cp -p, tar x):
 * 0, or minus an errno. The path is UTF-8, absolute or relative to the program's cwd.
 */
export const TOOLSHED_MODULE = "toolshed";

export interface CommandGate {
  /** The program's working directory (relative operands of a rule resolve against it). */
  cwd: string;
  home: string;
  /** The session's command rule set (all rules when absent). */
  rules?: ReadonlySet<string>;
  /** Records a refusal (the first one becomes the run's `denied`). */
  denied(d: Denial): void;
  /** Writes host text to the program's stderr. */
  say(text: string): void;
  /** File modes (absent for runs without files): the mode, or minus an errno. */
  modes?: {
    get(path: string): number;
    set(path: string, mode: number): number;
  };
}

/** Longest path a program may pass (the policy refuses longer ones anyway). */
const MAX_PATH_BYTES = LIMITS.programPathBytes;
const ERRNO_INVAL = 28;
const ERRNO_NOSYS = 52;

/** Beside the permission bits in `path_mode`'s answer: root owns the file (toolbox's host.rs reads it). */
export const ROOT_OWNED = 1 << 16;

export const CHECK_ALLOWED = 0;
export const CHECK_DENIED = 1;

/** Longest argv a program may submit in one call (the shell's own limit is far above any real use). */
const MAX_ARGV_BYTES = LIMITS.programArgvBytes;

/** Splits NUL-terminated strings; a missing final NUL still ends the last one. */
export function decodeArgv(bytes: Uint8Array): string[] {
  const text = new TextDecoder().decode(bytes);
  const parts = text.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

export function buildToolshedImports(memory: () => WebAssembly.Memory | undefined, gate: CommandGate): Record<string, (...args: number[]) => number> {
  const refuse = (d: Denial): number => {
    gate.denied(d);
    gate.say(`toolshed: denied (${d.rule}): ${d.reason}\n`);
    return CHECK_DENIED;
  };
  const pathAt = (ptr: number, len: number): string | null => {
    const mem = memory();
    if (!mem || ptr < 0 || len <= 0 || len > MAX_PATH_BYTES || ptr + len > mem.buffer.byteLength) return null;
    return new TextDecoder().decode(new Uint8Array(mem.buffer, ptr, len).slice());
  };
  return {
    path_mode(ptr: number, len: number): number {
      const path = pathAt(ptr, len);
      if (path === null) return -ERRNO_INVAL;
      return gate.modes ? gate.modes.get(path) : -ERRNO_NOSYS;
    },
    path_set_mode(ptr: number, len: number, mode: number): number {
      const path = pathAt(ptr, len);
      if (path === null) return -ERRNO_INVAL;
      return gate.modes ? gate.modes.set(path, mode & 0o7777) : -ERRNO_NOSYS;
    },
    check_command(ptr: number, len: number): number {
      const mem = memory();
      // Anything malformed is refused: a program that cannot say what it runs does not run it.
      if (!mem || ptr < 0 || len < 0 || len > MAX_ARGV_BYTES || ptr + len > mem.buffer.byteLength) {
        return refuse({ rule: "malformed-command", reason: "Refused: the program passed an unreadable command line to check." });
      }
      const argv = decodeArgv(new Uint8Array(mem.buffer, ptr, len).slice());
      if (argv.length === 0) return refuse({ rule: "malformed-command", reason: "Refused: the program asked to run an empty command line." });
      const denial = checkCommand(argv, { home: gate.home, cwd: gate.cwd, rules: gate.rules });
      return denial ? refuse(denial) : CHECK_ALLOWED;
    },
  };
}
