// Command of each background job, per run (keyed by the run's shared state), for `jobs`
// and `fg`. Kept free of imports so the runner can record jobs without an import cycle.
import type { Command } from "../syntax/ast";

const COMMANDS = new WeakMap<object, Map<number, Command>>();

export function noteJob(shared: object, pid: number, cmd: Command): void {
  let m = COMMANDS.get(shared);
  if (!m) {
    m = new Map();
    COMMANDS.set(shared, m);
  }
  m.set(pid, cmd);
}

export function jobCommand(shared: object, pid: number): Command | undefined {
  return COMMANDS.get(shared)?.get(pid);
}
