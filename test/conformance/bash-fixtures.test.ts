/// <reference types="vite/client" />
// bash-fixtures conformance (see ../shared/conformance/README.md beside the repository): 778 commands recorded
// against real bash, run through the bash tool in fresh sessions. Files are read at build time
// with vite's import.meta.glob (?raw), so nothing is copied into the project.
//
// While working on it: VITE_BASH_FIXTURES=sed,cut (substring of file names) runs a subset and
// VITE_BASH_FIXTURES_VERBOSE=1 prints want/got for each failure.
import { it, expect } from "vitest";
import { parseFixtures, runAll, tally, type FixtureCase } from "./bash-fixtures-lib";

const raw = import.meta.glob(["../../../shared/conformance/bash-fixtures/*.json", "../../../../shared/conformance/bash-fixtures/*.json"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

// Floor set from the measured count; raise it as the shell and toolbox improve so regressions show.
const FLOOR = 769; // measured 769/778 after the pipes merge
const TOTAL_CASES = 778;

// Skipped in a clone without ../shared/conformance beside it (test/outside-data.mjs names it once).
it.skipIf(Object.keys(raw).length === 0)(
  "bash-fixtures cases",
  async () => {
    const only = (import.meta.env.VITE_BASH_FIXTURES as string | undefined)?.split(",").filter(Boolean);
    const verbose = Boolean(import.meta.env.VITE_BASH_FIXTURES_VERBOSE);
    const files: Record<string, Record<string, FixtureCase>> = {};
    for (const [p, text] of Object.entries(raw)) {
      const name = p.replace(/^.*\//, "").replace(/\.comparison\.fixtures\.json$/, "");
      if (only && !only.some((o) => name.includes(o))) continue;
      files[name] = parseFixtures(name, text);
    }
    const results = await runAll(files);
    const { lines, pass, total } = tally(results);
    const failures = results.filter((r) => !r.pass);
    const out = [...lines, `TOTAL ${pass}/${total}`, "", `FAILING (${failures.length}):`];
    for (const f of failures) {
      out.push(`${f.file}/${f.id}: ${f.reason}`);
      if (verbose && f.detail) {
        const d = f.detail;
        out.push(
          `    $ ${d.command.replace(/\n/g, "\n    > ")}`,
          `    want(${d.wantCode}) ${JSON.stringify(d.want)}`,
          `    got (${d.gotCode}) ${JSON.stringify(d.got)}`,
          `    stderr ${JSON.stringify(d.stderr)}`,
        );
      }
    }
    console.log(out.join("\n"));
    if (only) return;
    expect(total).toBe(TOTAL_CASES);
    expect(pass).toBeGreaterThanOrEqual(FLOOR);
  },
  900_000,
);
