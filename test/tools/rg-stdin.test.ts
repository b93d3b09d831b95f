// rg without a path follows ripgrep's rule: it searches stdin when stdin is a pipe or a
// file, and the working directory when there is no stdin (or /dev/null).
import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

// [command, stdout, exit code]
const CASES: [string, string, number][] = [
  ["printf 'a\\nb\\n' | rg b", "b\n", 0],
  ["printf 'a\\nb\\n' | rg -c .", "2\n", 0],
  ["printf 'a\\n' | rg zzz", "", 1],
  ["rg -n beta < notes.txt", "2:beta\n", 0],
  ["rg beta <<< 'alpha beta'", "alpha beta\n", 0],
  ["rg beta", "notes.txt:beta\n", 0],
  ["rg beta < /dev/null", "notes.txt:beta\n", 0],
  ["echo x | rg --files", "notes.txt\n", 0],
  ['printf \'q\\nbeta\\n\' | while read l; do echo "$l" | rg -q beta && echo "hit $l"; done', "hit beta\n", 0],
];

describe("rg reads stdin when no path is given", () => {
  it.each(CASES)("%s", async (command, stdout, code) => {
    const id = await newSession();
    await tool(id, "write_file", { path: "notes.txt", content: "alpha\nbeta\n" });
    const r = await tool(id, "bash", { command });
    expect(r.stdout).toBe(stdout);
    expect(r.exit_code).toBe(code);
  });
});
