// The diff table (issue 26, "GNU diff's choice among equal hunks"): pairs of files, random but
// seeded, with the options agents pass, plus edge pairs and directory trees for -r. Each chunk is
// one bash script: it writes its files (base64, so tabs, carriage returns and missing newlines
// survive) and runs diff on each case, printing a marker and the exit code after each. The same
// scripts run in Debian's bash as `nobody` (diff.global.mjs) and in a session (diff.test.ts).

/** Random pairs in the table; each gets one option set of OPTIONS in turn. */
export const PAIRS = 300;
const CHUNK = 40;

/** Option sets, cycled over the random pairs. */
const OPTIONS = [
  "",
  "-u",
  "-c",
  "-U0",
  "-U1",
  "-w",
  "-b",
  "-B",
  "-i",
  "-q",
  "-u -w",
  "-c -b",
  "-u -B",
  "-d",
  "-Z",
  "-E",
  "-C1 -i",
  "-e",
  "-n",
  "-s",
  "-B -w",
  "-I '^#'",
  "--strip-trailing-cr -u",
  "-H",
];

/** Lines the random files are made of: repeats, blanks, braces, spaces, tabs, case, a CR. */
const WORDS = ["a", "b", "c", "", "", "}", "{", "  a", "a  ", "A", "end", "\tb", "# note", "x y", "x  y", "a\r", " ", "fi", "done"];

/** mulberry32: a small seeded generator, so the table is the same on every run. */
function prng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
  };
}

function randomPair(seed) {
  const r = prng(seed);
  const pick = (k) => Math.floor(r(k));
  const vocab = seed % 2 ? WORDS.length : 5;
  const n = seed % 5 === 0 ? pick(250) : pick(30);
  const a = Array.from({ length: n }, () => WORDS[pick(vocab)]);
  const b = [...a];
  const edits = n > 60 ? pick(40) : pick(7);
  for (let e = 0; e < edits; e++) {
    const at = pick(b.length + 1);
    const w = WORDS[pick(vocab)];
    const kind = pick(3);
    if (kind === 0 && at < b.length) b.splice(at, 1);
    else if (kind === 1 && at < b.length) b[at] = w;
    else b.splice(at, 0, w);
  }
  if (pick(6) === 0) a.reverse();
  const text = (lines) => (lines.length === 0 ? "" : lines.join("\n") + (pick(6) === 0 ? "" : "\n"));
  return [text(a), text(b)];
}

/** Hand-picked pairs: empty files, missing newlines, moved blocks, blank-line runs. */
const EDGES = [
  ["", "a\n", ""],
  ["a\n", "", "-u"],
  ["a", "a\n", ""],
  ["a", "a\n", "-u"],
  ["a", "a\n", "-b"],
  ["a", "a\n", "-w"],
  ["a\nb", "a\nc", "-c"],
  ["x\n\ny\n\nz\n", "x\n\nz\n", ""],
  ["x\n\ny\n\nz\n", "x\n\nz\n", "-u"],
  ["{\n  a\n}\n{\n  b\n}\n", "{\n  a\n}\n{\n  c\n}\n{\n  b\n}\n", "-u"],
  ["1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "-s"],
  ["a\n\n\nb\n", "a\nb\n", "-B"],
  ["a\n\n\nb\n", "a\n  \nb\n", "-B"],
  ["a\n\n\nb\n", "a\n  \nb\n", "-B -b"],
  ["a\nb\nc\nd\ne\nf\ng\n", "a\nb\n\nc\nd\ne\nf\ng\nh\n", "-B -U1"],
  ["[server]\nhost = 0.0.0.0\nport = 8080\n\n[log]\nlevel = info\n", "[server]\nport = 9090\n\n[log]\nlevel = debug\n", "-u"],
  ["; c\n[s]\nh = 0\np = 1\nw = 4\n\n[d]\nu = x\np = 10\n\n[l]\nl = i\n", "[s]\np = 9\n\n[l]\nl = d\nf = t\n", ""],
];

/** Directory trees for -r: files on one side only, a subdirectory, a changed file. */
const TREES = [
  { A: { "f.txt": "a\nb\n", "only-a": "x\n", "sub/g": "1\n2\n3\n" }, B: { "f.txt": "a\nc\n", "only-b": "y\n", "sub/g": "1\n3\n" } },
  { A: { "x/y/z": "z\n", same: "s\n" }, B: { "x/y/z": "Z\n", same: "s\n", "x/new": "n\n" } },
];
const TREE_OPTIONS = ["-r", "-rq", "-rN", "-rb", "-rw"];

const b64 = (s) => Buffer.from(s, "utf8").toString("base64");
const put = (path, text) => `mkdir -p "$(dirname ${path})"; printf %s '${b64(text)}' | base64 -d > ${path}`;

/** Every case: { name, opts, write (bash lines), run (the diff command) }. */
export function diffCases() {
  const cases = [];
  for (let i = 0; i < PAIRS; i++) {
    const [a, b] = randomPair(i + 1);
    cases.push({ name: `pair ${i}`, opts: OPTIONS[i % OPTIONS.length], a, b });
  }
  EDGES.forEach(([a, b, opts], i) => cases.push({ name: `edge ${i}`, opts, a, b }));
  const list = cases.map((c, i) => ({
    name: c.name,
    write: [put(`p${i}/a`, c.a), put(`p${i}/b`, c.b)],
    run: `diff ${c.opts} --label A --label B p${i}/a p${i}/b`,
  }));
  TREES.forEach((t, k) => {
    const write = [];
    for (const side of ["A", "B"]) for (const [f, text] of Object.entries(t[side])) write.push(put(`t${k}/${side}/${f}`, text));
    // Every case writes its tree: the chunks run in directories of their own.
    for (const opts of TREE_OPTIONS) list.push({ name: `tree ${k} ${opts}`, write, run: `diff ${opts} t${k}/A t${k}/B` });
    list.push({ name: `tree ${k} missing`, write: [], run: `diff -r t${k}/nope t${k}/gone` });
  });
  return list;
}

/** The cases in chunks, each one bash script; a case's output ends with `<<rc=N>>`. */
export function diffScripts() {
  const cases = diffCases();
  const scripts = [];
  for (let i = 0; i < cases.length; i += CHUNK) {
    const part = cases.slice(i, i + CHUNK);
    const lines = part.flatMap((c) => c.write);
    for (const c of part) lines.push(`${c.run} 2>&1; echo "<<rc=$?>>"`);
    scripts.push({ names: part.map((c) => c.name), runs: part.map((c) => c.run), script: lines.join("\n") + "\n" });
  }
  return scripts;
}

/** One script's output, split by case. */
export function splitOutput(out) {
  return out.split(/(?<=<<rc=\d+>>\n)/);
}
