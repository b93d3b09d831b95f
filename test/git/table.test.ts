import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";
import { PRELUDE } from "./prelude.mjs";

const cases = inject("gitCases");

describe("git table: output equals Debian's git", () => {
  it.each(cases.map((c, i) => [i, c.name, c] as const))("%i %s", async (i, _name, c) => {
    const id = await newSession();
    const r = await tool(id, "bash", { command: `mkdir -p /workspace/c && cd /workspace/c\n${PRELUDE}\n${c.script}` });
    expect({ stdout: r.stdout, status: r.exit_code }, `${c.script}\n--- stderr here:\n${r.stderr}\n--- stderr in git:\n${c.stderr}`).toEqual({
      stdout: c.stdout,
      status: c.status,
    });
  });
});
