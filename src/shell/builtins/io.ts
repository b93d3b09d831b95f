// Small helpers shared by builtins.
import type { Fd, Shell } from "../interp/shell";
import { encode } from "../bytes";
import { ShellError } from "../interp/vars";

export type { Builtin } from "../interp/shell";

export async function out(fds: Fd[], s: string): Promise<void> {
  const w = fds[1]?.w;
  if (!w) throw new ShellError("write error: Bad file descriptor", 1);
  if (s) await w.write(encode(s));
}

export async function errOut(fds: Fd[], s: string): Promise<void> {
  const w = fds[2]?.w;
  if (w) await w.write(encode(s)).catch(() => {});
}

/** Prints `NAME: msg` in bash's style for a builtin. */
export async function berr(sh: Shell, fds: Fd[], name: string, msg: string): Promise<void> {
  await sh.err(fds, `${name}: ${msg}`);
}

export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ParsedOpts {
  /** Each option letter seen, in order, with its argument ("" for a flag). */
  opts: [string, string][];
  /** Index of the first operand. */
  i: number;
}

/**
 * Parses a builtin's options as bash's internal getopt does: letters group (`-tn1`), an
 * option that takes an argument (`d:` in spec) takes the rest of its word or the next
 * word (`-d,` or `-d ,`), `--` ends the options and a lone `-` is an operand. Prints bash's
 * error and returns null for an unknown option or a missing argument (the builtin returns 2).
 */
export async function parseOpts(sh: Shell, fds: Fd[], argv: string[], spec: string, usage?: string): Promise<ParsedOpts | null> {
  const opts: [string, string][] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (a.length < 2 || a[0] !== "-") break;
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      const at = spec.indexOf(c);
      if (at < 0 || c === ":") {
        await berr(sh, fds, argv[0], `-${c}: invalid option`);
        if (usage) await errOut(fds, `${argv[0]}: usage: ${usage}\n`);
        return null;
      }
      if (spec[at + 1] !== ":") {
        opts.push([c, ""]);
        continue;
      }
      let val = a.slice(j + 1);
      if (!val) {
        if (i + 1 >= argv.length) {
          await berr(sh, fds, argv[0], `-${c}: option requires an argument`);
          if (usage) await errOut(fds, `${argv[0]}: usage: ${usage}\n`);
          return null;
        }
        val = argv[++i];
      }
      opts.push([c, val]);
      break;
    }
  }
  return { opts, i };
}

/** Builtins without options still accept `--` before their operands (`shift -- 1`). */
export function skipDashDash(argv: string[]): string[] {
  return argv[1] === "--" ? [argv[0], ...argv.slice(2)] : argv;
}
