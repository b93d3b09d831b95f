/// <reference types="vite/client" />
// Oils spec conformance through the bash tool's own runner (runInSession): the interpreter
// over a real session workspace in a Durable Object, every command a bundled WASI program.
// Only the spec's helper commands (argv.py, printenv.py, ...) are test-only programs.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { FileRules } from "../../src/policy/files";
import { isProgram, sessionPrograms } from "../../src/tools/shell/programs";
import { runInSession } from "../../src/tools/shell/run";
import type { ToolContext } from "../../src/tools/types";
import { GuardedFs } from "../../src/policy/guarded-fs";
import { Workspace } from "../../src/vfs/workspace";
import { judge, parseSpecFile, inScope, SPEC_HELPERS, type FileTally } from "./oils-lib";

const raw = import.meta.glob(["../../../shared/conformance/oils-spec/*.test.sh", "../../../../shared/conformance/oils-spec/*.test.sh"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

// Floor set from the measured count; raise it as the shell and commands improve.
const FLOOR_ALL = 2395;

async function runFile(file: string, text: string): Promise<FileTally> {
  const t: FileTally = { file, pass: 0, judged: 0, skipped: 0, inScope: inScope(file) };
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  await runInDurableObject(stub, async (_o, state) => {
    Workspace.initialize(state.storage);
    const fs = new GuardedFs(new Workspace(state.storage, { maxBytes: 1 << 30, maxFiles: 100_000 }), new FileRules());
    let n = 0;
    for (const c of parseSpecFile(text)) {
      if (c.skip) {
        t.skipped++;
        continue;
      }
      const dir = `/workspace/case${n++}`;
      fs.mkdir(`${dir}/_tmp`, { recursive: true });
      const ctx: ToolContext = { sessionId: "oils", fs, cwd: dir, env: {}, setStatus: () => {} };
      const programs = (c2: ToolContext) => {
        const wasi = sessionPrograms(c2);
        return (argv: string[], io: Parameters<ReturnType<typeof sessionPrograms>>[1]) => SPEC_HELPERS[argv[0]!]?.(argv, io) ?? wasi(argv, io);
      };
      let got: { stdout: string; stderr: string; status: number };
      try {
        const r = await runInSession(
          ctx,
          programs,
          {
            script: c.script,
            // Oils' expectations are a script's (bash reading it: set -u stops with status 1, not -c's 127).
            commandString: false,
            timeoutSeconds: 5,
            env: { HOME: dir, TMP: dir, TMPDIR: dir, SH: "bash", LC_ALL: "C.UTF-8" },
          },
          (name) => name in SPEC_HELPERS || isProgram(name),
        );
        got = { stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? ""), status: Number(r.exit_code ?? -1) };
      } catch (e) {
        got = { stdout: "", stderr: String(e), status: -1 };
      }
      t.judged++;
      if (judge(c.expect, got)) t.pass++;
    }
  });
  return t;
}

// Skipped in a clone without ../shared/conformance beside it (test/outside-data.mjs names it once).
it.skipIf(Object.keys(raw).length === 0)(
  "oils spec cases through the bash tool's runner and WASI programs",
  async () => {
    const tallies: FileTally[] = [];
    // By name: from a worktree both glob patterns can reach the same files (a `shared` link beside it).
    const files = new Map(Object.entries(raw).map(([p, text]) => [p.replace(/^.*\//, ""), text]));
    for (const [name, text] of [...files].sort()) tallies.push(await runFile(name, text));
    const all = [0, 0];
    const scope = [0, 0];
    for (const t of tallies) {
      all[0] += t.pass;
      all[1] += t.judged;
      if (t.inScope) {
        scope[0] += t.pass;
        scope[1] += t.judged;
      }
    }
    const lines = tallies.map((t) => `${t.inScope ? " " : "x"} ${t.file.padEnd(34)} ${t.pass}/${t.judged}${t.skipped ? ` (skipped ${t.skipped})` : ""}`);
    console.log(`${lines.join("\n")}\nOILS (session + WASI) TOTAL all files: ${all[0]}/${all[1]}   in scope: ${scope[0]}/${scope[1]}   (x = excluded file)`);
    expect(all[0]).toBeGreaterThanOrEqual(FLOOR_ALL);
  },
  900_000,
);
