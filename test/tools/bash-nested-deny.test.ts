import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

// Commands that toolbox runs in-process (xargs, find -exec) pass the command rules too, through
// the toolshed.check_command host import (src/wasi/toolshed-imports.ts).
describe("command rules inside programs", () => {
  /** [command, rule] — each must be refused and leave the workspace as it was. */
  const REFUSED: [string, string][] = [
    ["echo /workspace | xargs rm -rf", "rm-root"],
    ["echo / | xargs rm -rf", "rm-root"],
    ["printf '%s\\n' /workspace | xargs -I{} rm -rf {}", "rm-root"],
    // The shell's own check cannot know that -name matches the start directory itself.
    ["find /workspace -maxdepth 0 -name workspace -exec rm -rf {} \\;", "rm-root"],
    ["find /workspace -maxdepth 0 -name workspace -exec rm -rf {} +", "rm-root"],
  ];

  it.each(REFUSED)("%s is refused (%s)", async (command, rule) => {
    const id = await newSession();
    await tool(id, "write_file", { path: "keep.txt", content: "k" });
    await tool(id, "write_file", { path: "sub/deep.txt", content: "d" });
    const r = await tool(id, "bash", { command });
    expect(r.success).toBe(false);
    expect(r.denied?.rule).toBe(rule);
    expect(r.stderr).toContain(`toolshed: denied (${rule})`);
    expect(r.exit_code).not.toBe(0);
    expect((await tool(id, "read_file", { path: "keep.txt" })).success).toBe(true);
    expect((await tool(id, "read_file", { path: "sub/deep.txt" })).success).toBe(true);
  });

  it("lets ordinary nested commands run", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "a.tmp", content: "a" });
    await tool(id, "write_file", { path: "b.tmp", content: "b" });
    await tool(id, "write_file", { path: "keep.txt", content: "k" });
    const r = await tool(id, "bash", { command: "ls *.tmp | xargs rm -f && find . -name '*.txt' -exec cat {} \\; && ls" });
    expect(r).toMatchObject({ success: true, exit_code: 0, stdout: "kkeep.txt\n" });
    expect(r.denied).toBeUndefined();
  });

  it("stops xargs at the first refused command line", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "x.txt", content: "x" });
    // -n1: the first line (x.txt) is allowed and runs, the second (/) is refused, nothing after.
    const r = await tool(id, "bash", { command: "printf 'x.txt\\n/\\ny.txt\\n' | xargs -n1 rm -rf; echo status=$?" });
    expect(r.stdout).toBe("status=126\n");
    expect(r.denied?.rule).toBe("rm-root");
    expect((await tool(id, "read_file", { path: "x.txt" })).success).toBe(false);
  });
});

describe("a script with one refused line", () => {
  it.each([
    ["mkdir -p data\necho ready > data/r\nrm -rf /\necho done", 3, "rm -rf /"],
    ["touch a\nx=$(ls; rm -rf ~)\necho $x", 2, "rm -rf ~"],
    ["for f in a b; do\n  echo $f\ndone\ncat <<EOF\n$(rm -rf /workspace)\nEOF", 4, "rm -rf /workspace"],
  ])("%j names line %i and runs none of it", async (command, line, words) => {
    const id = await newSession();
    const r = await tool(id, "bash", { command });
    expect(r.exit_code).toBe(126);
    expect(r.denied?.rule).toBe("rm-root");
    expect(r.stderr).toContain(`toolshed: line ${line} (\`${words}\`) was refused, so nothing in this script ran; change or remove that line and run again.`);
    expect((await tool(id, "bash", { command: "ls" })).stdout).toBe("");
  });

  it("a one-line command keeps the one-line message", async () => {
    const r = await tool(await newSession(), "bash", { command: "rm -rf /" });
    expect(r.stderr).not.toContain("was refused, so nothing");
  });
});
