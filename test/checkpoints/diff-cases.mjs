// Pairs of trees whose diff Toolshed must print exactly as `git diff --no-index OLD NEW` does
// (test/checkpoints/diff.test.ts; git's side is run by git.global.mjs). A tree maps a path to a
// string (file content, 0644), {content, mode} or {link: target}.

const lines = (n, f = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join("");
/** A small deterministic generator, so the big cases are the same on both sides. */
function rng(seed) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648), s / 2147483648);
}
function scattered(seed, n, edits) {
  const r = rng(seed);
  const a = Array.from({ length: n }, (_, i) => `row ${i} ${Math.floor(r() * 1000)}`);
  const b = [...a];
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(r() * b.length);
    const op = Math.floor(r() * 3);
    if (op === 0) b.splice(at, 1);
    else if (op === 1) b.splice(at, 0, `inserted ${k}`);
    else b[at] = `changed ${k}`;
  }
  return [a.join("\n") + "\n", b.join("\n") + "\n"];
}
const C_OLD = `#include <stdio.h>\n\nint helper(int x)\n{\n\treturn x * 2;\n}\n\nint main(void)\n{\n\tint a = 1;\n\tint b = 2;\n\tint c = 3;\n\tint d = 4;\n\tprintf("%d\\n", a + b + c + d);\n\treturn 0;\n}\n`;
const C_NEW = C_OLD.replace("\tint c = 3;\n", "\tint c = 30;\n");
const BLOCK_OLD = `function a() {\n  one();\n}\n\nfunction c() {\n  three();\n}\n`;
const BLOCK_NEW = `function a() {\n  one();\n}\n\nfunction b() {\n  two();\n}\n\nfunction c() {\n  three();\n}\n`;
const BRACES_OLD = Array.from({ length: 12 }, (_, i) => `if (x${i}) {\n  y${i}();\n}\n\n`).join("");
const BRACES_NEW = BRACES_OLD.replace("  y3();\n", "  y3();\n  z3();\n").replace("if (x8) {\n  y8();\n}\n\n", "");
const TABS_OLD = `class A:\n\tdef f(self):\n\t\treturn 1\n\n\tdef g(self):\n\t\treturn 2\n`;
const TABS_NEW = `class A:\n\tdef f(self):\n\t\treturn 1\n\n\tdef h(self):\n\t\treturn 3\n\n\tdef g(self):\n\t\treturn 2\n`;
const [BIG_OLD, BIG_NEW] = scattered(7, 300, 20);
const [MID_OLD, MID_NEW] = scattered(11, 60, 6);
const LONG = "x".repeat(120);

