import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

describe("bash tool", () => {
  it("runs like sh -c: files persist between calls, shell state does not", async () => {
    const id = await newSession();
    let r = await tool(id, "bash", { command: "x=1; echo hello > a.txt; mkdir -p d && cd d && pwd; echo $x" });
    expect(r).toMatchObject({ success: true, exit_code: 0, stdout: "/workspace/d\n1\n", stderr: "" });
    expect(r.summary).toContain("Succeeded");
    expect(typeof r.duration_ms).toBe("number");
    r = await tool(id, "bash", { command: 'pwd; echo "x=${x:-unset}"; cat a.txt' });
    expect(r.stdout).toBe("/workspace\nx=unset\nhello\n");
    expect((await tool(id, "read_file", { path: "a.txt" })).output).toBe("     1\thello");
  });

  it("runs WASI commands in pipelines over the workspace", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "n.txt", content: "3\n1\n2\n" });
    const r = await tool(id, "bash", { command: "sort -n n.txt | head -n 2 | wc -l; cat n.txt | grep -c ." });
    expect(r.stdout).toBe("2\n3\n");
    const missing = await tool(id, "bash", { command: "no-such-cmd --x" });
    expect(missing.exit_code).toBe(127);
    expect(missing.stderr).toContain("command not found");
  });

  it("honours working_dir and env, and refuses blocked variables", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "sub/f", content: "" });
    const r = await tool(id, "bash", { command: 'pwd; echo "$GREETING"', working_dir: "sub", env: { GREETING: "hi" } });
    expect(r.stdout).toBe("/workspace/sub\nhi\n");
    const blocked = await tool(id, "bash", { command: "true", env: { LD_PRELOAD: "/x.so" } });
    expect(blocked.success).toBe(false);
    expect(blocked.denied?.rule).toBeTruthy();
    const outside = await tool(id, "bash", { command: "pwd", working_dir: "../.." });
    expect(outside.denied?.rule).toBe("path-traversal");
  });

  it("refuses dangerous commands with denied, and leaves mentions alone", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "keep.txt", content: "k" });
    const r = await tool(id, "bash", { command: "rm -rf /" });
    expect(r.success).toBe(false);
    expect(r.exit_code).not.toBe(0);
    expect(r.denied?.rule).toBe("rm-root");
    expect(r.stderr).toContain("rm-root");
    const ok = await tool(id, "bash", { command: 'echo "rm -rf /"' });
    expect(ok).toMatchObject({ success: true, stdout: "rm -rf /\n" });
    expect(ok.denied).toBeUndefined();
    const env = await tool(id, "bash", { command: "cat .env" });
    expect(env.denied).toBeTruthy();
    expect((await tool(id, "read_file", { path: "keep.txt" })).success).toBe(true);
  });

  it("stops a CPU-bound loop at timeout_seconds and the session goes on", async () => {
    const id = await newSession();
    const r = await tool(id, "bash", { command: "while true; do :; done", timeout_seconds: 1 });
    expect(r.exit_code).toBe(124);
    expect(r.success).toBe(false);
    const next = await tool(id, "bash", { command: "echo still here" });
    expect(next.stdout).toBe("still here\n");
  });

  it("validates its arguments", async () => {
    const id = await newSession();
    const { api } = await import("../helpers");
    const r = await api("POST", `/v1/sessions/${id}/tools/bash`, { body: { command: "true", timeout_seconds: 301 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("timeout_seconds");
  });
});

describe("exec tool", () => {
  it("passes argv exactly, without shell parsing", async () => {
    const id = await newSession();
    const r = await tool(id, "exec", { program: "echo", args: ["$HOME", "a  b", "'q'", "`x`"] });
    expect(r.stdout).toBe("$HOME a  b 'q' `x`\n");
    const e = await tool(id, "exec", { program: "bash", args: ["-c", 'echo "$FOO"'], env: [{ key: "FOO", value: "bar" }] });
    expect(e.stdout).toBe("bar\n");
    const blocked = await tool(id, "exec", { program: "true", env: [{ key: "BASH_ENV", value: "x" }] });
    expect(blocked.denied).toBeTruthy();
  });
});
