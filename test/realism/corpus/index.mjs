// The corpus: every call, with its family, in a stable order (the floor and the cache key depend
// on it). Families are the kinds of work issue 26 names; each module builds its calls from
// templates × parameters over the fixture project (fixture.mjs); tasks.mjs and round3.mjs add whole
// tasks to them, and round3.mjs starts the last five families.
import * as one from "./oneliners.mjs";
import * as flows from "./workflows.mjs";
import * as explore from "./explore.mjs";
import * as tasks from "./tasks.mjs";
import * as r3 from "./round3.mjs";

const FAMILIES = {
  grep: one.grep,
  sed: one.sedCases,
  awk: one.awkCases,
  "sort-uniq": [...one.sortUniq, ...r3.sortUniq],
  "cut-tr-wc": one.cutTrWc,
  "find-xargs": [...one.findXargs, ...r3.findXargs],
  archives: [...flows.archives, ...tasks.archives, ...r3.archives],
  config: [...flows.config, ...tasks.config, ...r3.config],
  changelog: [...flows.changelog, ...tasks.changelog, ...r3.changelog],
  getopts: [...flows.getopts, ...tasks.getopts, ...r3.getopts],
  "csv-json": [...flows.csvJson, ...tasks.csvJson, ...r3.csvJson],
  toc: [...flows.toc, ...tasks.toc, ...r3.toc],
  health: [...flows.health, ...tasks.health, ...r3.health],
  trap: [...flows.traps, ...tasks.traps, ...r3.traps],
  build: [...flows.builds, ...tasks.builds, ...r3.builds],
  diff: [...flows.diffs, ...tasks.diffs, ...r3.diffs],
  date: [...flows.dates_, ...tasks.dates],
  "shell-basics": [...flows.shellBasics, ...tasks.shellBasics],
  files: [...explore.files, ...tasks.files],
  logs: [...explore.logs, ...r3.logs],
  json: explore.jsonQueries,
  "printf-heredoc": r3.printfHeredoc,
  strings: r3.strings,
  "functions-arrays": r3.functionsArrays,
  "read-loops": r3.readLoops,
  arith: r3.arith,
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
