// Small helpers shared by builtins.
import type { Assign } from "../syntax/ast";
import type { Fd, Shell } from "../interp/shell";
import { encode } from "../interp/streams";
import { ShellError } from "../interp/vars";

export type Builtin = (sh: Shell, argv: string[], fds: Fd[], arrayArgs?: Map<number, Assign>) => Promise<number> | number;

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
