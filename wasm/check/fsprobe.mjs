// Checks wasm/dist/fsprobe.wasm under Node's WASI against a scratch
// directory preopened as /workspace: each step's stdout, stderr and status.
//   node wasm/check/fsprobe.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "fsprobe-"));
writeFileSync(join(dir, "seed.txt"), "0123456789");
utimesSync(join(dir, "seed.txt"), 1_000_000, 1_000_000);

// [argv, stdout, stderr, status]
const steps = [
  [["ls", "."], "seed.txt\tfile\t10\n", "", 0],
  [["cat", "seed.txt"], "0123456789", "", 0],
  [["cat", "/workspace/seed.txt"], "0123456789", "", 0],
  [["stat", "seed.txt"], "10 1000000 file\n", "", 0],
  [["seekread", "seed.txt", "3", "4"], "3456", "", 0],
  [["seekread", "seed.txt", "8", "100"], "89", "", 0],
  [["write", "a.txt", "hello"], "", "", 0],
  [["append", "a.txt", " world\n"], "", "", 0],
  [["cat", "a.txt"], "hello world\n", "", 0],
  [["write", "a.txt", "x"], "", "", 0],
  [["cat", "a.txt"], "x", "", 0],
  [["mkdir", "d"], "", "", 0],
  [["mkdir", "d"], "", "fsprobe: mkdir: d: File exists\n", 1],
  [["mv", "a.txt", "d/b.txt"], "", "", 0],
  [["ls", "d"], "b.txt\tfile\t1\n", "", 0],
  [["rmdir", "d"], "", "fsprobe: rmdir: d: Directory not empty\n", 1],
  [["rm", "d/b.txt"], "", "", 0],
  [["rmdir", "d"], "", "", 0],
  [["cat", "x"], "", "fsprobe: cat: x: No such file or directory\n", 1],
  [["seekread", "seed.txt", "-1", "2"], "", "fsprobe: seekread: invalid offset: '-1'\n", 1],
  [["bogus"], "", null, 2],
];

let pass = 0;
let fail = 0;
for (const [argv, out, err, status] of steps) {
  const r = spawnSync(process.execPath, ["--no-warnings", join(here, "run.mjs"), "fsprobe", "--dir", dir, "--", "fsprobe", ...argv]);
  const ok = r.stdout.toString() === out && (err === null || r.stderr.toString() === err) && r.status === status;
  if (ok) pass++;
  else {
    fail++;
    console.log(`FAIL fsprobe ${argv.join(" ")}: [${r.status}] out=${JSON.stringify(r.stdout.toString())} err=${JSON.stringify(r.stderr.toString())}`);
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`${pass} passed, ${fail} failed`);
process.exitCode = fail ? 1 : 0;
