// Runs the Oils spec cases through runShell in Node (fast iteration; the vitest file
// test/conformance/oils.test.ts runs the same cases inside workerd).
// Usage: node scripts/conformance-oils.mjs [FILE_SUBSTRING] [--fail] [--verbose]
import { build } from "esbuild";
import { readFileSync, readdirSync, mkdtempSync } from "node:fs";
import { join, dirname } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const specDir = join(root, "..", "shared", "conformance", "oils-spec");
const out = join(mkdtempSync(join(tmpdir(), "oils-")), "oils-lib.mjs");
await build({ entryPoints: [join(root, "test/conformance/oils-lib.ts")], bundle: true, format: "esm", platform: "neutral", outfile: out, logLevel: "warning" });
const lib = await import(pathToFileURL(out).href);
const filter = process.argv.slice(2).find((a) => !a.startsWith("--"));
const showFail = process.argv.includes("--fail");
const files = {};
for (const f of readdirSync(specDir).filter((f) => f.endsWith(".test.sh"))) {
  if (filter && !f.includes(filter)) continue;
  files[f] = readFileSync(join(specDir, f), "utf8");
}
const noCnf = process.argv.includes("--nocnf");
const tallies = await lib.runFiles(
  files,
  showFail
    ? (file, c, r) => {
        if (noCnf && /command not found/.test(r.got?.stderr ?? "")) return;
        console.log(`--- FAIL ${file}:${c.line} ${c.name}`);
        console.log(c.script.trimEnd());
        console.log(`  expected status=${c.expect.status ?? 0} stdout=${JSON.stringify(c.expect.stdout)}`);
        console.log(`  got      status=${r.got?.status} stdout=${JSON.stringify(r.got?.stdout)} stderr=${JSON.stringify(r.got?.stderr?.slice(0, 300))}`);
      }
    : undefined,
);
for (const t of tallies) console.log(`${t.inScope ? " " : "x"} ${t.file.padEnd(34)} ${t.pass}/${t.judged}${t.skipped ? ` (skipped ${t.skipped})` : ""}`);
const s = lib.summarize(tallies);
console.log(`TOTAL all files: ${s.all[0]}/${s.all[1]}   in scope: ${s.scope[0]}/${s.scope[1]}`);
