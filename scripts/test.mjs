// `npm test`: the CI gate. Prepares the clone (installs), then runs tiers, each printing its wall
// time: every vitest suite inside workerd (vitest.config.ts) with the static checks beside it
// (tsc --noEmit, the toolbox's Rust unit tests, Biome), the end-to-end scripts against
// `wrangler dev` (at once: each starts its own server on its own port), and a short fuzz run.
// Closes with one line per tier, the suites skipped for want of outside data, and one summary
// line for CI.
//
// `npm test -- <vitest args>` (a file, a -t filter): that vitest run only, with the full config so
// suites that need the test servers still get them. `npm run test:unit` is the inner loop.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { skippedSuites } from "../test/outside-data.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const args = process.argv.slice(2);
/** name, seconds, ok, detail: one row of the closing table. */
const tiers = [];
let passed = 0;
let failed = 0;
/** The failed tests' names and first message lines, repeated at the end: CI shows only the tail. */
const failures = [];

const seconds = (t0) => (performance.now() - t0) / 1000;
function record(name, t0, ok, detail = "", s = seconds(t0)) {
  tiers.push({ name, s, ok, detail });
  console.log(`\n[tier] ${name}: ${ok ? "ok" : "FAILED"} in ${s.toFixed(1)} s${detail ? ` (${detail})` : ""}\n`);
}

