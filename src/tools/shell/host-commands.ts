import type { ProgramIo } from "../../shell/host";
import { curl } from "../net/curl";
import { wget } from "../net/wget";
import type { ToolContext } from "../types";

/**
 * Commands the host runs in TypeScript beside the bundled WASI programs, for what a WASI
 * program cannot do here (the network: curl and wget go through the one fetch path and URL
 * policy). The shell finds them exactly like programs (`type`, `command -v`, PATH lookup).
 */
export type HostCommand = (argv: string[], io: ProgramIo, ctx: ToolContext) => Promise<number>;

const HOST_COMMANDS: ReadonlyMap<string, HostCommand> = new Map([
  ["curl", curl],
  ["wget", wget],
]);

export const hostCommandFor = (name: string): HostCommand | undefined => HOST_COMMANDS.get(name);
