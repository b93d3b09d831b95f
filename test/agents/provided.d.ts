// What test/agents/scripted-model.global.mjs hands to the tests and vitest.config.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** Origin of the scripted chat-completions server. */
    scriptedModel: string;
  }
}
