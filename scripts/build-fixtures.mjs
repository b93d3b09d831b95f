// Builds the hand-written WASI test modules (test/wasi/fixtures/*.wat) into .wasm with wabt,
// when missing or older than their source. Outputs are not committed.
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import wabtInit from "wabt";
import { root } from "./lib/dev-server.mjs";

const dir = join(root, "test", "wasi", "fixtures");
const stale = readdirSync(dir)
  .filter((f) => f.endsWith(".wat"))
  .filter((f) => {
    const out = join(dir, f.replace(/\.wat$/, ".wasm"));
    return !existsSync(out) || statSync(out).mtimeMs < statSync(join(dir, f)).mtimeMs;
  });
if (stale.length) {
  const wabt = await wabtInit();
  for (const f of stale) {
    const mod = wabt.parseWat(f, readFileSync(join(dir, f), "utf8"), { mutable_globals: true });
    writeFileSync(join(dir, f.replace(/\.wat$/, ".wasm")), mod.toBinary({}).buffer);
    mod.destroy();
  }
  console.log(`[fixtures] built ${stale.length} test modules from .wat`);
}
