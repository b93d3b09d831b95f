import type { GuardedFs } from "../../policy/guarded-fs";
import { SystemTree } from "../../vfs/system-tree";
import { commandNames } from "../../wasi/programs";
import { BUILTIN_PROGRAMS } from "../../shell";
import { HOST_COMMANDS } from "./host-commands";

/** The shell itself, which /bin and /usr/bin list beside the programs, and the builtins Debian
 * also has as files there (the shell runs those where no program does). */
const SHELL_COMMANDS = ["bash", "sh", ...BUILTIN_PROGRAMS];

/** One per isolate: what /bin, /usr/bin, /etc, /dev and /proc show every session's shell. */
const SYSTEM_TREE = new SystemTree(() => [...commandNames(), ...HOST_COMMANDS.keys(), ...SHELL_COMMANDS]);

/** The session's files as its shell and programs see them: a whole machine, not just /workspace. */
export const machineView = (fs: GuardedFs): GuardedFs => (fs.system ? fs : fs.withSystem(SYSTEM_TREE));
