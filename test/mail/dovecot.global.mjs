// A real IMAP server for the email_search tests: Debian's Dovecot (scripts/setup-dovecot.mjs),
// on a free port of 127.0.0.1 with a private configuration and a seeded maildir in a temporary
// directory. The port and the account reach vitest.config.ts (the Worker's bindings) and the
// tests through `provide`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDovecot } from "../../scripts/setup-dovecot.mjs";
import { freePort } from "../net/servers.mjs";
import { MAILBOX, PASSWORD, USER } from "./mailbox.mjs";

/** @param {import("vitest/node").TestProject} project */
export default async function setup(project) {
  const dir = mkdtempSync(join(tmpdir(), "toolshed-dovecot-"));
  const port = await freePort();
  const server = await startDovecot({ dir, port, users: { [USER]: { password: PASSWORD, messages: MAILBOX } } });
  project.provide("imapServer", { port, user: USER, password: PASSWORD });
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
