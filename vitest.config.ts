import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { workerOptions } from "./test/config/worker.mjs";
import { networkTestPorts } from "./test/net/ports.mjs";
import { skippedSuites } from "./test/outside-data.mjs";

// Every suite (the CI gate, through `npm test`). The inner loop without servers is vitest.unit.config.ts.
export default defineConfig(async () => {
  for (const line of skippedSuites(dirname(fileURLToPath(import.meta.url)))) console.log(line);
  // The network tests' servers (test/net/global-setup.mjs) listen on ports chosen here, so that
  // the Worker's bindings can name them: the site's origin is the one allowed origin, and
  // every host name is resolved by the local DNS-over-HTTPS server.
  const ports = await networkTestPorts();
  return {
    plugins: [
      cloudflareTest(({ inject }) =>
        workerOptions({
          ports,
          // Search engine stand-ins started by test/net/search-server.global.mjs.
          search: inject("searchServer"),
          // Dovecot started by test/mail/dovecot.global.mjs; plain IMAP is allowed on 127.0.0.1 only.
          imap: inject("imapServer"),
          // The SCRIPTED model (test/agents/scripted-model.global.mjs) sub-agents talk to.
          model: inject("scriptedModel"),
          // Real MCP servers (test/mcp/remote-servers.global.mjs) sessions attach as remote servers.
          mcp: inject("mcpRemote"),
          // The smart-HTTP git server (test/git/git-server.global.mjs); its second port stays outside the allowed origins.
          git: inject("gitServer"),
        }),
      ),
    ],
    test: {
      setupFiles: ["test/setup.ts"],
      globalSetup: [
        "test/net/global-setup.mjs",
        "test/net/search-server.global.mjs",
        "test/mail/dovecot.global.mjs",
        "test/agents/scripted-model.global.mjs",
        "test/mcp/remote-servers.global.mjs",
        "test/tools/options/gnu.global.mjs",
        "test/http/openapi-validator.global.mjs",
        "test/checkpoints/git.global.mjs",
        "test/git/git.global.mjs",
        "test/git/git-server.global.mjs",
        "test/python/reference.global.mjs",
        "test/python/regrtest.global.mjs",
        "test/node/reference.global.mjs",
        "test/realism/debian.global.mjs",
        "test/realism/corpus.global.mjs",
        "test/realism/gzip.global.mjs",
        "test/realism/diff.global.mjs",
      ],
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      // One module graph for every file a worker runs: per file, the setup file's program registry
      // (the toolbox, CPython, sqlite3 and QuickJS modules) was loaded again, which was half of the
      // run (setup 901 s of 2,315 s). Each test still gets its own Durable Object storage; files must
      // not rely on module state another file left (a mark per test, fresh sessions).
      isolate: false,
      testTimeout: 60_000,
      // Two files at once (vitest's default is availableParallelism() - 1: one on 2 cores): the
      // suites wait on servers and programs as much as they compute, and each counts only its own
      // requests to the shared servers (a mark per test). 478 s with one, 240 s with two, here.
      // TOOLSHED_TEST_WORKERS=N sets another number.
      maxWorkers: Number(process.env.TOOLSHED_TEST_WORKERS ?? 2),
    },
  };
});
