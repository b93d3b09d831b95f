// Runs a script in a fresh in-memory shell (builtins only) for table tests against bash.
import { runShell } from "../../src/shell/index";
import { MemoryHost } from "../../src/shell/memory-host";

const dec = new TextDecoder();

export async function runScript(script: string): Promise<{ out: string; code: number }> {
  const r = await runShell(script, { host: new MemoryHost(), cwd: "/workspace", env: { HOME: "/home/u" } });
  return { out: dec.decode(r.stdout), code: r.exitCode };
}
