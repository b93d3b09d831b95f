// `npm test`: prepares the clone, runs every vitest suite inside workerd, then the end-to-end
// checks against `wrangler dev`, and closes with one summary line for CI.
import { execSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execSync("node scripts/prepare.mjs", { cwd: root, stdio: "inherit" });

const report = join(root, "node_modules", ".vitest-report.json");
rmSync(report, { force: true });
const vitest = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);
let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
}
if (vitest.status !== 0 && failed === 0) failed = 1; // a crash before any result still fails

// Each end-to-end script starts its own wrangler dev and ends with an "e2e: N passed, M failed" line.
for (const script of ["scripts/e2e-restart.mjs", "scripts/e2e-mcp.mjs", "scripts/e2e-inspector.mjs"]) {
  const e2e = spawnSync("node", [script], { cwd: root, encoding: "utf8" });
  process.stdout.write(e2e.stdout ?? "");
  process.stderr.write(e2e.stderr ?? "");
  const m = /e2e: (\d+) passed, (\d+) failed/.exec(e2e.stdout ?? "");
  passed += m ? Number(m[1]) : 0;
  failed += m ? Number(m[2]) : 1;
}

// A short fuzz run (scripts/fuzz.mjs) with a fixed seed, printed, so a failure replays.
const fuzz = spawnSync("node", ["scripts/fuzz.mjs", "--runs", "300", "--seed", "20261124", "--seconds", "90"], { cwd: root, encoding: "utf8" });
process.stdout.write(fuzz.stdout ?? "");
process.stderr.write(fuzz.stderr ?? "");
if (fuzz.status === 0) passed++;
else failed++;

console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
