import { afterEach, describe, expect, it, vi } from "vitest";
import { newSession, tool } from "../helpers";

// On deployed Workers the clock does not move while code computes. Freezing Date.now here
// (the Worker runs in the test's isolate) proves the limits count work, not time.
describe("timeouts with a frozen clock", () => {
  afterEach(() => vi.restoreAllMocks());

  it("stops an interpreter busy loop by its step budget", async () => {
    const id = await newSession();
    const frozen = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(frozen);
    const t0 = performance.now();
    const r = await tool(id, "bash", { command: "while true; do :; done", timeout_seconds: 2 });
    const wall = performance.now() - t0;
    expect(r.exit_code).toBe(124);
    expect(r.stderr).toMatch(/step budget/);
    console.log(`interpreter busy loop, frozen clock, timeout 2 s: stopped after ${wall.toFixed(0)} ms of wall time`);
    vi.restoreAllMocks();
    expect((await tool(id, "bash", { command: "echo ok" })).stdout).toBe("ok\n");
  });

  it("stops a busy loop inside a WASI program by fuel", async () => {
    const id = await newSession();
    vi.spyOn(Date, "now").mockReturnValue(Date.now());
    const t0 = performance.now();
    const r = await tool(id, "bash", { command: "awk 'BEGIN { while (1) { } }'", timeout_seconds: 2 });
    const wall = performance.now() - t0;
    expect(r.success).toBe(false);
    expect(r.exit_code).not.toBe(0);
    expect(r.stderr).toMatch(/limit|fuel|step/i);
    console.log(`awk busy loop, frozen clock, timeout 2 s: exit ${r.exit_code} after ${wall.toFixed(0)} ms: ${r.stderr.trim()}`);
    vi.restoreAllMocks();
    expect((await tool(id, "bash", { command: "echo ok | awk '{ print $1 }'" })).stdout).toBe("ok\n");
  });
});
