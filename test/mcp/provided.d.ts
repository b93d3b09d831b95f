// What test/mcp/remote-servers.global.mjs hands to the tests and vitest.config.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** The real MCP servers' origin (paths /calc, /notes, /not-mcp, /to-metadata, /requests) and their credentials. */
    mcpRemote: { origin: string; calcToken: string; notesKey: string };
  }
}
