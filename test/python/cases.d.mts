// Types for cases.mjs (read by table.test.ts, which tsc checks).
export interface PyCase {
  name: string;
  [k: string]: unknown;
}
export declare const COMMON_FILES: Record<string, string>;
export declare const PY_CASES: PyCase[];
export declare const SQLITE_CASES: PyCase[];
