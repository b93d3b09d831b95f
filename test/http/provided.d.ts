// What test/http/openapi-validator.global.mjs hands to the tests.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** POST an OpenAPI document here; the answer is {valid, version, errors}. */
    openapiValidator: string;
  }
}
