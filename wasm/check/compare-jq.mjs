// Differential check for toolbox's jq against the system's jq (Debian's 1.6):
//   node wasm/check/compare-jq.mjs          native build (wasm/target/debug/toolbox)
//   node wasm/check/compare-jq.mjs --wasm   wasm/dist/toolbox.wasm under Node's WASI
// Cases live in jq-cases.txt (JSON argv ||| stdin). Compares stdout and exit status.
import { spawnSync } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wasm = process.argv.includes("--wasm");
const native = join(here, "..", "target", "debug", "toolbox");
const lines = readFileSync(join(here, "jq-cases.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() && !l.startsWith("##"));
const dir = mkdtempSync(join(tmpdir(), "jq-cmp-"));
let pass = 0;
let fail = 0;
for (const line of lines) {
  const i = line.indexOf(" ||| ");
  const args = JSON.parse(line.slice(0, i));
  const input = line.slice(i + 5).replaceAll("\\n", "\n");
  const g = spawnSync("jq", args, { input, cwd: dir });
  const o = wasm
    ? spawnSync(process.execPath, ["--no-warnings", join(here, "run.mjs"), "toolbox", "--dir", dir, "--", "jq", ...args], { input, cwd: dir })
    : spawnSync(native, ["jq", ...args], { input, cwd: dir });
  if (g.stdout.equals(o.stdout) && g.status === o.status) pass++;
  else {
    fail++;
    console.log(`FAIL: jq ${JSON.stringify(args)} <<< ${JSON.stringify(input)}`);
    console.log(`  jq   [${g.status}] ${JSON.stringify(g.stdout.toString())} ${JSON.stringify(g.stderr.toString())}`);
    console.log(`  ours [${o.status}] ${JSON.stringify(o.stdout.toString())} ${JSON.stringify(o.stderr.toString())}`);
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`${pass} passed, ${fail} failed`);
process.exitCode = fail ? 1 : 0;
