// Types of diff-pairs.mjs for the test that imports it.
export declare const PAIRS: number;
export declare function diffCases(): Array<{ name: string; write: string[]; run: string }>;
export declare function diffScripts(): Array<{ names: string[]; runs: string[]; script: string }>;
export declare function splitOutput(out: string): string[];
