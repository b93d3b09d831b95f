// The corpus: every call, with its family, in a stable order (the floor and the cache key depend
// on it). Families are the kinds of work issue 26 names; each module builds its calls from
// templates × parameters over the fixture project (fixture.mjs); tasks.mjs adds whole tasks to them.
import * as one from "./oneliners.mjs";
import * as flows from "./workflows.mjs";
import * as explore from "./explore.mjs";
import * as tasks from "./tasks.mjs";

const FAMILIES = {
  grep: one.grep,
  sed: one.sedCases,
  awk: one.awkCases,
  "sort-uniq": one.sortUniq,
  "cut-tr-wc": one.cutTrWc,
  "find-xargs": one.findXargs,
  archives: [...flows.archives, ...tasks.archives],
  config: [...flows.config, ...tasks.config],
  changelog: [...flows.changelog, ...tasks.changelog],
  getopts: [...flows.getopts, ...tasks.getopts],
  "csv-json": [...flows.csvJson, ...tasks.csvJson],
  toc: [...flows.toc, ...tasks.toc],
  health: [...flows.health, ...tasks.health],
  trap: [...flows.traps, ...tasks.traps],
  build: [...flows.builds, ...tasks.builds],
  diff: [...flows.diffs, ...tasks.diffs],
  date: [...flows.dates_, ...tasks.dates],
  "shell-basics": [...flows.shellBasics, ...tasks.shellBasics],
  files: [...explore.files, ...tasks.files],
  logs: explore.logs,
  json: explore.jsonQueries,
};

/** [{ family, run }] with duplicates (the same text twice) dropped. */
export const CORPUS = (() => {
  const seen = new Set();
  const out = [];
  for (const [family, runs] of Object.entries(FAMILIES)) {
    for (const run of runs) {
      if (typeof run !== "string" || !run.trim()) throw new Error(`corpus: ${family} holds an empty call`);
      if (seen.has(run)) continue;
      seen.add(run);
      out.push({ family, run });
    }
  }
  return out;
})();
