import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import syncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { NODE_INITIAL_MEMORY_BYTES, NODE_MEMORY_BYTES } from "./limits";
import { Waits, type WaitSlot, canSuspend, suspendHostCalls } from "./suspend";
// Imported as a module, so wrangler bundles it compiled (CompiledWasm): nothing is compiled from
// bytes at request time, which workerd refuses. The package's `./wasm` export has no esbuild
// loader, hence the file path.
import syncWasm from "../../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm";

export interface Engine {
  mod: QuickJSWASMModule;
  /** The suspending entry points (JSPI), or null where the platform lacks JSPI. */
  waits: Waits | null;
}

/**
 * The sync build of QuickJS (503 KB), and with JSPI a way for a host call to wait
 * (child_process.execSync; src/tools/node/suspend.ts). The asyncify build, which could wait too,
 * was measured slower and is not bundled (docs/node.md). Each run gets its own instance of the
 * (already compiled) module and drops it whole at the end: its memory goes back to the isolate at
 * once, and nothing a stopped script left behind (a run killed by a limit leaves live objects,
 * which QuickJS's runtime teardown asserts against) can reach the next run.
 */
export async function newEngine(): Promise<Engine> {
  const wasmMemory = memory();
  if (!canSuspend()) return { mod: await newQuickJSWASMModuleFromVariant(newVariant(syncVariant, { wasmModule: syncWasm, wasmMemory })), waits: null };
  const slot: WaitSlot = { pending: null, prepare: null };
  const mod = await newQuickJSWASMModuleFromVariant(
    newVariant(syncVariant, {
      wasmMemory,
      emscriptenModule: {
        // Instantiates the bundled module itself, to wrap the host-call import for JSPI.
        async instantiateWasm(imports, onSuccess) {
          suspendHostCalls(imports, slot, wasmMemory);
          const instance = await WebAssembly.instantiate(syncWasm, imports);
          onSuccess(instance);
          return instance.exports;
        },
      },
    }),
  );
  return { mod, waits: new Waits((mod as unknown as { module: unknown }).module, wasmMemory, slot) };
}

/**
 * The instance's whole memory, with a maximum: QuickJS's own setMemoryLimit cannot be trusted
 * here (built with emscripten, QuickJS counts 0 bytes for every allocation's size, only a fixed
 * overhead), so the cap is the Wasm memory itself. Past it malloc fails and QuickJS throws its
 * "out of memory" error inside the script.
 */
function memory(): WebAssembly.Memory {
  const page = 64 * 1024;
  return new WebAssembly.Memory({ initial: NODE_INITIAL_MEMORY_BYTES / page, maximum: NODE_MEMORY_BYTES / page });
}
