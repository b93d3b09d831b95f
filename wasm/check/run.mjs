// Runs a built module from wasm/dist under Node's WASI with a temporary
// directory preopened as /workspace, the way the Worker's runner presents
// the workspace. Usage: node wasm/check/run.mjs MODULE [--dir D] [--stdin TEXT] -- ARGV...
// (ARGV[0] is the program name.) Prints stdout/stderr and exits with the
// module's status. Used for manual checks and by wasm/check/smoke.mjs.
import { readFileSync } from "node:fs";
import { WASI } from "node:wasi";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// toolbox asks the host before running a command in-process (toolshed.check_command, see
// src/wasi/toolshed-imports.ts); these checks run outside the sandbox, so everything is allowed.
const ALLOW_ALL = { check_command: () => 0 };

const here = dirname(fileURLToPath(import.meta.url));

/** Runs `module` with argv; stdio go to the given fds. Returns the exit code. */
export async function runWasi(module, { argv, dir, env = {}, stdin = 0, stdout = 1, stderr = 2 }) {
  const wasi = new WASI({ version: "preview1", args: argv, env, preopens: { "/workspace": dir }, stdin, stdout, stderr, returnOnExit: true });
  const bytes = readFileSync(join(here, "..", "dist", `${module}.wasm`));
  const { instance } = await WebAssembly.instantiate(bytes, { ...wasi.getImportObject(), toolshed: ALLOW_ALL });
  return wasi.start(instance);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const a = process.argv.slice(2);
  const module = a.shift();
  let dir = process.cwd();
  while (a.length && a[0] !== "--") {
    const k = a.shift();
    if (k === "--dir") dir = a.shift();
  }
  a.shift();
  process.exitCode = await runWasi(module, { argv: a, dir });
}
