// Makes a fresh clone ready to run: installs npm packages when missing or stale,
// then builds the WASI programs (skipped when their sources are unchanged).
import { existsSync, statSync } from "node:fs";
import { execSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { npmCli, toolEnv, toolNode } from "./lib/node-runtime.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (cmd) => execSync(cmd, { cwd: root, stdio: "inherit" });

const lock = join(root, "package-lock.json");
const marker = join(root, "node_modules", ".package-lock.json");
if (!existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
  console.log("[prepare] installing npm packages");
  // `npm ci` trips over npm 11 lock entries for other platforms' optional packages; install honours the lock too.
  // npm runs on Node >= 22.12 (scripts/lib/node-runtime.mjs), the engine wrangler 4.164 needs.
  execSync(`"${toolNode(root)}" "${npmCli()}" install --no-audit --no-fund`, { cwd: root, stdio: "inherit", env: toolEnv(root) });
}
if (existsSync(join(root, "scripts", "build-wasm.mjs"))) {
  run("node scripts/build-wasm.mjs");
}
// CPython and sqlite3 for WASI (cached outside the clone by a hash of their inputs).
if (existsSync(join(root, "scripts", "build-python.mjs"))) {
  run("node scripts/build-python.mjs");
}
// Bytecode of the runtime's own Python files (sitecustomize, _toolshed), so a start compiles nothing.
run("node scripts/python-overlay-pyc.mjs");
run("node scripts/build-fixtures.mjs");
run("node scripts/bundle-skills.mjs");
run("node scripts/bundle-zoneinfo.mjs");
run("node scripts/bundle-node-runtime.mjs");
run("node scripts/setup-chromium.mjs");
run("node scripts/inspector-assets.mjs");
