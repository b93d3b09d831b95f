// The option sweep (issue 12 item 5): every case of test/tools/options/cases.mjs runs through the
// bash tool over the same fixture tree the real tools saw in test/tools/options/gnu.global.mjs;
// stdout and exit status must be GNU's (owners masked as USER). Per command it prints the options
// --help lists, those a case covers, the cases equal to GNU and the options refused on purpose;
// FLOORS keeps each count from going down. A refused option must fail with exit 1 or 2 and a
// message naming it, and be listed in the README's toolbox gaps.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";
import { FLOORS } from "./options/floors";

const sweep = inject("optionSweep");
// The real tools run in the C locale and UTC (gnu.global.mjs); shell state does not carry over
// between bash calls, so each call is given them.
const ENV = { LC_ALL: "C", TZ: "UTC" };
const REFUSAL = /not supported|unrecognized option|invalid option|unknown option|not available/i;

interface Tally {
  cases: number;
  equal: number;
  refused: number;
  covered: Set<string>;
  wrong: string[];
}
const tallies = new Map<string, Tally>();
let session = "";

beforeAll(async () => {
  session = await newSession();
  const made = await tool(session, "bash", { command: `(\n${sweep.fixture}\n)`, env: ENV });
  expect(made.stderr).toBe("");
}, 60_000);

const byCommand: Record<string, typeof sweep.cases> = {};
for (const c of sweep.cases) (byCommand[c.cmd] ??= []).push(c);

describe("options against the real tools", () => {
  for (const [cmd, cases] of Object.entries(byCommand)) {
    it(cmd, async () => {
      // Without the real program the recorded "GNU" output is bash's "command not found".
      if (sweep.missing[cmd]) expect.fail(`${cmd}: ${sweep.missing[cmd]}`);
      const t: Tally = { cases: 0, equal: 0, refused: 0, covered: new Set(), wrong: [] };
      tallies.set(cmd, t);
      for (const c of cases) {
        t.cases++;
        const r = await tool(session, "bash", { command: c.run, env: ENV });
        const stdout = String(r.stdout).replace(/\bagent\b/g, "USER");
        if (c.refused) {
          const stderr = String(r.stderr);
          // GNU names a short option as `-- 'x'`; a long one as itself.
          const named = (stderr.includes(c.refused) || stderr.includes(`-- '${c.refused.slice(1)}'`)) && REFUSAL.test(stderr);
          if (named && (r.exit_code === 1 || r.exit_code === 2)) t.refused++, c.opts.forEach((o) => t.covered.add(o));
          else t.wrong.push(`${c.run}\n    refused ${c.refused}: exit ${r.exit_code} ${JSON.stringify(r.stderr)}`);
        } else if (stdout === c.stdout && r.exit_code === c.exit) {
          t.equal++;
          c.opts.forEach((o) => t.covered.add(o));
        } else {
          t.wrong.push(
            `${c.run}\n    want(${c.exit}) ${JSON.stringify(c.stdout)}\n    got (${r.exit_code}) ${JSON.stringify(stdout)} ${JSON.stringify(String(r.stderr).slice(0, 200))}`,
          );
        }
      }
      if (t.wrong.length) console.log(`${cmd}: ${t.wrong.length} differ from GNU\n  ${t.wrong.join("\n  ")}`);
      const floor = FLOORS[cmd] ?? { equal: 0, refused: 0 };
      expect(t.equal, `${cmd}: cases equal to GNU`).toBeGreaterThanOrEqual(floor.equal);
      expect(t.refused, `${cmd}: options refused with a clear message`).toBeGreaterThanOrEqual(floor.refused);
    }, 300_000);
  }

  it("reports listed / covered / equal / refused per command", () => {
    const rows = ["command      listed covered  cases  equal refused"];
    const uncovered: string[] = [];
    const sum = { listed: 0, covered: 0, cases: 0, equal: 0, refused: 0 };
    // Every command with a listing, and those with cases whose counterpart prints no --help (xxd).
    for (const cmd of new Set([...Object.keys(sweep.commands), ...tallies.keys()])) {
      const listed = sweep.commands[cmd]?.listed ?? [];
      const t = tallies.get(cmd);
      // Covered: documented options some passing case uses (equal to GNU or refused clearly).
      const missing = listed.filter((o) => !t?.covered.has(o));
      const covered = listed.length - missing.length;
      if (missing.length) uncovered.push(`${cmd}: ${missing.join(" ")}`);
      const row = { listed: listed.length, covered, cases: t?.cases ?? 0, equal: t?.equal ?? 0, refused: t?.refused ?? 0 };
      for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += row[k];
      rows.push(`${cmd.padEnd(12)} ${[row.listed, row.covered, row.cases, row.equal, row.refused].map((n) => String(n).padStart(6)).join(" ")}`);
    }
    rows.push(`${"TOTAL".padEnd(12)} ${[sum.listed, sum.covered, sum.cases, sum.equal, sum.refused].map((n) => String(n).padStart(6)).join(" ")}`);
    console.log(`OPTION SWEEP\n${rows.join("\n")}\nlisted options no passing case covers:\n${uncovered.join("\n")}`);
    expect(sum.equal).toBeGreaterThanOrEqual(Object.values(FLOORS).reduce((n, f) => n + f.equal, 0));
  });
});
