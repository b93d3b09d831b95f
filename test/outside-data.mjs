// Suites that read data kept outside the repository, in `shared/` beside the clone (as CI lays it
// out; a worktree one level deeper finds it two levels up). A clone without it still passes
// `npm test`: each such suite skips, and skippedSuites() gives the one line per suite that says
// what it needs and where to put it (printed by the vitest configs and by scripts/test.mjs).
// The suites themselves read the files with import.meta.glob over the same two places.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const OUTSIDE_DATA = [
  { suite: "test/profiles/seed-snapshot.test.ts", needs: "the platforms' seed pages (NNN_*.txt)", dir: "shared/seeds", ext: ".txt" },
  { suite: "test/conformance/oils.test.ts", needs: "the Oils spec files (*.test.sh)", dir: "shared/conformance/oils-spec", ext: ".test.sh" },
  { suite: "test/conformance/oils-session.test.ts", needs: "the Oils spec files (*.test.sh)", dir: "shared/conformance/oils-spec", ext: ".test.sh" },
  { suite: "test/conformance/bash-fixtures.test.ts", needs: "the recorded bash fixtures (*.json)", dir: "shared/conformance/bash-fixtures", ext: ".json" },
];

function present(root, { dir, ext }) {
  return [join(root, "..", dir), join(root, "..", "..", dir)].some((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith(ext)));
}

/** One line per suite whose outside data is absent (empty when `shared/` is there). */
export function skippedSuites(root) {
  return OUTSIDE_DATA.filter((o) => !present(root, o)).map((o) => `[skip] ${o.suite}: needs ${o.needs}; put them in ../${o.dir}/ beside the repository`);
}
