// Checks the metering pass on wasm/dist/toolbox.wasm under Node's WASI:
// runaway loops stop on their step budget (not the clock), a sufficient
// budget changes nothing, and step counts are deterministic.
//   node wasm/check/meter.mjs
import { readFileSync, openSync, closeSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { WASI } from "node:wasi";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// toolbox asks the host before running a command in-process (toolshed.check_command, see
// src/wasi/toolshed-imports.ts); these checks run outside the sandbox, so everything is allowed.
const ALLOW_ALL = { check_command: () => 0 };

const here = dirname(fileURLToPath(import.meta.url));
const mod = await WebAssembly.compile(readFileSync(join(here, "..", "dist", "toolbox.wasm")));
const dir = mkdtempSync(join(tmpdir(), "meter-"));
writeFileSync(join(dir, "in.txt"), "b\na\nc\n");

/** Runs argv with `budget` steps; returns { outcome, steps, stdout }. */
async function run(argv, budget) {
  const outPath = join(dir, "stdout");
  const fd = openSync(outPath, "w");
  const wasi = new WASI({ version: "preview1", args: argv, env: {}, preopens: { "/workspace": dir }, stdout: fd, returnOnExit: true });
  const inst = await WebAssembly.instantiate(mod, { ...wasi.getImportObject(), toolshed: ALLOW_ALL });
  const fuel = inst.exports.toolshed_fuel;
  fuel.value = BigInt(budget);
  let outcome;
  try {
    outcome = `exit ${wasi.start(inst)}`;
  } catch (e) {
    outcome = fuel.value < 0n ? "out of fuel" : `trap ${e.message}`;
  }
  closeSync(fd);
  return { outcome, steps: BigInt(budget) - fuel.value, stdout: readFileSync(outPath, "utf8") };
}

const results = [];
const expect = (name, cond) => results.push([name, cond]);

const yes = await run(["yes"], 2_000_000);
expect("yes stops when its budget is spent", yes.outcome === "out of fuel" && yes.steps === 2_000_001n);
const sortBig = await run(["sort", "in.txt"], 1_000_000_000);
expect("sort with enough fuel is unchanged", sortBig.outcome === "exit 0" && sortBig.stdout === "a\nb\nc\n");
const sortSmall = await run(["sort", "in.txt"], 50);
expect("sort with 50 steps runs out", sortSmall.outcome === "out of fuel");
const again = await run(["sort", "in.txt"], 1_000_000_000);
expect("step counts are deterministic", again.steps === sortBig.steps && sortBig.steps > 0n);
const seq = await run(["seq", "1000000"], 100_000);
expect("seq 1000000 with 100k steps runs out", seq.outcome === "out of fuel");

rmSync(dir, { recursive: true, force: true });
let fail = 0;
for (const [name, ok] of results) {
  if (!ok) {
    fail++;
    console.log(`FAIL: ${name}`);
  }
}
console.log(`sort steps: ${sortBig.steps}`);
console.log(`${results.length - fail} passed, ${fail} failed`);
process.exitCode = fail ? 1 : 0;
