import toolbox from "../../wasm/dist/toolbox.wasm";
import { EXTRA_PROGRAMS } from "./python/programs";
import { runDetached } from "./runner";
import type { Program } from "./program";
import { sedMayExecute } from "./sed-exec";

export type { Program };

// The module is compiled when the Worker loads (wrangler bundles .wasm as CompiledWasm); a run
// only instantiates it. workerd refuses to compile Wasm at request time. fsprobe is not bundled
// here: only the tests use it, and they import it themselves.

export const TOOLBOX: WebAssembly.Module = toolbox;

let toolboxCommands: ReadonlySet<string> | null = null;

/**
 * The toolbox's own command list (`toolbox --list`), read once per isolate, so the registry
 * follows whatever the toolbox was built with instead of a copy that drifts.
 */
export function toolboxCommandNames(): ReadonlySet<string> {
  if (toolboxCommands) return toolboxCommands;
  const r = runDetached(toolbox, ["toolbox", "--list"]);
  const out = new TextDecoder().decode(r.stdout);
  if (r.exitCode !== 0 || !out.includes("Commands:")) {
    throw new Error(`toolbox --list failed (exit ${r.exitCode}): ${new TextDecoder().decode(r.stderr).trim() || r.error}`);
  }
  const names = out
    .slice(out.indexOf("Commands:") + "Commands:".length)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[a-z0-9][a-z0-9_.+-]*$/.test(l));
  toolboxCommands = new Set(names);
  return toolboxCommands;
}

/** The bundled program behind a command name, or undefined when none provides it. */
export function programFor(name: string): Program | undefined {
  if (name === "toolbox") return { module: toolbox, argv0: "toolbox" };
  // sed's e command and s///e flag run commands through the session (sed-exec.ts).
  if (name === "sed") return { module: toolbox, argv0: name, hostCalls: sedMayExecute };
  if (toolboxCommandNames().has(name)) return { module: toolbox, argv0: name };
  return EXTRA_PROGRAMS.get(name);
}

/** Every command name programFor answers, sorted. */
export function commandNames(): string[] {
  return ["toolbox", ...toolboxCommandNames(), ...EXTRA_PROGRAMS.keys()].sort();
}
