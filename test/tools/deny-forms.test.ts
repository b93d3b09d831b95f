import { describe, expect, it } from "vitest";
import { dangerousShellForms, harmlessShellForms } from "../policy/commands.shell-forms";
import { newSession, tool } from "../helpers";

// Every form goes through the real bash tool: parsed, expanded, and checked on what would run.
describe("deny rules through the shell", () => {
  it(`refuses all ${dangerousShellForms.length} dangerous forms with the right rule`, async () => {
    const id = await newSession();
    const wrong: string[] = [];
    const otherRule: string[] = [];
    for (const { src, rule } of dangerousShellForms) {
      const r = await tool(id, "bash", { command: src, timeout_seconds: 5 });
      if (!r.denied || r.success) wrong.push(`${JSON.stringify(src)} → not denied (want ${rule})`);
      // An earlier door may refuse first, e.g. the path rule for `> /dev/sda`: still refused.
      else if (r.denied.rule !== rule) otherRule.push(`${JSON.stringify(src)} → ${r.denied.rule} (table: ${rule})`);
    }
    console.log(`deny forms: ${dangerousShellForms.length - wrong.length}/${dangerousShellForms.length} refused, ${otherRule.length} by another rule than the table's:\n  ${otherRule.join("\n  ")}`);
    expect(wrong).toEqual([]);
  });

  it(`lets all ${harmlessShellForms.length} harmless mentions through`, async () => {
    const id = await newSession();
    const wrong: string[] = [];
    for (const src of harmlessShellForms) {
      const r = await tool(id, "bash", { command: src, timeout_seconds: 5 });
      if (r.denied) wrong.push(`${JSON.stringify(src)} → denied ${r.denied.rule}`);
    }
    expect(wrong).toEqual([]);
  });
});
