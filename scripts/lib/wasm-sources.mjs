// The files under wasm/ that can change a module or a test's outcome, and a hash of them: the
// key of the wasm build (scripts/build-wasm.mjs) and of the Rust test record (scripts/test-rust.mjs).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every source file under `wasmDir`, sorted for a stable hash. */
export function wasmSourceFiles(wasmDir, dir = wasmDir, acc = []) {
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    const rel = relative(wasmDir, p);
    if (ent.isDirectory()) {
      // check/ holds developer scripts that never reach a module.
      if (rel === "target" || rel === "dist" || rel === "check" || ent.name === "node_modules") continue;
      wasmSourceFiles(wasmDir, p, acc);
    } else if (ent.isFile() && rel !== "Cargo.lock" && !ent.name.endsWith(".md")) {
      acc.push(p);
    }
  }
  return acc.sort();
}

/** sha256 of `extra`, then each source file's path and bytes. */
export function wasmSourceHash(wasmDir, extra) {
  const h = createHash("sha256");
  h.update(extra);
  for (const f of wasmSourceFiles(wasmDir)) {
    h.update(relative(wasmDir, f));
    h.update("\0");
    h.update(readFileSync(f));
    h.update("\0");
  }
  return h.digest("hex");
}
