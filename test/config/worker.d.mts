// Types for test/config/worker.mjs (read by the vitest configs, which tsc checks).
export interface TestServers {
  ports: { site: number; doh: number };
  search: string;
  imap: { port: number; user: string; password: string };
  model: string;
  mcp: { origin: string; otherOrigin: string; calcToken: string; notesKey: string };
  git: { origin: string };
}
/** The plugin's worker options (its type is not exported by name). */
export declare function workerOptions(servers: TestServers): any;
