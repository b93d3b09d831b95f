// What test/python/reference.global.mjs hands to test/python/table.test.ts.
export {};
interface ReferenceCase {
  name: string;
  /** The case's directory under /workspace (the reference's temp dir is written as this). */
  dir: string;
  files: Record<string, string>;
  run: string;
  stdin?: string;
  stdout: string;
  stderr: string;
  exit: number;
}
declare module "vitest" {
  interface ProvidedContext {
    pythonReference: { py: ReferenceCase[]; sqlite: ReferenceCase[] };
  }
}
declare module "vitest" {
  interface ProvidedContext {
    /** test/python/regrtest.global.mjs: Lib/test files (a base64 .tar.gz) and Debian's outcome of every test of every run. */
    pythonRegrtest: {
      skip?: string;
      all?: boolean;
      tgz: string;
      runs: Array<{ name: string; args: string[]; sessionFiles?: Record<string, string>; native: Record<string, [string, string, number]> }>;
    };
  }
}
