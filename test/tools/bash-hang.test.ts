import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { FileRules } from "../../src/policy/files";
import { HANG_GRACE_MS, runInSession } from "../../src/tools/shell/run";
import type { ProgramRunner } from "../../src/tools/shell/session-host";
import type { ToolContext } from "../../src/tools/types";
import { GuardedFs } from "../../src/policy/guarded-fs";
import { Workspace } from "../../src/vfs/workspace";

// A run that waits forever on something that never settles (here: a program whose promise
// never resolves) still answers, shortly after timeout_seconds, instead of hanging the call.
it("abandons a run stuck on an await that never settles", async () => {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  await runInDurableObject(stub, async (_o, state) => {
    Workspace.initialize(state.storage);
    const fs = new GuardedFs(new Workspace(state.storage, { maxBytes: 1 << 20, maxFiles: 100 }), new FileRules());
    const ctx: ToolContext = { sessionId: "hang", fs, cwd: "/workspace", env: {}, setStatus: () => {} };
    const programs = (): ProgramRunner => (argv) => (argv[0] === "wait-forever" ? new Promise<number>(() => {}) : undefined);
    const started = Date.now();
    const r = await runInSession(
      ctx,
      programs,
      { script: "echo before > out.txt; echo x >> log.txt; wait-forever; echo after", timeoutSeconds: 1 },
      (n) => n === "wait-forever",
    );
    const took = Date.now() - started;
    expect(r.exit_code).toBe(124);
    expect(r.limit).toBe("timeout");
    expect(r.success).toBe(false);
    expect(String(r.stderr)).toContain("abandoned");
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(1000 + HANG_GRACE_MS + 3000);
    // What finished before the stuck command was committed (a program run flushes redirects).
    expect(fs.stat("/workspace/out.txt")).toBeTruthy();
  });
});
