// `npm run bundle-size`: the size of the Worker as it would be deployed, from
// `wrangler deploy --dry-run --outdir`, uncompressed and gzipped, with each .wasm
// module's share. Workers cap the script at 3 MB gzipped (free plan) and 10 MB (paid),
// and every WASI program has to be in the bundle, so this is the number to watch.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { root } from "./lib/dev-server.mjs";

const LIMITS = [
  ["free plan", 3 * 1024 * 1024],
  ["paid plan", 10 * 1024 * 1024],
];

/** Builds the deployable Worker into a temporary directory and measures its modules. */
export function measureBundle() {
  const out = mkdtempSync(join(tmpdir(), "toolshed-bundle-"));
  try {
    const log = execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    // Source maps and wrangler's README are written alongside but not uploaded as modules.
    const modules = readdirSync(out)
      .filter((f) => !f.endsWith(".map") && f !== "README.md")
      .map((f) => {
        const bytes = readFileSync(join(out, f));
        return { name: f.replace(/^[0-9a-f]{40}-/, ""), size: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      })
      .sort((a, b) => b.size - a.size);
    const wranglerLine = log.match(/Total Upload:.*$/m)?.[0] ?? "(wrangler printed no total)";
    return { modules, wranglerLine };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;

export function printBundle({ modules, wranglerLine }) {
  const total = modules.reduce((s, m) => s + m.size, 0);
  const gzip = modules.reduce((s, m) => s + m.gzip, 0);
  console.log(`deployable Worker (wrangler deploy --dry-run): ${kib(total)} uncompressed, ${kib(gzip)} gzipped (each module gzip -9)`);
  console.log(`wrangler's own count: ${wranglerLine}`);
  console.log(`${"module".padEnd(28)} ${"bytes".padStart(12)} ${"gzipped".padStart(12)} ${"share".padStart(7)} ${"gz share".padStart(8)}`);
  for (const m of modules) {
    console.log(`${m.name.padEnd(28)} ${kib(m.size).padStart(12)} ${kib(m.gzip).padStart(12)} ${pct(m.size, total).padStart(7)} ${pct(m.gzip, gzip).padStart(8)}`);
  }
  const wasm = modules.filter((m) => m.name.endsWith(".wasm"));
  const wasmSize = wasm.reduce((s, m) => s + m.size, 0);
  const wasmGzip = wasm.reduce((s, m) => s + m.gzip, 0);
  console.log(`all .wasm (${wasm.length}): ${pct(wasmSize, total)} of bytes, ${pct(wasmGzip, gzip)} of gzipped`);
  console.log(`headroom: ${LIMITS.map(([n, l]) => `${n} ${kib(l - gzip)} of ${kib(l)} gzipped`).join(", ")}`);
}

export async function benchBundle() {
  printBundle(measureBundle());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // Standalone, build the Wasm programs first (skipped when unchanged); the bench has already.
  execFileSync("node", ["scripts/prepare.mjs"], { cwd: root, stdio: "inherit" });
  await benchBundle();
}
