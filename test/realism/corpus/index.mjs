// The corpus: every call, with its family, in a stable order (the floor and the cache key depend
// on it). Families are the kinds of work issue 26 names; each module builds its calls from
// templates × parameters over the fixture project (fixture.mjs).
import * as one from "./oneliners.mjs";
import * as flows from "./workflows.mjs";
import * as explore from "./explore.mjs";

const FAMILIES = {
  grep: one.grep,
  sed: one.sedCases,
  awk: one.awkCases,
  "sort-uniq": one.sortUniq,
  "cut-tr-wc": one.cutTrWc,
  "find-xargs": one.findXargs,
  archives: flows.archives,
  config: flows.config,
  changelog: flows.changelog,
  getopts: flows.getopts,
  "csv-json": flows.csvJson,
  toc: flows.toc,
  health: flows.health,
  trap: flows.traps,
  build: flows.builds,
  diff: flows.diffs,
  date: flows.dates_,
  "shell-basics": flows.shellBasics,
  files: explore.files,
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
