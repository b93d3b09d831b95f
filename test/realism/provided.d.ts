// What test/realism/debian.global.mjs, corpus.global.mjs and diff.global.mjs hand to the realism tests.
export {};
declare module "vitest" {
  interface ProvidedContext {
    realism: Record<string, Array<{ run: string; cmp: "all" | "out" | "line1"; stdout: string; stderr: string; exit: number }>>;
    /** Debian's output of each script of diff-pairs.mjs. */
    realismDiff: string[];
    realismCorpus: { setup: string; calls: Array<{ family: string; run: string; stdout: string; stderr: string; exit: number }> };
  }
}
declare module "vitest" {
  interface ProvidedContext {
    /** test/realism/gzip.global.mjs: the inputs' setup and what Debian printed for each case. */
    gzipTable: { setup: string; cases: Array<{ run: string; stdout: string; stderr: string; exit: number }> };
  }
}
