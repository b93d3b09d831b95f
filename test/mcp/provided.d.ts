// What test/mcp/remote-servers.global.mjs hands to the tests and vitest.config.ts.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /**
     * The real MCP servers' origin (paths /calc, /notes, /not-mcp, /to-metadata, /moved, /requests), the
     * same servers on a second port (another origin, where /moved leads), and their credentials.
     */
    mcpRemote: { origin: string; otherOrigin: string; calcToken: string; notesKey: string };
  }
}
