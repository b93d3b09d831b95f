// What test/tools/options/gnu.global.mjs hands to test/tools/options-sweep.test.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    optionSweep: {
      /** The bash script that builds the fixture tree. */
      fixture: string;
      /** Per toolbox command with a counterpart here: the options its --help lists. */
      commands: Record<string, { listed: string[] }>;
      /** Each case and what the real tool printed (refused cases have no output). */
      cases: Array<{ cmd: string; run: string; opts: string[]; refused?: string; stdout?: string; exit?: number }>;
      /** Commands whose real counterpart is not installed: the message naming its Debian package. */
      missing: Record<string, string>;
    };
  }
}
