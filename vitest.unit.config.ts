import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { workerOptions } from "./test/config/worker.mjs";
import { skippedSuites } from "./test/outside-data.mjs";

// `npm run test:unit`: the inner loop. No globalSetup, so no servers (network site, search, Dovecot,
// model, MCP) and no reference tools: policy, vfs, the shell on the in-memory host, profiles and the
// WASI layer need none of them. The Worker gets the same bindings as in vitest.config.ts, with
// addresses where nothing listens. The tools, HTTP, session and conformance suites run the whole
// Worker with real programs (minutes, not seconds) and stay in the full `npm test`.
export const UNIT = ["test/policy", "test/vfs", "test/shell", "test/profiles", "test/wasi"];
// No setupFiles: test/setup.ts loads the program registry (the toolbox Wasm) in every file, which
// costs more than most of these files' tests (41 s of setup for 3 small files here, against 0);
// the one suite that reaches the Worker through `exports.default` imports it itself.
/** Files under UNIT that need a server (they call `inject`). */
export const NOT_UNIT = ["test/profiles/behaviour.test.ts", "test/policy/write-doors.test.ts"];

const nowhere = "http://127.0.0.1:9";
export default defineConfig(() => {
  for (const line of skippedSuites(dirname(fileURLToPath(import.meta.url)))) console.log(line);
  return {
    plugins: [
      cloudflareTest(
        workerOptions({
          ports: { site: 9, doh: 9 },
          search: nowhere,
          imap: { port: 9, user: "nobody", password: "unused" },
          model: nowhere,
          mcp: { origin: nowhere, otherOrigin: "http://127.0.0.2:9", calcToken: "unused", notesKey: "unused" },
          git: { origin: "http://127.0.0.3:9" },
        }),
      ),
    ],
    test: {
      include: UNIT.map((d) => `${d}/**/*.test.ts`),
      exclude: NOT_UNIT,
      testTimeout: 60_000,
      // No shared servers, so files may run side by side (vitest's default is one on 2 cores).
      maxWorkers: 2,
      // One module graph per worker, as in vitest.config.ts.
      isolate: false,
    },
  };
});
