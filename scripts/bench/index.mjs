// `npm run bench`: prints timings (and ratios against peers where a section has them).
// Sections: workspace (issue 2), shell and commands (against real bash/GNU and just-bash), big (200 MB inputs vs GNU, time and peak memory), network (issue 8), browser (issue 9), load (issue 15), latency (issue 27: per-call p50/p90/p99 and the phases inside a call), bundle. Run one with `npm run bench -- workspace`.
import { execSync } from "node:child_process";
import { root } from "../lib/dev-server.mjs";
import { benchWorkspace } from "./workspace.mjs";
import { benchShell } from "./shell.mjs";
import { benchCommands } from "./commands.mjs";
import { benchBig } from "./big.mjs";
import { benchNetwork } from "./network.mjs";
import { benchBrowser } from "./browser.mjs";
import { benchLoad } from "./load.mjs";
import { benchLatency } from "./latency.mjs";
import { benchBundle } from "../bundle-size.mjs";

const sections = { workspace: benchWorkspace, shell: benchShell, commands: benchCommands, big: benchBig, network: benchNetwork, browser: benchBrowser, load: benchLoad, latency: benchLatency, bundle: benchBundle };
const wanted = process.argv.slice(2).filter((a) => a in sections);

execSync("node scripts/prepare.mjs", { cwd: root, stdio: "inherit" });
const print = (what, value, unit, extra = "") =>
  console.log(`${what.padEnd(72)} ${value.toFixed(1).padStart(10)} ${unit}${extra ? `  (${extra})` : ""}`);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  // One section failing (e.g. a Worker reload under a shared tree) must not hide the others.
  try {
    await run(print);
  } catch (e) {
    console.log(`section ${name} FAILED: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
