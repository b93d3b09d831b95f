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
