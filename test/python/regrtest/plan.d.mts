// Types for plan.mjs (read by regrtest.test.ts, which tsc checks).
export declare const LIB_TEST_FILES: string[];
export declare const RUNS: Array<{ name: string; args: string[]; sessionFiles?: Record<string, string> }>;
export declare const SESSION_SKIPS: Record<string, string>;
export declare const CPYTHON_WASI_SKIPS: RegExp[];
export declare const SLOW: Record<string, number>;
