// What the network tests' global setups (test/net/global-setup.mjs, test/net/search-server.global.mjs)
// hand to the tests and to vitest.config.ts through `inject`.
export {};
declare module "vitest" {
  interface ProvidedContext {
    /** Ports of the network test servers (test/net/servers.mjs). */
    netPorts: { site: number; canary: number; doh: number };
    /** Origin of the search engine stand-ins. */
    searchServer: string;
  }
}
declare module "vitest" {
  interface ProvidedContext {
    /** The Dovecot IMAP server of test/mail/dovecot.global.mjs and its one account. */
    imapServer: { port: number; user: string; password: string };
  }
}
