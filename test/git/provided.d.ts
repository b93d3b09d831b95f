// What test/git's global setups hand to the tests and to vitest.config.ts through `inject`.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** The git table with Debian's git's stdout and status for every case (test/git/git.global.mjs). */
    gitCases: { name: string; script: string; stdout: string; stderr: string; status: number }[];
    /** The smart-HTTP git server of test/git/git-server.global.mjs. */
    gitServer: { origin: string; otherOrigin: string };
  }
}
