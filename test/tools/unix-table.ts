import { expect } from "vitest";
import { tool } from "../helpers";

/** One bash tool call and what bash on Debian gives for it. */
export interface Row {
  cmd: string;
  stdout?: string;
  exit?: number;
  stderr?: RegExp;
  denied?: string;
}

/** Runs every row in session `id` and fails once, listing each row that differed. */
export async function expectRows(id: string, rows: Row[]): Promise<void> {
  const wrong: object[] = [];
  for (const row of rows) {
    const r = await tool(id, "bash", { command: row.cmd });
    const seen = { cmd: row.cmd, stdout: r.stdout, exit: r.exit_code, stderr: r.stderr, denied: r.denied?.rule };
    const ok =
      seen.exit === (row.exit ?? 0) &&
      (row.stdout === undefined || seen.stdout === row.stdout) &&
      (!row.stderr || row.stderr.test(seen.stderr)) &&
      seen.denied === row.denied;
    if (!ok) wrong.push(seen);
  }
  expect(wrong).toEqual([]);
}
