// What test/node/reference.global.mjs hands to test/node/node-table.test.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    nodeReference: {
      /** `node --version` of the reference. */
      version: string;
      /** Per case: what Debian's node printed and its exit status. */
      results: Record<string, { stdout: string; stderr: string; exit: number }>;
    };
  }
}