export const DIFF_CASES = [
  { name: "one changed line", from: { "f.txt": "a\nb\nc\n" }, to: { "f.txt": "a\nB\nc\n" } },
  { name: "line added at the end", from: { "f.txt": "a\nb\n" }, to: { "f.txt": "a\nb\nc\n" } },
  { name: "line removed at the start", from: { "f.txt": "a\nb\nc\n" }, to: { "f.txt": "b\nc\n" } },
  { name: "new file", from: {}, to: { "new.txt": "hello\nworld\n" } },
  { name: "deleted file", from: { "gone.txt": "bye\n" }, to: {} },
  { name: "new empty file", from: {}, to: { empty: "" } },
  { name: "deleted empty file", from: { empty: "" }, to: {} },
  { name: "mode change only", from: { "run.sh": "echo hi\n" }, to: { "run.sh": { content: "echo hi\n", mode: 0o755 } } },
  { name: "mode and content change", from: { "run.sh": "echo hi\n" }, to: { "run.sh": { content: "echo bye\n", mode: 0o755 } } },
  { name: "old side has no final newline", from: { f: "a\nb" }, to: { f: "a\nb\n" } },
  { name: "new side has no final newline", from: { f: "a\nb\n" }, to: { f: "a\nb" } },
  { name: "both without final newline", from: { f: "x\ny" }, to: { f: "x\nz" } },
  { name: "binary file changed", from: { "bin.dat": "\u0000\u0001abc" }, to: { "bin.dat": "\u0000\u0002abd" } },
  { name: "new binary file", from: {}, to: { "img.bin": "PNG\u0000\u0000data" } },
  { name: "symlink added", from: { "t.txt": "t\n" }, to: { "t.txt": "t\n", ln: { link: "t.txt" } } },
  { name: "symlink target changed", from: { ln: { link: "a" } }, to: { ln: { link: "b/c" } } },
  { name: "exact rename", from: { "old-name.txt": "same\ncontent\n" }, to: { "new-name.txt": "same\ncontent\n" } },
  { name: "rename into a subfolder", from: { "x.md": "# doc\n\ntext\n" }, to: { "docs/x.md": "# doc\n\ntext\n" } },
  { name: "git's walk order (a/x before a.txt)", from: { "a.txt": "1\n", "a/x": "2\n", b: "3\n" }, to: { "a.txt": "1!\n", "a/x": "2!\n", b: "3!\n" } },
  { name: "two hunks far apart", from: { f: lines(60) }, to: { f: lines(60).replace("line 5\n", "five\n").replace("line 50\n", "fifty\n") } },
  { name: "changes 6 lines apart share a hunk", from: { f: lines(30) }, to: { f: lines(30).replace("line 10\n", "ten\n").replace("line 17\n", "seventeen\n") } },
  { name: "changes 7 lines apart split hunks", from: { f: lines(30) }, to: { f: lines(30).replace("line 10\n", "ten\n").replace("line 18\n", "eighteen\n") } },
  { name: "function name in the hunk header", from: { "main.c": C_OLD }, to: { "main.c": C_NEW } },
  { name: "indent heuristic places an inserted block", from: { "a.js": BLOCK_OLD }, to: { "a.js": BLOCK_NEW } },
  { name: "many repeated lines (braces, blanks)", from: { "r.c": BRACES_OLD }, to: { "r.c": BRACES_NEW } },
  { name: "whole file replaced", from: { f: "a\nb\nc\n" }, to: { f: "x\ny\n" } },
  { name: "file emptied", from: { f: "a\nb\n" }, to: { f: "" } },
  { name: "empty file filled", from: { f: "" }, to: { f: "now\nsome\n" } },
  { name: "CRLF lines", from: { "w.txt": "a\r\nb\r\nc\r\n" }, to: { "w.txt": "a\r\nB\r\nc\r\n" } },
  { name: "UTF-8 text", from: { "u.txt": "café\nnaïve\n😀\n" }, to: { "u.txt": "café\nnaive\n😀 ok\n" } },
  { name: "long function line is cut at 80 bytes", from: { "l.txt": `${LONG}\n${lines(8)}` }, to: { "l.txt": `${LONG}\n${lines(8).replace("line 7\n", "seven\n")}` } },
  {
    name: "several files across folders",
    from: { "a/1": "1\n", "a/b/2": "2\n", "c/3": "3\n", d: "4\n" },
    to: { "a/1": "one\n", "a/b/2": "2\n", "c/3": "three\n", e: "5\n" },
  },
  { name: "300 lines, 20 scattered edits", from: { "big.txt": BIG_OLD }, to: { "big.txt": BIG_NEW } },
  { name: "60 lines, 6 scattered edits", from: { "mid.txt": MID_OLD }, to: { "mid.txt": MID_NEW } },
  { name: "tab-indented insertion", from: { "a.py": TABS_OLD }, to: { "a.py": TABS_NEW } },
  { name: "block moved from top to bottom", from: { m: lines(12) }, to: { m: lines(12).split("\n").slice(3, 12).join("\n") + "\nline 1\nline 2\nline 3\n" } },
  { name: "file in a deleted folder and a new folder", from: { "old/a": "a\n", "old/b": "b\n" }, to: { "new/c": "c\n" } },
];
