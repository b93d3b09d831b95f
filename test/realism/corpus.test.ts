// The realism corpus (issue 26 item 1): about two thousand calls an agent types (corpus/), each
// run in a fresh copy of the fixture project in a session and compared with what Debian's bash
// printed as `nobody` (corpus.global.mjs): stdout, stderr and the exit code must all be equal.
// Prints N/M, then the calls that differ by family; FLOORS keep each family's count of equal
// calls from going down (the measured counts: raise them as things improve).
import { afterAll, describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";

const { setup, calls } = inject("realismCorpus");

/** Calls equal to Debian, per family (measured: 2,228 of 2,251 with csplit, zgrep, positional tar --wildcards and absent paths; 2,201 of 2,251 with the second round of calls, corpus/tasks.mjs, and its fixes; 2,184 before them; 1,780 of 1,830 before the round). */
const FLOORS: Record<string, number> = {
  grep: 128,
  sed: 55,
  awk: 69,
  "sort-uniq": 38,
  "cut-tr-wc": 83,
  "find-xargs": 81,
  archives: 124,
  config: 102,
  changelog: 66,
  getopts: 121,
  "csv-json": 147,
  toc: 59,
  health: 63,
  trap: 61,
  build: 102,
  diff: 96,
  date: 90,
  "shell-basics": 163,
  files: 411,
  logs: 118,
  json: 51,
};

/** How many calls one session runs at once (each in its own directory). */
const POOL = 4;

type Call = (typeof calls)[number];
const families = new Map<string, Array<{ n: number; c: Call }>>();
calls.forEach((c, n) => {
  const list = families.get(c.family) ?? [];
  list.push({ n, c });
  families.set(c.family, list);
});

const totals = { equal: 0, all: 0 };
const clip = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…` : s);

describe("realism corpus against Debian 12", () => {
  for (const [family, list] of families) {
    it(family, async () => {
      const session = await newSession();
      const made = await tool(session, "bash", { command: `mkdir -p fx && cd fx && ${setup}`, timeout_seconds: 60 });
      expect(made.exit_code, `fixture: ${made.stderr}`).toBe(0);
      // Every call's own copy of the fixture, made up front in a few calls.
      for (let i = 0; i < list.length; i += 50) {
        const ns = list
          .slice(i, i + 50)
          .map((x) => x.n)
          .join(" ");
        const r = await tool(session, "bash", { command: `for n in ${ns}; do mkdir -p c/$n && cp -a fx/. c/$n/; done`, timeout_seconds: 120 });
        expect(r.exit_code, `copies: ${r.stderr}`).toBe(0);
      }
      const wrong: string[] = [];
      let equal = 0;
      const runOne = async ({ n, c }: { n: number; c: Call }) => {
        const dir = `/workspace/c/${n}`;
        const r = await tool(session, "bash", { command: c.run, working_dir: `c/${n}`, env: { HOME: dir }, timeout_seconds: 20 });
        const mask = (s: string) => s.split(dir).join("DIR").split("/workspace").join("ROOT");
        const got = { stdout: mask(String(r.stdout ?? "")), stderr: mask(String(r.stderr ?? r.error ?? "")), exit: r.exit_code as number };
        if (got.exit === c.exit && got.stdout === c.stdout && got.stderr === c.stderr) equal++;
        else wrong.push(`${c.run}\n    want(${c.exit}) ${clip(c.stdout)} ${clip(c.stderr)}\n    got (${got.exit}) ${clip(got.stdout)} ${clip(got.stderr)}`);
      };
      for (let i = 0; i < list.length; i += POOL) await Promise.all(list.slice(i, i + POOL).map(runOne));
      totals.equal += equal;
      totals.all += list.length;
      console.log(`${family}: ${equal}/${list.length} equal to Debian${wrong.length ? `\n  ${wrong.join("\n  ")}` : ""}`);
      expect(equal, `${family}: calls equal to Debian`).toBeGreaterThanOrEqual(FLOORS[family] ?? 0);
    }, 900_000);
  }
  afterAll(() => console.log(`realism corpus: ${totals.equal}/${totals.all} calls equal to Debian`));
});
