/// <reference types="vite/client" />
// Oils spec conformance, run inside workerd. Spec files are read at build time with
// vite's import.meta.glob (?raw), so nothing is copied into the project.
import { it, expect } from "vitest";
import { runFiles, summarize } from "./oils-lib";

const raw = import.meta.glob(["../../../shared/conformance/oils-spec/*.test.sh", "../../../../shared/conformance/oils-spec/*.test.sh"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

// Floor set from the measured count; raise it as the shell improves so regressions show.
const FLOOR_ALL = 2050;

// Skipped in a clone without ../shared/conformance beside it (test/outside-data.mjs names it once).
it.skipIf(Object.keys(raw).length === 0)(
  "oils spec cases",
  async () => {
    const files: Record<string, string> = {};
    for (const [p, text] of Object.entries(raw)) files[p.replace(/^.*\//, "")] = text;
    expect(Object.keys(files).length).toBeGreaterThan(100);
    const tallies = await runFiles(files);
    const lines = tallies.map((t) => `${t.inScope ? " " : "x"} ${t.file.padEnd(34)} ${t.pass}/${t.judged}${t.skipped ? ` (skipped ${t.skipped})` : ""}`);
    const s = summarize(tallies);
    console.log(lines.join("\n") + `\nTOTAL all files: ${s.all[0]}/${s.all[1]}   in scope: ${s.scope[0]}/${s.scope[1]}`);
    expect(s.all[0]).toBeGreaterThanOrEqual(FLOOR_ALL);
  },
  600_000,
);
