// Types for test/outside-data.mjs (read by the vitest configs, which tsc checks).
export declare const OUTSIDE_DATA: Array<{ suite: string; needs: string; dir: string; ext: string }>;
export declare function skippedSuites(root: string): string[];
