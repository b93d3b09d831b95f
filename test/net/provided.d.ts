// Values test/net/search-server.global.mjs hands to the tests and to vitest.config.ts.
declare module "vitest" {
  interface ProvidedContext {
    searchServer: string;
  }
}
export {};
