import { beforeAll, describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";
import { COMMON_FILES } from "./cases.mjs";
import { commandOf, normalize } from "./reference.global.mjs";

/**
 * Scripts of the kinds agents write (test/python/cases.mjs), run by the session's python3 and
 * sqlite3 and compared with Debian's python3.11 and sqlite3 run as `nobody` on the same files
 * (test/python/reference.global.mjs): stdout, stderr and exit code are equal.
 */
const ref = inject("pythonReference");

/**
 * Cases that still differ from Debian's (seen in the last full run, not yet understood or fixed):
 * run with it.fails so that a fix shows up as a failure to remove them from this list.
 */
const KNOWN_DIFFERENT = new Set([
  "file not found traceback",
  "file not found handled",
  "os.makedirs exists error",
  "is a directory error",
  "missing script",
  "pipe to head",
  "asyncio gather",
  "deep recursion traceback",
  "memory error handled",
  // sqlite3: the database operand is made absolute (src/wasi/python/argv.ts), so its error names the full path.
  "missing db dir",
]);

async function prepare(id: string, c: (typeof ref.py)[number]): Promise<void> {
  const r = await tool(id, "bash", { command: `cp -r /workspace/.common ${c.dir}` });
  expect(r.exit_code, r.stderr).toBe(0);
  for (const [path, content] of Object.entries(c.files)) {
    if (COMMON_FILES[path] === content) continue;
    await tool(id, "write_file", { path: `${c.dir}/${path}`, content });
  }
  if (c.stdin !== undefined) await tool(id, "write_file", { path: `stdin-${c.dir}.txt`, content: c.stdin });
}

async function commonTree(id: string): Promise<void> {
  for (const [path, content] of Object.entries(COMMON_FILES)) await tool(id, "write_file", { path: `.common/${path}`, content });
}

for (const [family, cases] of [
  ["python3", ref.py],
  ["sqlite3", ref.sqlite],
] as const) {
  describe(`${family} equals Debian's (${cases.length} cases)`, () => {
    let id: string;
    beforeAll(async () => {
      id = await newSession();
      await commonTree(id);
    }, 120_000);
    const table = cases.map((c) => [c.name, c] as const);
    const check = async (_name: string, c: (typeof cases)[number]) => {
      await prepare(id, c);
      const r = await tool(id, "bash", { command: commandOf(c), working_dir: c.dir, timeout_seconds: 60 });
      expect({ stdout: normalize(r.stdout), stderr: normalize(r.stderr), exit: r.exit_code }).toEqual({ stdout: c.stdout, stderr: c.stderr, exit: c.exit });
    };
    const same = table.filter(([n]) => !KNOWN_DIFFERENT.has(n));
    const differ = table.filter(([n]) => KNOWN_DIFFERENT.has(n));
    it.each(same)("%s", check);
    for (const [n, c] of differ) it.fails(`${n} (known to differ)`, () => check(n, c));
  });
}
