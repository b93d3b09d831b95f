// What test/checkpoints/git.global.mjs hands to test/checkpoints/diff.test.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** git's output for each case of diff-cases.mjs, in order. */
    gitDiffs: string[];
  }
}
