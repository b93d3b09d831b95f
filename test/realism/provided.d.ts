// What test/realism/debian.global.mjs hands to test/realism/realism.test.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    realism: Record<string, Array<{ run: string; cmp: "all" | "out" | "line1"; stdout: string; stderr: string; exit: number }>>;
  }
}
