// What test/net/global-setup.mjs provides to the tests through `inject`.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** Ports of the network test servers (test/net/servers.mjs). */
    netPorts: { site: number; canary: number; doh: number };
  }
}
