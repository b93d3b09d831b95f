import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

// /dev inside programs run by the bash tool (src/wasi/fs/dev-fd.ts, src/tools/shell/programs.ts).
describe("bash tool: /dev for programs", () => {
  /** [command, stdout, exit] over a workspace holding hay.txt = "apple\npie\n". */
  const CASES: [string, string, number][] = [
    ["grep -f /dev/null hay.txt; echo rc=$?", "rc=1\n", 0],
    ["grep -c apple hay.txt /dev/null", "hay.txt:1\n/dev/null:0\n", 0],
    ["printf 'x\\n' | cat /dev/stdin", "x\n", 0],
    ["cat /dev/fd/3 3<hay.txt", "apple\npie\n", 0],
    ["exec 4<hay.txt; head -n1 /dev/fd/4", "apple\n", 0],
    ["wc -l < /dev/null", "0\n", 0],
    ["cp hay.txt /dev/null && ls", "hay.txt\n", 0],
  ];
  it.each(CASES)("%s", async (command, stdout, code) => {
    const id = await newSession();
    await tool(id, "write_file", { path: "hay.txt", content: "apple\npie\n" });
    const r = await tool(id, "bash", { command });
    expect(r.stdout, r.stderr).toBe(stdout);
    expect(r.exit_code).toBe(code);
  });
});
