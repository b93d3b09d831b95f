import { describe, expect, it } from "vitest";
import { checkCommand, COMMAND_RULES } from "../../src/policy/commands";
import { dangerousShellForms, harmlessShellForms } from "./commands.shell-forms";

// Rules that other doors apply: function definitions and the file policy on redirects.
const KNOWN = new Set([...COMMAND_RULES.map((r) => r.id), "fork-bomb", "sensitive-file"]);
// A source with none of these characters is one simple command: its argv is its words.
const plain = (src: string): boolean => !/[\\'"$`;|&(){}<>*?[\]~#\n]/.test(src);

describe("shell-form tables (data for the shell integrator)", () => {
  it("are large enough, unique and name known rules", () => {
    expect(dangerousShellForms.length).toBeGreaterThanOrEqual(150);
    expect(harmlessShellForms.length).toBeGreaterThanOrEqual(150);
    expect(new Set(dangerousShellForms.map((f) => f.src)).size).toBe(dangerousShellForms.length);
    expect(new Set(harmlessShellForms).size).toBe(harmlessShellForms.length);
    for (const f of dangerousShellForms) expect(KNOWN, f.src).toContain(f.rule);
  });

  // The plain entries need no shell to judge, so they check the tables against checkCommand now.
  const plainDangerous = dangerousShellForms.filter((f) => plain(f.src) && f.note === undefined);
  const plainHarmless = harmlessShellForms.filter(plain);
  it("have plain entries to cross-check", () => {
    expect(plainDangerous.length).toBeGreaterThan(40);
    expect(plainHarmless.length).toBeGreaterThan(40);
  });
  it.each(plainDangerous)("$src → $rule", ({ src, rule }) => expect(checkCommand(src.split(/ +/))?.rule).toBe(rule));
  it.each(plainHarmless)("%s", (src) => expect(checkCommand(src.split(/ +/))).toBeNull());
});
