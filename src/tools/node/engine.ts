import {
  newQuickJSAsyncWASMModuleFromVariant,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSAsyncWASMModule,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import asyncVariant from "@jitl/quickjs-wasmfile-release-asyncify";
import syncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { NODE_INITIAL_MEMORY_BYTES, NODE_MEMORY_BYTES } from "./limits";
// Imported as modules, so wrangler bundles them compiled (CompiledWasm): nothing is compiled from
// bytes at request time, which workerd refuses. The packages' `./wasm` export has no esbuild
// loader, hence the file paths.
import asyncWasm from "../../../node_modules/@jitl/quickjs-wasmfile-release-asyncify/dist/emscripten-module.wasm";
import syncWasm from "../../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm";

/**
 * Two builds of QuickJS (docs/node.md has the measurements):
 *  - sync (503 KB): about 7x faster on CPU-bound scripts and deep recursion works; host calls must
 *    return at once, which every fs call does (the workspace is synchronous SQLite);
 *  - asyncify (1 MB): a host call may wait (child_process.execSync runs the session's shell,
 *    which is asynchronous). Used only for scripts that name a *Sync child_process call.
 * Each run gets its own instance of the (already compiled) module and drops it whole at the end:
 * its memory goes back to the isolate at once, and nothing a stopped script left behind (a run
 * killed by a limit leaves live objects, which QuickJS's runtime teardown asserts against) can
 * reach the next run.
 */
export function syncEngine(): Promise<QuickJSWASMModule> {
  return newQuickJSWASMModuleFromVariant(newVariant(syncVariant, { wasmModule: syncWasm, wasmMemory: memory() }));
}

export function asyncEngine(): Promise<QuickJSAsyncWASMModule> {
  return newQuickJSAsyncWASMModuleFromVariant(newVariant(asyncVariant, { wasmModule: asyncWasm, wasmMemory: memory() }));
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
