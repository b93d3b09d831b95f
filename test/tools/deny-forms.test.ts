import { describe, expect, it } from "vitest";
import { dangerousShellForms, harmlessShellForms } from "../policy/commands.shell-forms";
import { newSession, tool } from "../helpers";

// Every form goes through the real bash tool: parsed, expanded, and checked on what would run.
// `libertai` enforces every rule, environment dumps included; `toolshed` only the protective ones.
describe("deny rules through the shell", () => {
  it(`refuses all ${dangerousShellForms.length} dangerous forms with the right rule (libertai)`, async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    const wrong: string[] = [];
    const otherRule: string[] = [];
    for (const { src, rule } of dangerousShellForms) {
      const r = await tool(id, "bash", { command: src, timeout: 5 });
      if (!r.denied || r.success) wrong.push(`${JSON.stringify(src)} → not denied (want ${rule})`);
      // An earlier door may refuse first, e.g. the path rule for `> /dev/sda`: still refused.
      else if (r.denied.rule !== rule) otherRule.push(`${JSON.stringify(src)} → ${r.denied.rule} (table: ${rule})`);
    }
    console.log(
      `deny forms: ${dangerousShellForms.length - wrong.length}/${dangerousShellForms.length} refused, ${otherRule.length} by another rule than the table's:\n  ${otherRule.join("\n  ")}`,
    );
    expect(wrong).toEqual([]);
  });

  it("refuses the same forms in toolshed, except environment dumps, which run there, and dd without a disk", async () => {
    const id = await newSession();
    const wrong: string[] = [];
    for (const { src, rule } of dangerousShellForms) {
      // toolshed judges dd by effect (test/policy/rule-sets.test.ts): only a disk on either side is
      // refused there, and the other forms would really copy (`timeout 10 dd if=/dev/zero of=out.bin`).
      if (rule === "dd-if" && !/\/dev\/(sd|nvme)/.test(src)) continue;
      const r = await tool(id, "bash", { command: src, timeout_seconds: 5 });
      const denied = r.denied?.rule;
      if (rule === "env-dump" ? denied === "env-dump" : !denied) wrong.push(`${JSON.stringify(src)} → ${denied ?? "not denied"}`);
    }
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
