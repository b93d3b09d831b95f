// `npm run bench`: prints timings (and ratios against peers where a section has them).
// Sections: workspace (issue 2). Run one with `npm run bench -- workspace`.
import { execSync } from "node:child_process";
import { root } from "../lib/dev-server.mjs";
import { benchWorkspace } from "./workspace.mjs";

const sections = { workspace: benchWorkspace };
const wanted = process.argv.slice(2).filter((a) => a in sections);

execSync("node scripts/prepare.mjs", { cwd: root, stdio: "inherit" });
const print = (what, value, unit, extra = "") =>
  console.log(`${what.padEnd(72)} ${value.toFixed(1).padStart(10)} ${unit}${extra ? `  (${extra})` : ""}`);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  await run(print);
}
