// Differential check: runs each case with the system's GNU tool and with
// toolbox, in a scratch directory holding the same fixture files, and
// reports any difference in stdout, stderr or exit status.
//   node wasm/check/compare.mjs            native build (wasm/target/debug/toolbox)
//   node wasm/check/compare.mjs --wasm     wasm/dist/toolbox.wasm under Node's WASI
// Needs GNU coreutils/grep on the machine (Debian has them), so it is a
// developer check, not part of the Worker's test suite.
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CASES as BASE } from "./cases.mjs";
import { CASES as EXTRA } from "./extra-cases.mjs";
import { CASES as NEW } from "./new-cases.mjs";
// --only=cmd,cmd limits the run to those commands.
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const CASES = [...BASE, ...EXTRA, ...NEW].filter((c) => !only || only.includes(c.cmd));

const here = dirname(fileURLToPath(import.meta.url));
const wasm = process.argv.includes("--wasm");
const native = join(here, "..", "target", "debug", "toolbox");

function fixture() {
  const d = mkdtempSync(join(tmpdir(), "toolbox-cmp-"));
  const files = {
    "a.txt": "apple pie\nbanana split\nCherry tart\napple crumble\n",
    "b.txt": "one\ntwo\nthree\n",
    "nums.txt": "10\n9\n-1\n1.5\n2K\n1M\n100\nx\n",
    "csv.txt": "name,age,city\nbob,30,paris\nalice,25,rome\ncarol,35,oslo\n",
    "dup.txt": "a\na\nb\nB\nb\nc\na\n",
    "tabs.txt": "a\tb\tc\nd\te\tf\n",
    "nonl.txt": "no newline at end",
    "empty.txt": "",
    "words.txt": "foo bar foobar\nbarfoo foo_bar\nfoo-bar\n",
    "src/main.rs": 'fn main() {\n    println!("hi");\n}\n',
    "src/lib/util.rs": "pub fn util() {}\n// TODO: main\n",
    "src/notes.md": "# main notes\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(d, name)), { recursive: true });
    writeFileSync(join(d, name), text);
  }
  mkdirSync(join(d, "emptydir"));
  const t = new Date("2020-01-02T03:04:05Z");
  for (const name of [...Object.keys(files), "src/lib", "src", "emptydir"]) utimesSync(join(d, name), t, t);
  return d;
}

function runGnu(dir, c) {
  return spawnSync(c.gnu ?? c.cmd, c.args, { cwd: dir, input: c.stdin ?? "", env: { LC_ALL: "C", PATH: "/usr/bin:/bin", TZ: "UTC", ...(c.env ?? {}) } });
}

function runOurs(dir, c) {
  if (!wasm) return spawnSync(native, c.args, { cwd: dir, input: c.stdin ?? "", argv0: c.cmd });
  return spawnSync(process.execPath, ["--no-warnings", join(here, "run.mjs"), "toolbox", "--dir", dir, "--", c.cmd, ...c.args], { cwd: dir, input: c.stdin ?? "" });
}

let pass = 0;
let fail = 0;
for (const c of CASES) {
  const d1 = fixture();
  const d2 = fixture();
  const g = runGnu(d1, c);
  const o = runOurs(d2, c);
  if (g.error?.code === "ENOENT") {
    // the reference tool is not installed here (e.g. Debian's hexdump)
    console.log(`SKIP: ${c.gnu ?? c.cmd}: ${g.error.code}`);
    rmSync(d1, { recursive: true, force: true });
    rmSync(d2, { recursive: true, force: true });
    continue;
  }
  const norm = (s) => {
    const t = String(s ?? "")
      .split(d1)
      .join("<D>")
      .split(d2)
      .join("<D>");
    // Standard input has no mtime: diff shows "now" for it.
    const u = t.replace(/^(\+\+\+|---) -\t[0-9-]+ [0-9:.]+ \+0000$/gm, "$1 -\t<now>");
    return c.unordered ? u.split("\n").sort().join("\n") : u;
  };
  // `after`: a GNU command run in both directories afterwards, to compare what the case changed.
  const look = (d) => (c.after ? spawnSync(c.after[0], c.after.slice(1), { cwd: d, env: { LC_ALL: "C", PATH: "/usr/bin:/bin" } }).stdout.toString() : "");
  const [la, lb] = [look(d1), look(d2)];
  if (la !== lb) console.log(`  after ${c.after.join(" ")}: gnu ${JSON.stringify(la)} ours ${JSON.stringify(lb)}`);
  const same = la === lb && norm(g.stdout) === norm(o.stdout) && g.status === o.status && (c.ignoreStderr || norm(g.stderr) === norm(o.stderr));
  if (same) pass++;
  else {
    fail++;
    console.log(`FAIL: ${c.cmd} ${JSON.stringify(c.args)}${c.stdin ? " <<< " + JSON.stringify(c.stdin) : ""}`);
    console.log(`  gnu  [${g.status}] out=${JSON.stringify(norm(g.stdout))} err=${JSON.stringify(norm(g.stderr))}`);
    console.log(`  ours [${o.status}] out=${JSON.stringify(norm(o.stdout))} err=${JSON.stringify(norm(o.stderr))}`);
  }
  rmSync(d1, { recursive: true, force: true });
  rmSync(d2, { recursive: true, force: true });
}
console.log(`${pass} passed, ${fail} failed`);
process.exitCode = fail ? 1 : 0;
