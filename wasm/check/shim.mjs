// Runs wasm/dist/toolbox.wasm under @bjorn3/browser_wasi_shim (the runtime
// the Worker uses) in Node, over an in-memory /workspace, one shared tree
// across steps, and checks status and output of each step.
//   node wasm/check/shim.mjs
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// toolbox asks the host before running a command in-process (toolshed.check_command, see
// src/wasi/toolshed-imports.ts); these checks run outside the sandbox, so everything is allowed.
const ALLOW_ALL = { check_command: () => 0 };

const here = dirname(fileURLToPath(import.meta.url));
const shim = await import(join(here, "..", "..", "node_modules", "@bjorn3", "browser_wasi_shim", "dist", "index.js"));
const { WASI, File, Directory, PreopenDirectory, OpenFile, ConsoleStdout } = shim;
const mod = await WebAssembly.compile(readFileSync(join(here, "..", "dist", "toolbox.wasm")));
const probe = await WebAssembly.compile(readFileSync(join(here, "..", "dist", "fsprobe.wasm")));
const enc = new TextEncoder();
const root = new Map([
  ["a.txt", new File(enc.encode("banana\napple\ncherry\n"))],
  ["src", new Directory(new Map([["main.rs", new File(enc.encode("fn main() {}\n"))]]))],
]);

async function run(argv, stdin = "", module = mod) {
  let out = "";
  let err = "";
  const [d1, d2] = [new TextDecoder(), new TextDecoder()];
  const fds = [
    new OpenFile(new File(enc.encode(stdin))),
    new ConsoleStdout((b) => (out += d1.decode(b, { stream: true }))),
    new ConsoleStdout((b) => (err += d2.decode(b, { stream: true }))),
    new PreopenDirectory("/workspace", root),
  ];
  const wasi = new WASI(argv, ["PWD=/workspace"], fds, { debug: false });
  const inst = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport, toolshed: ALLOW_ALL });
  return { code: wasi.start(inst), out, err };
}

// [argv, stdin, status, stdout, stderr]
const steps = [
  [["ls", "-a"], "", 0, ".\n..\na.txt\nsrc\n", ""],
  [["sort", "a.txt"], "", 0, "apple\nbanana\ncherry\n", ""],
  [["cat", "-n", "src/main.rs", "nope"], "", 1, "     1\tfn main() {}\n", "cat: nope: No such file or directory\n"],
  [["grep", "-rn", "main", "."], "", 0, "./src/main.rs:1:fn main() {}\n", ""],
  [["wc", "-l"], "x\ny\n", 0, "2\n", ""],
  [["touch", "new.txt"], "", 0, "", ""],
  [["touch", "a.txt"], "", 0, "", ""],
  [["mkdir", "-p", "d/e"], "", 0, "", ""],
  [["cp", "-r", "src", "d/e/src2"], "", 0, "", ""],
  [["mv", "a.txt", "d/b.txt"], "", 0, "", ""],
  [["find", ".", "-type", "f"], "", 0, "./d/b.txt\n./d/e/src2/main.rs\n./new.txt\n./src/main.rs\n", ""],
  [["sed", "-i", "s/apple/APPLE/", "d/b.txt"], "", 0, "", ""],
  [["cat", "/workspace/d/b.txt"], "", 0, "banana\nAPPLE\ncherry\n", ""],
  [["rm", "-r", "d"], "", 0, "", ""],
  [["tree"], "", 0, ".\n├── new.txt\n└── src\n    └── main.rs\n\n2 directories, 2 files\n", ""],
  [["awk", "{print NR, $0}"], "q\nw\n", 0, "1 q\n2 w\n", ""],
  [["stat", "-c", "%n %s %F", "new.txt"], "", 0, "new.txt 0 regular empty file\n", ""],
  [["diff", "-u", "--label", "x", "--label", "y", "new.txt", "src/main.rs"], "", 1, "--- x\n+++ y\n@@ -0,0 +1 @@\n+fn main() {}\n", ""],
];

// fsprobe, as the workspace tests use it (after the steps above).
const P = (argv, code, out, err = "") => [["fsprobe", ...argv], "", code, out, err, probe];
steps.push(
  P(["write", "p.txt", "hello"], 0, ""),
  P(["append", "p.txt", " world"], 0, ""),
  P(["cat", "p.txt"], 0, "hello world"),
  P(["seekread", "p.txt", "6", "3"], 0, "wor"),
  P(["stat", "p.txt"], 0, null),
  P(["ls", "src"], 0, "main.rs\tfile\t13\n"),
  P(["mkdir", "q"], 0, ""),
  P(["mv", "p.txt", "q/p2.txt"], 0, ""),
  P(["rmdir", "q"], 1, "", "fsprobe: rmdir: q: Directory not empty\n"),
  P(["rm", "q/p2.txt"], 0, ""),
  P(["rmdir", "q"], 0, ""),
  P(["cat", "gone"], 1, "", "fsprobe: cat: gone: No such file or directory\n"),
);

let pass = 0;
let fail = 0;
for (const [argv, stdin, code, out, err, module] of steps) {
  const r = await run(argv, stdin, module);
  if (out === null && r.code === code && /^11 \d+ file\n$/.test(r.out)) {
    pass++;
    continue;
  }
  if (r.code === code && r.out === out && r.err === err) pass++;
  else {
    fail++;
    console.log(`FAIL ${argv.join(" ")}: [${r.code}] out=${JSON.stringify(r.out)} err=${JSON.stringify(r.err)}`);
  }
}
console.log(`${pass} passed, ${fail} failed`);
process.exitCode = fail ? 1 : 0;
