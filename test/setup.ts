// The vitest plugin cannot resolve a .wasm import first reached through the main Worker
// (SELF/exports.default); loading the program registry from the test graph first caches it.
import "../src/wasi/programs";
