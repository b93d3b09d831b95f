import { expect, it } from "vitest";
import { newSession, tool } from "../helpers";

// Timestamps set by programs (WASI set_times on the workspace) through the bash tool.
const CASES: [string, string][] = [
  ["touch -d '2020-01-02 03:04:05' a.txt && stat -c '%Y' a.txt", "1577934245\n"],
  ["touch -t 202001020304.05 b.txt && stat -c '%Y' b.txt", "1577934245\n"],
  ["touch -d @1000 b.txt && touch -r b.txt c.txt && stat -c '%Y' c.txt", "1000\n"],
  ["touch -d @1000 b.txt && cp -p b.txt d.txt && stat -c '%Y' d.txt && cat d.txt", "1000\nbee\n"],
  ["touch -d @1000 b.txt && cp -a b.txt e.txt && stat -c '%Y' e.txt", "1000\n"],
  ["touch -d @1000 a.txt; touch -d @2000 b.txt; test b.txt -nt a.txt && echo newer", "newer\n"],
  ["touch -d @1000 a.txt; touch -d @2000 b.txt; find . -newer a.txt -name '*.txt'", "./b.txt\n"],
];

it.each(CASES)("%s", async (command, stdout) => {
  const id = await newSession();
  await tool(id, "write_file", { path: "a.txt", content: "a" });
  await tool(id, "write_file", { path: "b.txt", content: "bee\n" });
  const r = await tool(id, "bash", { command });
  expect(r.stdout, r.stderr).toBe(stdout);
  expect(r.exit_code).toBe(0);
});
