// `npm run check`: Biome's linter over the repository (biome.json) and its formatter in check
// mode over everything it formats. The formatter leaves out Markdown (prose keeps its own line
// breaks), the option sweep's and replay's data tables, and scripts/build-python.mjs with
// scripts/python/ (their text is part of the CPython build's cache key: formatting them would
// rebuild CPython from source on every machine; format them with their next real change).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const biome = (args) => spawnSync(join(root, "node_modules", ".bin", "biome"), args, { cwd: root, stdio: "inherit" }).status;
let failed = biome(["lint", "--max-diagnostics=50", "."]) !== 0;
if (biome(["format", "."]) !== 0) failed = true;
process.exit(failed ? 1 : 0);
