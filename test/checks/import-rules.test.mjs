// `node --test test/checks/`: the import check (scripts/check-imports.mjs) fails on a tree that
// breaks its rules and passes on one that keeps them. Runs in Node, not workerd: the check reads
// the source tree.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import assert from "node:assert/strict";

const here = dirname(fileURLToPath(import.meta.url));
const check = (fixture) => spawnSync(process.execPath, [join(here, "..", "..", "scripts", "check-imports.mjs"), join(here, "fixtures", fixture)], { encoding: "utf8" });

test("a clean tree passes", () => {
  const r = check("imports-clean");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /0 file-level cycles \(0 across folders\), 0 folder-level cycles, 0 problems/);
});

test("a file cycle, a folder cycle and a forbidden import fail, each named", () => {
  const r = check("imports-bad");
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /syntax-is-a-leaf: src\/shell\/syntax\/ast\.ts -> src\/shell\/interp\/run\.ts/);
  assert.match(r.stdout, /no-file-cycle: 2 files/);
  assert.match(r.stdout, /no-folder-cycle: src\/agents, src\/tools/);
  assert.match(r.stdout, /1 file-level cycles \(1 across folders\), 1 folder-level cycles, 3 problems/);
});
