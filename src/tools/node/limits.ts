/**
 * The limits of `node` (QuickJS in the Worker), in one place until src/limits.ts takes them.
 * Each holds on deployed Workers: work is counted, never read from a clock that stands still.
 */

/**
 * QuickJS calls its interrupt handler about every 10,000 bytecode steps (function calls and
 * loop back-edges). A run may make this many calls per second of the call's timeout: measured at
 * about 2,000-2,500 a second of CPU here, so a runaway loop ends near its timeout.
 */
export const NODE_INTERRUPTS_PER_SECOND = 2_500;
/**
 * The Wasm memory of one run (QuickJS's heap and stack): an allocation past it is an
 * out-of-memory error inside the script. The isolate's 128 MB also hold the Worker itself.
 */
export const NODE_MEMORY_BYTES = 48 * 1024 * 1024;
/** What a run starts with (the emscripten build's own default); it grows up to NODE_MEMORY_BYTES. */
export const NODE_INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;
/**
 * QuickJS's own stack: past it deep recursion is QuickJS's catchable InternalError. JSPI's stacks
 * are smaller than workerd's main one, so the host's stack often runs out first: run.ts ends the
 * script then with Node's uncaught RangeError (docs/node.md).
 */
export const NODE_STACK_BYTES = 512 * 1024;
/** Bytes of stdin a script may read (it is read whole, as for WASI programs). */
export const NODE_MAX_STDIN_BYTES = 64 * 1024 * 1024;
/** Body bytes fetch() and http.get() may read. */
export const NODE_MAX_FETCH_BYTES = 16 * 1024 * 1024;
/** Commands one run may start through child_process (each is a whole shell run). */
export const NODE_MAX_CHILD_RUNS = 200;
