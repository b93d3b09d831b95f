// wrangler and the vitest plugin bundle `.wasm` imports as CompiledWasm: the default export is an
// already-compiled module, so nothing is compiled at request time (workerd refuses that).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
