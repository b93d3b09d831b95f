import type { Denial } from "../../../policy/denied";
import type { ProgramIo } from "../../../shell/host";
import type { GuardedFs } from "../../../policy/guarded-fs";
import { curl } from "../../net/curl";
import { wget } from "../../net/wget";
import { gitCommand } from "../../git";
import { node } from "../../node/command";
import { npm } from "../../node/npm";
import type { Subshell, ToolContext } from "../../types";
import { chmod } from "./chmod";
import { getconf, locale, stty } from "./machine-info";
import { tput } from "./tput";

/**
 * Commands the host runs in TypeScript beside the bundled WASI programs, for what a WASI
 * program cannot do here: the network (curl and wget go through the one fetch path and URL
 * policy) and file modes (WASI has none). The shell finds them exactly like programs: on PATH,
 * listed in /usr/bin, by `type` and `command -v`, reached by wrappers through the shell.
 */
export type HostCommand = (argv: string[], io: ProgramIo, ctx: ToolContext, shell: Subshell) => Promise<number>;

/** What a text command working on the session's files sees. */
export interface HostCommandIo {
  argv: string[];
  cwd: string;
  umask: number;
  /** The machine view (/workspace, /tmp, ...), policy included. */
  fs: GuardedFs;
  out(text: string): Promise<void>;
  err(text: string): Promise<void>;
  /** Records a policy refusal for the run's result. */
  denied(d: Denial): void;
}

/** A command that writes text and touches only the session's files, as a HostCommand. */
function textCommand(run: (io: HostCommandIo) => Promise<number>): HostCommand {
  const enc = new TextEncoder();
  return (argv, io, ctx) =>
    run({
      argv,
      cwd: io.cwd,
      umask: io.umask ?? 0o022,
      fs: ctx.fs,
      out: (text) => io.stdout.write(enc.encode(text)),
      err: (text) => io.stderr.write(enc.encode(text)).catch(() => undefined),
      denied: (d) => ctx.reportDenial?.(d),
    });
}

export const HOST_COMMANDS: ReadonlyMap<string, HostCommand> = new Map([
  ["curl", curl],
  ["wget", wget],
  ["git", gitCommand],
  ["chmod", textCommand(chmod)],
  ["getconf", getconf],
  ["locale", locale],
  ["stty", stty],
  ["tput", tput],
  ["node", node],
  ["nodejs", node],
  ["js", node],
  ["npm", npm],
  ["npx", npm],
]);

export const hostCommandFor = (name: string): HostCommand | undefined => HOST_COMMANDS.get(name);