/** Runs a command with its output captured, so tiers that run at once do not interleave. */
function capture(cmd, cmdArgs, niced = false) {
  return new Promise((resolve) => {
    const child = niced
      ? spawn("nice", ["-n", "10", cmd, ...cmdArgs], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
      : spawn(cmd, cmdArgs, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", (e) => resolve({ status: 1, out: `${out}\ncould not run ${cmd}: ${e.message}\n` }));
    child.on("close", (status) => resolve({ status, out }));
  });
}

/**
 * Tiers run at once; each prints its output and wall time when it ends (or, with `hold`, when
 * `hold` settles, so that output does not cut into another tier's).
 */
async function together(list, { niced = false, hold = Promise.resolve() } = {}) {
  await Promise.all(
    list.map(async ({ name, cmd, cmdArgs, count }) => {
      const t0 = performance.now();
      const r = await capture(cmd, cmdArgs, niced);
      const s = seconds(t0);
      await hold;
      process.stdout.write(`\n===== ${name} =====\n${r.out}`);
      const c = count ? count(r) : { ok: r.status === 0 };
      passed += c.passed ?? (c.ok ? 1 : 0);
      failed += c.failed ?? (c.ok ? 0 : 1);
      if (!c.ok) failures.push(`${name}: ${firstLines(failureLines(r.out), 8)}`);
      record(name, t0, c.ok, c.detail, s);
    }),
  );
}

async function vitest(extra) {
  const report = join(root, "node_modules", ".vitest-report.json");
  rmSync(report, { force: true });
  const t0 = performance.now();
  const child = spawn(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra], { cwd: root, stdio: "inherit" });
  const r = await new Promise((resolve) => {
    child.on("error", () => resolve({ status: 1 }));
    child.on("close", (status) => resolve({ status }));
  });
  let p = 0;
  let f = 0;
  if (existsSync(report)) {
    const j = JSON.parse(readFileSync(report, "utf8"));
    p = j.numPassedTests;
    f = j.numFailedTests;
    for (const file of j.testResults)
      for (const a of file.assertionResults.filter((x) => x.status === "failed"))
        failures.push(`${file.name.slice(root.length + 1)} > ${a.fullName}\n      ${firstLines(a.failureMessages?.[0] ?? "", 6)}`);
  }
  if (r.status !== 0 && f === 0) f = 1; // a crash before any result still fails
  passed += p;
  failed += f;
  record("vitest", t0, f === 0, `${p} passed, ${f} failed`);
}

/** The lines of a tier's output that say what failed. */
function failureLines(out) {
  return out
    .split("\n")
    .filter((l) => /fail|error|not ok|panicked/i.test(l))
    .join("\n");
}

function firstLines(text, n) {
  return text.split("\n").slice(0, n).join("\n      ");
}

function finish() {
  if (failures.length) {
    console.log("\nFAILED");
    for (const f of failures.slice(0, 30)) console.log(`  ${f}`);
  }
  console.log("\nTIERS");
  for (const t of tiers) console.log(`  ${t.name.padEnd(12)} ${t.ok ? "ok    " : "FAILED"} ${t.s.toFixed(1).padStart(7)} s  ${t.detail}`);
  for (const line of skippedSuites(root)) console.log(line);
  console.log(`\ntests: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

const t0 = performance.now();
const prep = spawnSync("node", ["scripts/prepare.mjs"], { cwd: root, stdio: "inherit" });
record("prepare", t0, prep.status === 0, "npm packages, Debian packages, wasm build");
if (prep.status !== 0) {
  failed++;
  finish();
}

if (args.length) {
  await vitest(args);
  finish();
}

// The e2e scripts end with an "e2e: N passed, M failed" line.
const e2eCount = (r) => {
  const m = /e2e: (\d+) passed, (\d+) failed/.exec(r.out);
  return m ? { ok: Number(m[2]) === 0 && r.status === 0, passed: Number(m[1]), failed: Number(m[2]) || (r.status === 0 ? 0 : 1), detail: m[0] } : { ok: false };
};

// cargo prints one "test result: ok. N passed; M failed; ..." line per test binary.
const cargoCount = (r) => {
  let p = 0;
  let f = 0;
  for (const m of r.out.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) (p += Number(m[1])), (f += Number(m[2]));
  const ok = r.status === 0 && f === 0;
  return { ok, passed: p, failed: f || (ok ? 0 : 1), detail: `${p} passed, ${f} failed` };
};

// node --test closes with "# pass N" and "# fail N".
const nodeTestCount = (r) => {
  const p = Number(/# pass (\d+)/.exec(r.out)?.[1] ?? 0);
  const f = Number(/# fail (\d+)/.exec(r.out)?.[1] ?? 0);
  const ok = r.status === 0 && f === 0 && p > 0;
  return { ok, passed: p, failed: f || (ok ? 0 : 1), detail: `${p} passed, ${f} failed` };
};

// The static checks run beside vitest, niced: vitest runs one file at a time on 2 cores
// (availableParallelism - 1), so they mostly use the core it leaves idle.
const tests = vitest([]);
await together(
  [
    { name: "typecheck", cmd: "node", cmdArgs: [join(root, "node_modules", "typescript7", "bin", "tsc"), "--noEmit"] },
    { name: "rust", cmd: "node", cmdArgs: ["scripts/test-rust.mjs"], count: cargoCount },
    { name: "check", cmd: "node", cmdArgs: ["scripts/check.mjs"] },
    // The import rules (ARCHITECTURE.md) on the tree, and their own test: a fixture with a cycle and a forbidden import fails.
    { name: "imports", cmd: "node", cmdArgs: ["scripts/check-imports.mjs"] },
    { name: "import-rules-test", cmd: "node", cmdArgs: ["--test", "test/checks/import-rules.test.mjs"], count: nodeTestCount },
    { name: "dead-code", cmd: "node", cmdArgs: [bin("knip"), "--include", "files,dependencies,exports,types", "--no-progress"] },
  ],
  { niced: true, hold: tests },
);
await tests;
// One after another: each starts its own wrangler dev, and three bundling a 19 MB Worker at once
// on 2 cores did not all come up within their 90 s.
for (const n of ["restart", "mcp", "inspector", "checkpoints"]) await together([{ name: `e2e-${n}`, cmd: "node", cmdArgs: [`scripts/e2e-${n}.mjs`], count: e2eCount }]);
// A short fuzz run with a fixed seed, printed, so a failure replays. Alone: it stops after 90 s,
// so sharing the CPU would mean fewer runs.
await together([{ name: "fuzz", cmd: "node", cmdArgs: ["scripts/fuzz.mjs", "--runs", "300", "--seed", "20261124", "--seconds", "90"] }]);
finish();
