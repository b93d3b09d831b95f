// Types for reference.global.mjs (read by table.test.ts, which tsc checks).
export declare function normalize(text: string): string;
export declare function commandOf(c: unknown): string;
export default function setup(project: unknown): Promise<void>;
