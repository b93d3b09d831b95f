// `npm run bench`: prints timings (and ratios against peers where a section has them).
// Sections: workspace (issue 2), shell and commands (against real bash/GNU and just-bash), big (200 MB inputs vs GNU, time and peak memory), floor (the platform's floor for reading 200 MB from Durable Object SQLite), network (issue 8), browser (issue 9), load (issue 15), bundle, checkpoints (issue 28), git and node (issue 25), python (issue 24), latency (issue 27). Run one with `npm run bench -- workspace`.
import { execSync } from "node:child_process";
import { root } from "../lib/dev-server.mjs";
import { benchWorkspace } from "./workspace.mjs";
import { benchShell } from "./shell.mjs";
import { benchCommands } from "./commands.mjs";
import { benchBig } from "./big.mjs";
import { benchFloor } from "./floor.mjs";
import { benchNetwork } from "./network.mjs";
import { benchBrowser } from "./browser.mjs";
import { benchLoad } from "./load.mjs";
import { benchPython } from "./python.mjs";
import { benchLatency } from "./latency.mjs";
import { benchBundle } from "../bundle-size.mjs";
import { benchCheckpoints } from "./checkpoints.mjs";
import { benchGit } from "./git.mjs";

const sections = {
  workspace: benchWorkspace,
  shell: benchShell,
  commands: benchCommands,
  big: benchBig,
  floor: benchFloor,
  network: benchNetwork,
  browser: benchBrowser,
  load: benchLoad,
  python: benchPython,
  latency: benchLatency,
  bundle: benchBundle,
  checkpoints: benchCheckpoints,
  git: benchGit,
  node: benchNode,
};
import { benchNode } from "./node.mjs";

const wanted = process.argv.slice(2).filter((a) => a in sections);

execSync("node scripts/prepare.mjs", { cwd: root, stdio: "inherit" });
const print = (what, value, unit, extra = "") => console.log(`${what.padEnd(72)} ${value.toFixed(1).padStart(10)} ${unit}${extra ? `  (${extra})` : ""}`);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  const started = performance.now();
  // One section failing (e.g. a Worker reload under a shared tree) must not hide the others.
  try {
    await run(print);
    console.log(`== ${name}: ok in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (e) {
    console.log(`section ${name} FAILED: ${e instanceof Error ? `${e.message}${e.cause ? ` (${e.cause})` : ""}\n${e.stack}` : String(e)}`);
    console.log(`== ${name}: FAILED after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    process.exitCode = 1;
  }
}
