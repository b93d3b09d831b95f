// `npm run check`: Biome's linter over the repository (biome.json) and its formatter in check
// mode. Until the one-time `npm run format` lands (it would touch most files while other branches
// edit them), the formatter checks only FORMATTED below; set it to null to check everything.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Files already in Biome's format (biome.json); null once the whole tree is. */
const FORMATTED = [
  "biome.json",
  "scripts/check.mjs",
  "scripts/test.mjs",
  "scripts/test-rust.mjs",
  "scripts/lib/reference-tools.mjs",
  "test/outside-data.mjs",
  "test/config/worker.mjs",
  "vitest.config.ts",
  "vitest.unit.config.ts",
];

const biome = (args) => spawnSync(join(root, "node_modules", ".bin", "biome"), args, { cwd: root, stdio: "inherit" }).status;
let failed = biome(["lint", "--max-diagnostics=50", "."]) !== 0;
if (FORMATTED) console.log(`[check] formatter: checking the ${FORMATTED.length} files of scripts/check.mjs FORMATTED only; \`npm run format\` formats the rest`);
if (biome(["format", ...(FORMATTED ?? ["."])]) !== 0) failed = true;
process.exit(failed ? 1 : 0);
