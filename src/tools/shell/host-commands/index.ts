import type { Denial } from "../../../policy/denied";
import type { GuardedFs } from "../../../vfs/guarded-fs";
import { chmod } from "./chmod";

/**
 * Commands written in TypeScript against the session's files, for what WASI cannot say (file
 * modes). They run like the toolbox's programs: found on PATH, listed in /usr/bin, reached by
 * wrappers through the shell.
 */
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

export type HostCommand = (io: HostCommandIo) => Promise<number>;

export const HOST_COMMANDS: Readonly<Record<string, HostCommand>> = { chmod };

export const hostCommandFor = (name: string): HostCommand | undefined =>
  Object.hasOwn(HOST_COMMANDS, name) ? HOST_COMMANDS[name] : undefined;
