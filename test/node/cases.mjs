// The Node scripts of test/node/node-table.test.ts: the kinds agents write. Each case is files
// (written into its own directory) and a command line run there, by Debian's node in
// reference.global.mjs and by the session's `node` in the test. stdout, stderr and the exit code
// must be equal, except where `known` names a difference that comes from the engine (QuickJS,
// not V8) and says how the case is compared instead.

/** Stack traces differ (QuickJS frames, not V8's): the error's own line must be there, and the exit code equal. */
export const STACK = "uncaught error: Node prints the source line and V8's stack; QuickJS's stack has other frames";

const js = (name, code, more = {}) => ({ name, cmd: "node main.js", ...more, files: { "main.js": code, ...(more.files ?? {}) } });
const mjs = (name, code, more = {}) => ({ name, cmd: "node main.mjs", ...more, files: { "main.mjs": code, ...(more.files ?? {}) } });
const ev = (name, code, more = {}) => ({ name, cmd: `node -e '${code}'`, ...more, files: more.files ?? {} });

const CSV = "name,age,city\nAda,36,London\nLinus,28,Helsinki\nGrace,45,New York\n";
const DATA = JSON.stringify(
  {
    users: [
      { id: 1, name: "ada", tags: ["a", "b"] },
      { id: 2, name: "bob", tags: [] },
    ],
    total: 2,
  },
  null,
  2,
);
const TREE = { "tree/a.txt": "alpha\n", "tree/b.md": "# B\n", "tree/sub/c.txt": "gamma\nline2\n", "tree/sub/deep/d.json": '{"d":4}\n', "tree/sub/deep/e.txt": "" };

export const CASES = [
  // --- basics: console, -e, -p ---
  ev("e-hello", 'console.log("hello")'),
  ev("e-multi-args", 'console.log("a", 1, true, null, undefined)'),
  { name: "p-arith", files: {}, cmd: "node -p '6*7'" },
  { name: "p-string", files: {}, cmd: `node -p '"abc".toUpperCase()'` },
  { name: "p-object", files: {}, cmd: "node -p '({a: 1, b: [1, 2]})'" },
  ev("e-format-specifiers", 'console.log("%s is %d years and %i days, %j", "Ada", 36.5, 7.9, {x:1})'),
  ev("e-percent-literal", 'console.log("100%% sure", 5)'),
  ev("e-console-error", 'console.error("to stderr"); console.log("to stdout")'),
  ev("e-console-warn-info", 'console.warn("w"); console.info("i"); console.debug("d")'),
  ev("e-nested-object", "console.log({a: {b: {c: {d: 1}}}})"),
  ev("e-array-of-objects", "console.log([{id: 1, ok: true}, {id: 2, ok: false}])"),
  ev("e-strings-in-array", 'console.log(["a", "b c", "it\\x27s"])', {
    known: "util.inspect quoting: the npm util package escapes a quote inside single quotes; Node switches to double quotes",
    compare: "exit",
  }),
  ev("e-empty-values", 'console.log([], {}, "", [[]])'),
  ev("e-numbers", "console.log(0.1 + 0.2, 1e21, -0, NaN, Infinity, 2**53)"),
  ev("e-bigint", "console.log(2n ** 64n, typeof 1n)"),
  ev("e-json-stringify-pretty", 'console.log(JSON.stringify({a: [1, {b: 2}], c: "x"}, null, 2))'),
  ev("e-process-argv-length", "console.log(process.argv.length, process.argv.slice(1))", {
    cmd: "node -e 'console.log(process.argv.length, process.argv.slice(2))' one two",
  }),
  ev("e-typeof", "console.log(typeof require, typeof module, typeof process, typeof Buffer, typeof setTimeout)"),
  { name: "version-flag-shape", files: {}, cmd: "node --version | grep -cE '^v[0-9]+\\.[0-9]+\\.[0-9]+$'" },
  ev("e-console-log-no-args", 'console.log(); console.log("after")'),

  // --- JSON ---
  js(
    "json-read-parse",
    `const fs = require("fs");\nconst d = JSON.parse(fs.readFileSync("data.json", "utf8"));\nconsole.log(d.total, d.users.map(u => u.name).join(","));\n`,
    { files: { "data.json": DATA } },
  ),
  js("json-require", `const d = require("./data.json");\nconsole.log(d.users.length, d.users[0].tags);\n`, { files: { "data.json": DATA } }),
  js(
    "json-write-pretty",
    `const fs = require("fs");\nfs.writeFileSync("out.json", JSON.stringify({b: 2, a: [1, 2]}, null, 2) + "\\n");\nprocess.stdout.write(fs.readFileSync("out.json", "utf8"));\n`,
  ),
  js("json-invalid", `try { JSON.parse("{bad"); } catch (e) { console.log(e.name); }\n`),
  js(
    "json-filter-map",
    `const d = require("./data.json");\nconst tagged = d.users.filter(u => u.tags.length).map(u => ({ id: u.id, n: u.tags.length }));\nconsole.log(JSON.stringify(tagged));\n`,
    { files: { "data.json": DATA } },
  ),
  js(
    "json-sort-keys",
    `const o = { b: 1, a: 2, c: { z: 1, y: 2 } };\nconst sort = v => v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sort(v[k])])) : v;\nconsole.log(JSON.stringify(sort(o)));\n`,
  ),
  js("json-replacer", `console.log(JSON.stringify({ a: 1, secret: "x", b: [1, 2] }, (k, v) => k === "secret" ? undefined : v));\n`),
  js(
    "json-reviver-date",
    `const o = JSON.parse('{"when":"2024-01-02T03:04:05.000Z"}', (k, v) => k === "when" ? new Date(v) : v);\nconsole.log(o.when.toISOString(), o.when.getUTCFullYear());\n`,
  ),
  js(
    "json-lines",
    `const lines = require("fs").readFileSync("log.jsonl", "utf8").trim().split("\\n").map(JSON.parse);\nconsole.log(lines.filter(l => l.level === "error").length, lines[0].msg);\n`,
    { files: { "log.jsonl": '{"level":"info","msg":"start"}\n{"level":"error","msg":"x"}\n{"level":"error","msg":"y"}\n' } },
  ),
  js(
    "json-group-count",
    `const rows = [{t:"a"},{t:"b"},{t:"a"},{t:"c"},{t:"a"}];\nconst counts = rows.reduce((m, r) => (m[r.t] = (m[r.t] || 0) + 1, m), {});\nconsole.log(counts);\nconsole.log(Object.entries(counts).sort((x, y) => y[1] - x[1])[0]);\n`,
  ),
  js(
    "json-stdin",
    `let s = "";\nprocess.stdin.on("data", c => s += c);\nprocess.stdin.on("end", () => { const o = JSON.parse(s); console.log(Object.keys(o).join("|")); });\n`,
    { stdin: '{"x":1,"y":2}' },
  ),
  js("json-package-version", `const pkg = require("./package.json");\nconsole.log(pkg.name + "@" + pkg.version);\n`, {
    files: { "package.json": '{"name":"demo","version":"1.2.3"}' },
  }),

  // --- CSV and text ---
  js(
    "csv-parse",
    `const [head, ...rows] = require("fs").readFileSync("people.csv", "utf8").trim().split("\\n").map(l => l.split(","));\nconst objs = rows.map(r => Object.fromEntries(head.map((h, i) => [h, r[i]])));\nconsole.log(objs);\n`,
    {
      files: { "people.csv": CSV },
      known: "util.inspect layout: the npm util package breaks long arrays and objects differently from Node (one entry per line past 72 characters)",
      compare: "exit",
    },
  ),
  js(
    "csv-average",
    `const rows = require("fs").readFileSync("people.csv", "utf8").trim().split("\\n").slice(1).map(l => l.split(","));\nconst avg = rows.reduce((s, r) => s + Number(r[1]), 0) / rows.length;\nconsole.log(avg.toFixed(2));\n`,
    { files: { "people.csv": CSV } },
  ),
  js(
    "csv-to-json-file",
    `const fs = require("fs");\nconst [h, ...rs] = fs.readFileSync("people.csv", "utf8").trim().split("\\n").map(l => l.split(","));\nfs.writeFileSync("people.json", JSON.stringify(rs.map(r => Object.fromEntries(h.map((k, i) => [k, r[i]])))));\nconsole.log(fs.statSync("people.json").size > 0, require("./people.json")[2].city);\n`,
    { files: { "people.csv": CSV } },
  ),
  js(
    "csv-quoted",
    `const line = 'a,"b,c",d,"e ""q"""';\nconst out = [];\nlet cur = "", q = false;\nfor (let i = 0; i < line.length; i++) { const ch = line[i];\n  if (q) { if (ch === '"' && line[i+1] === '"') { cur += '"'; i++; } else if (ch === '"') q = false; else cur += ch; }\n  else if (ch === '"') q = true; else if (ch === ",") { out.push(cur); cur = ""; } else cur += ch; }\nout.push(cur);\nconsole.log(out);\n`,
  ),
  js(
    "csv-write",
    `const rows = [["id","name"],[1,"a,b"],[2,'say "hi"']];\nconst esc = v => /[",\\n]/.test(String(v)) ? '"' + String(v).replace(/"/g, '""') + '"' : String(v);\nprocess.stdout.write(rows.map(r => r.map(esc).join(",")).join("\\n") + "\\n");\n`,
  ),
  js(
    "text-word-count",
    `const text = require("fs").readFileSync("t.txt", "utf8");\nconst words = text.toLowerCase().match(/[a-z']+/g);\nconst freq = {};\nfor (const w of words) freq[w] = (freq[w] || 0) + 1;\nconsole.log(Object.entries(freq).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3));\n`,
    { files: { "t.txt": "The cat and the hat. The end, and the start!\n" } },
  ),
  js("text-line-numbers", `require("fs").readFileSync("t.txt", "utf8").split("\\n").forEach((l, i) => l && console.log(String(i + 1).padStart(3) + ": " + l));\n`, {
    files: { "t.txt": "one\ntwo\nthree\n" },
  }),
  js(
    "text-replace-file",
    `const fs = require("fs");\nconst s = fs.readFileSync("cfg.ini", "utf8").replace(/^port=.*$/m, "port=8080");\nfs.writeFileSync("cfg.ini", s);\nprocess.stdout.write(fs.readFileSync("cfg.ini", "utf8"));\n`,
    { files: { "cfg.ini": "host=x\nport=80\nmode=dev\n" } },
  ),
  js(
    "text-grep-like",
    `const re = new RegExp(process.argv[2]);\nfor (const [i, l] of require("fs").readFileSync(process.argv[3], "utf8").split("\\n").entries()) if (re.test(l)) console.log(i + 1 + ":" + l);\n`,
    { files: { "f.txt": "apple\nbanana\napricot\n" }, cmd: "node main.js ^ap f.txt" },
  ),
  js("text-unique-sorted", `const lines = require("fs").readFileSync(0, "utf8").split("\\n").filter(Boolean);\nconsole.log([...new Set(lines)].sort().join("\\n"));\n`, {
    stdin: "b\na\nb\nc\na\n",
  }),
  js("text-unicode", `const s = "naïve café 🙂";\nconsole.log(s.length, [...s].length, s.normalize("NFD").length, Buffer.byteLength(s));\n`),
  js("text-template", `const name = "World", n = 3;\nconsole.log(\`Hello, \${name}! You have \${n} new message\${n === 1 ? "" : "s"}.\`);\n`),
  js(
    "string-methods",
    `const s = "  Hello, World  ";\nconsole.log([s.trim(), s.trimStart().length, s.includes("World"), s.indexOf("o"), s.split(",").map(x => x.trim()), s.at(-3), "ab".repeat(3), "x".padEnd(4, "-") + "|"]);\n`,
    { known: "util.inspect layout: the npm util package breaks long arrays and objects differently from Node (one entry per line past 72 characters)", compare: "exit" },
  ),
  js(
    "string-regex-groups",
    `const m = "2024-03-15".match(/(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})/);\nconsole.log(m.groups.y, m.groups.m, m.groups.d);\nconsole.log("a1b22c333".replace(/\\d+/g, d => "[" + d.length + "]"));\n`,
  ),
  js("string-matchall", `const s = "key1=val1; key2=val2; key3=val3";\nfor (const [, k, v] of s.matchAll(/(\\w+)=(\\w+)/g)) console.log(k, "->", v);\n`),
  js(
    "string-slugify",
    `const slug = s => s.toLowerCase().normalize("NFD").replace(/[\\u0300-\\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");\nconsole.log(slug("Héllo Wörld! It's 2024"));\n`,
  ),
  js(
    "string-camel-snake",
    `const snake = s => s.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();\nconst camel = s => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());\nconsole.log(snake("parseHttpResponseCode"), camel("user_id_number"));\n`,
  ),
  js("string-localecompare-sort", `console.log(["banana", "Apple", "cherry", "apple"].sort((a, b) => a.localeCompare(b)));\nconsole.log(["b", "a", "C"].sort());\n`, {
    known: "localeCompare: QuickJS has no ICU and compares code points, so Apple sorts before apple",
    compare: "exit",
  }),
  js(
    "number-formatting",
    `console.log((1234.5678).toFixed(2), (0.000123).toExponential(1), (255).toString(16), parseInt("ff", 16), Number("12px"), parseFloat("3.14abc"));\n`,
  ),
  js("number-intl", `console.log((1234567.891).toLocaleString("en-US"), new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(12.5));\n`, {
    known: "Intl: QuickJS has no Intl object (ReferenceError), and toLocaleString gives plain digits",
    compare: "none",
  }),
  js(
    "date-iso",
    `const d = new Date(Date.UTC(2024, 0, 31, 12, 30));\nconsole.log(d.toISOString(), d.getTime(), JSON.stringify({ d }));\nconst next = new Date(d); next.setUTCMonth(1);\nconsole.log(next.toISOString());\n`,
  ),
  js("date-diff-days", `const a = new Date("2024-01-01T00:00:00Z"), b = new Date("2024-03-01T00:00:00Z");\nconsole.log((b - a) / 86400000);\n`),

  // --- path ---
  js(
    "path-join-resolve",
    `const path = require("path");\nconsole.log(path.join("/a/b", "../c", "./d.txt"), path.normalize("a//b/../c/"), path.isAbsolute("/x"), path.isAbsolute("x"));\n`,
  ),
  js(
    "path-parse",
    `const path = require("path");\nconsole.log(path.parse("/home/u/file.tar.gz"));\nconsole.log(path.basename("/x/y.js", ".js"), path.extname("a.b.c"), path.dirname("/x/y/z"));\n`,
    { known: "util.inspect layout: the npm util package breaks long arrays and objects differently from Node (one entry per line past 72 characters)", compare: "exit" },
  ),
  js("path-relative", `const path = require("path");\nconsole.log(path.relative("/data/a/b", "/data/c/d"), path.relative("/x", "/x"), path.sep, path.delimiter);\n`),
  js("path-format", `const path = require("path");\nconsole.log(path.format({ dir: "/tmp", name: "f", ext: ".txt" }), path.posix.join("a", "b"));\n`),
  js("path-resolve-cwd", `const path = require("path");\nconsole.log(path.resolve("x/y") === path.join(process.cwd(), "x/y"), path.resolve("/a", "b", "../c"));\n`),
  js("path-dirname-filename", `const path = require("path");\nconsole.log(path.basename(__filename), path.basename(__dirname) === path.basename(process.cwd()));\n`),

  // --- fs ---
  js("fs-exists", `const fs = require("fs");\nconsole.log(fs.existsSync("main.js"), fs.existsSync("nope.txt"), fs.existsSync("."));\n`),
  js(
    "fs-mkdir-recursive",
    `const fs = require("fs");\nconsole.log(fs.mkdirSync("a/b/c", { recursive: true }).endsWith("/a"));\nconsole.log(fs.mkdirSync("a/b/c", { recursive: true }));\nconsole.log(fs.statSync("a/b/c").isDirectory());\n`,
  ),
  js("fs-mkdir-exists-error", `const fs = require("fs");\nfs.mkdirSync("d");\ntry { fs.mkdirSync("d"); } catch (e) { console.log(e.code, e.syscall, e.message); }\n`),
  js("fs-read-missing", `const fs = require("fs");\ntry { fs.readFileSync("missing.txt"); } catch (e) { console.log(e.code, e.errno, e.syscall, e.path, e.message); }\n`),
  js(
    "fs-append",
    `const fs = require("fs");\nfs.writeFileSync("log.txt", "a\\n");\nfs.appendFileSync("log.txt", "b\\n");\nfs.appendFileSync("log.txt", "c\\n");\nprocess.stdout.write(fs.readFileSync("log.txt", "utf8"));\n`,
  ),
  js("fs-append-creates", `const fs = require("fs");\nfs.appendFileSync("new.txt", "x");\nconsole.log(fs.readFileSync("new.txt", "utf8"));\n`),
  js("fs-readdir-sorted", `const fs = require("fs");\nconsole.log(fs.readdirSync("tree"));\nconsole.log(fs.readdirSync("tree/sub"));\n`, { files: TREE }),
  js(
    "fs-readdir-types",
    `const fs = require("fs");\nfor (const e of fs.readdirSync("tree", { withFileTypes: true })) console.log(e.name, e.isDirectory(), e.isFile());\n`,
    { files: TREE },
  ),
  js(
    "fs-walk-recursive",
    `const fs = require("fs"), path = require("path");\nfunction walk(d) { return fs.readdirSync(d, { withFileTypes: true }).flatMap(e => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]); }\nconsole.log(walk("tree").join("\\n"));\n`,
    { files: TREE },
  ),
  js(
    "fs-walk-sizes",
    `const fs = require("fs"), path = require("path");\nlet total = 0, files = 0;\n(function walk(d) { for (const n of fs.readdirSync(d)) { const p = path.join(d, n); const s = fs.statSync(p); if (s.isDirectory()) walk(p); else { total += s.size; files++; } } })("tree");\nconsole.log(files, total);\n`,
    { files: TREE },
  ),
  js(
    "fs-walk-ext-filter",
    `const fs = require("fs"), path = require("path");\nconst out = [];\n(function walk(d) { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (path.extname(p) === ".txt") out.push(p); } })("tree");\nconsole.log(out);\n`,
    { files: TREE },
  ),
  js("fs-readdir-recursive-option", `const fs = require("fs");\nconsole.log(fs.readdirSync("tree", { recursive: true }).sort());\n`, {
    files: TREE,
    known: "util.inspect layout: the npm util package breaks long arrays and objects differently from Node (one entry per line past 72 characters)",
    compare: "exit",
  }),
  js(
    "fs-stat-file",
    `const fs = require("fs");\nconst s = fs.statSync("tree/sub/c.txt");\nconsole.log(s.size, s.isFile(), s.isDirectory(), s.mtime instanceof Date, typeof s.mtimeMs);\n`,
    { files: TREE },
  ),
  js("fs-stat-missing-nothrow", `const fs = require("fs");\nconsole.log(fs.statSync("nope", { throwIfNoEntry: false }));\n`),
  js(
    "fs-rename",
    `const fs = require("fs");\nfs.writeFileSync("a.txt", "A");\nfs.renameSync("a.txt", "b.txt");\nconsole.log(fs.existsSync("a.txt"), fs.readFileSync("b.txt", "utf8"));\n`,
  ),
  js(
    "fs-copyfile",
    `const fs = require("fs");\nfs.writeFileSync("src.txt", "copy me");\nfs.copyFileSync("src.txt", "dst.txt");\nconsole.log(fs.readFileSync("dst.txt", "utf8"), fs.readFileSync("src.txt", "utf8"));\n`,
  ),
  js("fs-copyfile-missing", `const fs = require("fs");\ntry { fs.copyFileSync("none.txt", "x.txt"); } catch (e) { console.log(e.code, e.syscall); }\n`),
  js(
    "fs-rm-recursive",
    `const fs = require("fs");\nfs.mkdirSync("x/y", { recursive: true });\nfs.writeFileSync("x/y/f", "1");\nfs.rmSync("x", { recursive: true, force: true });\nconsole.log(fs.existsSync("x"));\nfs.rmSync("never", { force: true });\nconsole.log("ok");\n`,
  ),
  js("fs-rm-missing-error", `const fs = require("fs");\ntry { fs.rmSync("never"); } catch (e) { console.log(e.code); }\n`),
  js(
    "fs-unlink",
    `const fs = require("fs");\nfs.writeFileSync("t", "");\nfs.unlinkSync("t");\ntry { fs.unlinkSync("t"); } catch (e) { console.log(e.code, e.syscall); }\n`,
  ),
  js(
    "fs-rmdir-notempty",
    `const fs = require("fs");\nfs.mkdirSync("d");\nfs.writeFileSync("d/f", "");\ntry { fs.rmdirSync("d"); } catch (e) { console.log(e.code, e.syscall); }\n`,
  ),
  js("fs-readfile-buffer", `const fs = require("fs");\nconst b = fs.readFileSync("bin.txt");\nconsole.log(Buffer.isBuffer(b), b.length, b[0], b.toString("hex"));\n`, {
    files: { "bin.txt": "AB\n" },
  }),
  js("fs-write-buffer", `const fs = require("fs");\nfs.writeFileSync("b.bin", Buffer.from([104, 105, 10]));\nprocess.stdout.write(fs.readFileSync("b.bin"));\n`),
  js("fs-read-dir-as-file", `const fs = require("fs");\nfs.mkdirSync("dd");\ntry { fs.readFileSync("dd"); } catch (e) { console.log(e.code); }\n`),
  js(
    "fs-callback-read",
    `const fs = require("fs");\nfs.readFile("t.txt", "utf8", (err, data) => { console.log("cb", err, data.trim()); });\nconsole.log("sync first");\n`,
    { files: { "t.txt": "hello\n" } },
  ),
  js("fs-callback-error", `const fs = require("fs");\nfs.readFile("missing", (err, data) => console.log(err.code, data));\n`),
  js(
    "fs-callback-write-then-read",
    `const fs = require("fs");\nfs.writeFile("w.txt", "written", err => { if (err) throw err; fs.readFile("w.txt", "utf8", (e, d) => console.log(d)); });\n`,
  ),
  js("fs-promises-read", `const fs = require("fs/promises");\n(async () => { const d = await fs.readFile("t.txt", "utf8"); console.log(d.length); })();\n`, {
    files: { "t.txt": "12345" },
  }),
  js(
    "fs-promises-write-stat",
    `const { writeFile, stat, readdir, mkdir } = require("fs").promises;\n(async () => { await mkdir("p/q", { recursive: true }); await writeFile("p/q/x.txt", "abc"); console.log((await stat("p/q/x.txt")).size, await readdir("p/q")); })();\n`,
  ),
  js("fs-promises-error", `const fs = require("node:fs/promises");\nfs.readFile("nope").catch(e => console.log("caught", e.code));\n`),
  js(
    "fs-promises-all",
    `const fs = require("fs/promises");\n(async () => { const names = ["a.txt", "b.txt"]; const all = await Promise.all(names.map(n => fs.readFile(n, "utf8"))); console.log(all.join("+")); })();\n`,
    { files: { "a.txt": "A", "b.txt": "B" } },
  ),
  js(
    "fs-access",
    `const fs = require("fs");\ntry { fs.accessSync("main.js"); console.log("ok"); fs.accessSync("nope"); } catch (e) { console.log(e.code, e.syscall); }\n`,
  ),
  js("fs-writefile-missing-dir", `const fs = require("fs");\ntry { fs.writeFileSync("no/such/dir.txt", "x"); } catch (e) { console.log(e.code, e.syscall, e.path); }\n`),
  js(
    "fs-open-write-close",
    `const fs = require("fs");\nconst fd = fs.openSync("o.txt", "w");\nfs.writeSync(fd, "line1\\n");\nfs.writeSync(fd, "line2\\n");\nfs.closeSync(fd);\nprocess.stdout.write(fs.readFileSync("o.txt", "utf8"));\n`,
  ),
  js(
    "fs-write-stream",
    `const fs = require("fs");\nconst ws = fs.createWriteStream("s.txt");\nws.write("a");\nws.write("b");\nws.end("c", () => console.log(fs.readFileSync("s.txt", "utf8")));\n`,
  ),
  js("fs-exists-callback", `const fs = require("fs");\nfs.exists("main.js", e => console.log("exists", e));\n`),
  js("fs-realpath", `const fs = require("fs");\nconsole.log(fs.realpathSync(".") === process.cwd());\n`),

  // --- process ---
  js("argv-basic", `console.log(process.argv.slice(2));\n`, { cmd: "node main.js a 'b c' --flag=1" }),
  js(
    "argv-parse-flags",
    `const args = {};\nfor (const a of process.argv.slice(2)) { const m = a.match(/^--([^=]+)(?:=(.*))?$/); if (m) args[m[1]] = m[2] ?? true; }\nconsole.log(args);\n`,
    { cmd: "node main.js --name=x --verbose --n=3" },
  ),
  js("argv-script-name", `const path = require("path");\nconsole.log(path.basename(process.argv[1]), path.basename(process.argv[0]));\n`),
  js("exit-code-explicit", `console.log("before");\nprocess.exit(3);\nconsole.log("after");\n`),
  js("exit-code-property", `process.exitCode = 4;\nconsole.log("set");\n`),
  js("exit-zero-explicit", `process.exit(0);\n`),
  js("exit-in-timer", `setTimeout(() => { console.log("t"); process.exit(2); }, 5);\nsetTimeout(() => console.log("never"), 50);\n`),
  js("exit-event", `process.on("exit", code => console.log("exiting", code));\nconsole.log("main");\n`),
  js("exit-event-with-code", `process.on("exit", code => console.log("exit", code));\nprocess.exitCode = 7;\n`),
  js("env-read", `console.log(process.env.GREETING, process.env.NOPE === undefined);\n`, { cmd: "GREETING=hi node main.js" }),
  js("env-default", `const port = parseInt(process.env.PORT || "3000", 10);\nconsole.log(port + 1);\n`),
  js(
    "process-cwd-chdir",
    `const path = require("path");\nconst fs = require("fs");\nfs.mkdirSync("sub");\nprocess.chdir("sub");\nconsole.log(path.basename(process.cwd()));\nfs.writeFileSync("inner.txt", "x");\nprocess.chdir("..");\nconsole.log(fs.existsSync("sub/inner.txt"));\n`,
  ),
  js("process-stdout-write", `process.stdout.write("no newline");\nprocess.stdout.write(" then\\n");\nprocess.stderr.write("err line\\n");\n`),
  js("process-platform", `console.log(process.platform, typeof process.pid, typeof process.hrtime.bigint());\n`),
  js(
    "process-nexttick-order",
    `setTimeout(() => console.log("timeout"), 0);\nPromise.resolve().then(() => console.log("promise"));\nprocess.nextTick(() => console.log("tick"));\nconsole.log("sync");\n`,
    {
      known: "process.nextTick runs as a microtask here (QuickJS has one job queue), so it may come after earlier promise reactions; in this case the order is the same",
    },
  ),
  js(
    "stdin-lines",
    `const lines = require("fs").readFileSync("/dev/stdin", "utf8").split("\\n").filter(Boolean);\nconsole.log(lines.length, lines.map(Number).reduce((a, b) => a + b, 0));\n`,
    { stdin: "1\n2\n3\n" },
  ),
  js(
    "stdin-readline",
    `const rl = require("readline").createInterface({ input: process.stdin });\nconst seen = [];\nrl.on("line", l => seen.push(l.toUpperCase()));\nrl.on("close", () => console.log(seen.join(",")));\n`,
    { stdin: "a\nb\nc\n" },
  ),
  js("stdin-for-await", `(async () => { let s = ""; for await (const c of process.stdin) s += c; console.log(s.trim().split(/\\s+/).length); })();\n`, {
    stdin: "one two three\nfour\n",
  }),
  js(
    "stdin-readline-async-iter",
    `const readline = require("readline");\n(async () => { const rl = readline.createInterface({ input: process.stdin }); let n = 0; for await (const line of rl) n += line.length; console.log(n); })();\n`,
    { stdin: "ab\ncde\n" },
  ),

  // --- errors ---
  js("throw-uncaught", `console.log("start");\nthrow new Error("boom");\n`, { known: STACK, compare: "error-line" }),
  js("throw-type-error", `const o = null;\no.x;\n`, {
    known: `${STACK}; and QuickJS words the TypeError differently ("cannot read property 'x' of null")`,
    compare: "exit",
  }),
  js("throw-string", `throw "plain string";\n`, { known: STACK, compare: "exit" }),
  js(
    "try-catch-finally",
    `function f() { try { throw new RangeError("r"); } catch (e) { console.log(e instanceof RangeError, e.name, e.message); return 1; } finally { console.log("finally"); } }\nconsole.log(f());\n`,
  ),
  js(
    "custom-error-class",
    `class AppError extends Error { constructor(msg, code) { super(msg); this.name = "AppError"; this.code = code; } }\ntry { throw new AppError("bad", 42); } catch (e) { console.log(e.name, e.message, e.code, e instanceof Error, e instanceof AppError, String(e)); }\n`,
  ),
  js(
    "error-cause",
    `try { try { JSON.parse("x"); } catch (e) { throw new Error("wrapped", { cause: e }); } } catch (e) { console.log(e.message, e.cause instanceof SyntaxError); }\n`,
  ),
  js("exit-after-error-handled", `try { require("fs").readFileSync("missing"); } catch (e) { console.error("Error:", e.code); process.exit(2); }\n`),
  js("require-missing-module", `try { require("./nope"); } catch (e) { console.log(e.code); }\n`),
  js("require-missing-package", `try { require("left-pad-not-here"); } catch (e) { console.log(e.code, e.message.split("\\n")[0]); }\n`),
  js("async-throw-caught", `async function f() { throw new Error("async boom"); }\nf().catch(e => { console.log("caught:", e.message); process.exitCode = 5; });\n`),
  js(
    "promise-reject-then-catch",
    `Promise.reject(new Error("nope")).then(() => console.log("no")).catch(e => console.log("handled", e.message)).finally(() => console.log("fin"));\n`,
  ),
  js("error-stack-is-string", `const e = new Error("x");\nconsole.log(typeof e.stack, e.stack.split("\\n")[0]);\n`, {
    known: "Error.stack: QuickJS's stack holds only the frames, not the Error: message line V8 puts first",
    compare: "exit",
  }),
  js(
    "assert-ok",
    `const assert = require("assert");\nassert.strictEqual(1, 1);\nassert.deepStrictEqual({ a: [1] }, { a: [1] });\nassert.ok(true);\nconsole.log("asserts passed");\n`,
  ),
  js(
    "assert-fail-caught",
    `const assert = require("assert");\ntry { assert.strictEqual(1, 2); } catch (e) { console.log(e.name, e.code); }\ntry { assert.deepStrictEqual({ a: 1 }, { a: 2 }); } catch (e) { console.log(e.code); }\ntry { assert(false, "custom msg"); } catch (e) { console.log(e.message); }\n`,
  ),
  js(
    "assert-throws",
    `const assert = require("assert");\nassert.throws(() => { throw new TypeError("t"); }, TypeError);\nassert.throws(() => { throw new Error("abc"); }, /abc/);\nconsole.log("ok");\n`,
  ),

  // --- classes and objects ---
  js(
    "class-basic",
    `class Point { constructor(x, y) { this.x = x; this.y = y; } get len() { return Math.hypot(this.x, this.y); } toString() { return \`(\${this.x}, \${this.y})\`; } static origin() { return new Point(0, 0); } }\nconst p = new Point(3, 4);\nconsole.log(p.len, String(p), Point.origin().len);\n`,
  ),
  js(
    "class-inherit",
    `class Animal { constructor(n) { this.name = n; } speak() { return this.name + " makes a sound"; } }\nclass Dog extends Animal { speak() { return super.speak() + " (woof)"; } }\nconst d = new Dog("Rex");\nconsole.log(d.speak(), d instanceof Animal, Object.getPrototypeOf(Dog) === Animal);\n`,
  ),
  js(
    "class-private-fields",
    `class Counter { #n = 0; static #instances = 0; constructor() { Counter.#instances++; } inc() { return ++this.#n; } static count() { return Counter.#instances; } }\nconst c = new Counter(); c.inc(); c.inc(); new Counter();\nconsole.log(c.inc(), Counter.count(), Object.keys(c));\n`,
  ),
  js("class-print-instance", `class User { constructor() { this.id = 1; this.name = "ada"; } }\nconsole.log(new User());\n`, {
    known: "util.inspect: the npm util package does not prefix class instances with their class name",
    compare: "exit",
  }),
  js(
    "object-entries-ops",
    `const o = { b: 2, a: 1, c: 3 };\nconsole.log(Object.keys(o), Object.values(o), Object.entries(o).map(([k, v]) => k + v).join(""));\nconsole.log(Object.fromEntries(Object.entries(o).filter(([, v]) => v > 1)));\n`,
  ),
  js(
    "object-spread-destructure",
    `const base = { a: 1, b: { c: 2 } };\nconst { a, b: { c }, d = "def" } = base;\nconst copy = { ...base, a: 10 };\nconsole.log(a, c, d, copy, base.a);\n`,
  ),
  js(
    "object-freeze",
    `"use strict";\nconst o = Object.freeze({ x: 1 });\ntry { o.x = 2; } catch (e) { console.log(e instanceof TypeError); }\nconsole.log(o.x, Object.isFrozen(o));\n`,
  ),
  js(
    "getters-setters",
    `const t = { _c: 0, get celsius() { return this._c; }, set fahrenheit(f) { this._c = (f - 32) * 5 / 9; } };\nt.fahrenheit = 212;\nconsole.log(t.celsius);\n`,
  ),
  js(
    "symbol-iterator",
    `class Range { constructor(a, b) { this.a = a; this.b = b; } *[Symbol.iterator]() { for (let i = this.a; i < this.b; i++) yield i; } }\nconsole.log([...new Range(1, 5)], Array.from(new Range(0, 3), x => x * 2));\n`,
  ),
  js(
    "map-set",
    `const m = new Map([["a", 1]]); m.set("b", 2);\nconst s = new Set([1, 2, 2, 3]);\nconsole.log(m.size, m.get("b"), [...m.keys()], s.size, s.has(2), [...s]);\n`,
  ),
  js("map-print", `console.log(new Map([["a", 1], ["b", { c: 2 }]]), new Set(["x", "y"]));\n`, {
    known: "util.inspect: the npm util package prints Map and Set as {}",
    compare: "exit",
  }),
  js(
    "weakmap-memo",
    `const cache = new WeakMap();\nfunction area(r) { if (!cache.has(r)) { console.log("compute"); cache.set(r, r.w * r.h); } return cache.get(r); }\nconst r = { w: 2, h: 3 };\nconsole.log(area(r), area(r));\n`,
  ),
  js(
    "array-methods",
    `const a = [5, 3, 8, 1];\nconsole.log(a.toSorted ? "has" : "no", [...a].sort((x, y) => x - y), a.map(x => x * 2), a.filter(x => x > 2), a.reduce((s, x) => s + x, 0), a.find(x => x > 4), a.findIndex(x => x === 8), a.some(x => x > 7), a.every(x => x > 0), a.includes(3), a.flatMap(x => [x, x]).length, [[1, [2]], [3]].flat(Infinity));\n`,
    { known: "engine version: Debian's node 18 has no Array.prototype.toSorted (ES2023); QuickJS and Node 20 have it", compare: "exit" },
  ),
  js(
    "array-chunk-zip",
    `const chunk = (a, n) => Array.from({ length: Math.ceil(a.length / n) }, (_, i) => a.slice(i * n, i * n + n));\nconst zip = (a, b) => a.map((x, i) => [x, b[i]]);\nconsole.log(chunk([1, 2, 3, 4, 5], 2), zip(["a", "b"], [1, 2]));\n`,
  ),
  js(
    "array-sort-stable-objects",
    `const people = [{ n: "b", a: 30 }, { n: "a", a: 25 }, { n: "c", a: 30 }];\nconsole.log(people.sort((x, y) => y.a - x.a).map(p => p.n).join(""));\n`,
  ),
  js(
    "closures-counter",
    `function makeCounter() { let n = 0; return { inc: () => ++n, get: () => n }; }\nconst c1 = makeCounter(), c2 = makeCounter();\nc1.inc(); c1.inc(); c2.inc();\nconsole.log(c1.get(), c2.get());\n`,
  ),
  js(
    "generators",
    `function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\nconst out = []; for (const x of fib()) { if (x > 50) break; out.push(x); }\nconsole.log(out.join(" "));\n`,
  ),
  js("recursion-deep-ok", `function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); }\nconsole.log(depth(2000));\n`, {
    known: "recursion depth: QuickJS runs on a JSPI stack, smaller than V8's main one: about 2,500 plain frames here, V8 has about 10,000",
    compare: "none",
  }),
  js("optional-chaining", `const cfg = { db: { host: "h" } };\nconsole.log(cfg?.db?.host, cfg.cache?.ttl, cfg.cache?.ttl ?? 60, cfg.fn?.());\n`),

  // --- async ---
  js(
    "async-await-sequence",
    `const sleep = ms => new Promise(r => setTimeout(r, ms));\n(async () => { console.log("a"); await sleep(5); console.log("b"); await sleep(5); console.log("c"); })();\n`,
  ),
  js(
    "promise-all-order",
    `const delay = (v, ms) => new Promise(r => setTimeout(() => r(v), ms));\nPromise.all([delay("slow", 20), delay("fast", 5)]).then(v => console.log(v));\n`,
  ),
  js(
    "promise-race",
    `const delay = (v, ms) => new Promise(r => setTimeout(() => r(v), ms));\nPromise.race([delay("slow", 30), delay("fast", 5)]).then(v => console.log(v));\n`,
  ),
  js(
    "promise-allsettled",
    `Promise.allSettled([Promise.resolve(1), Promise.reject(new Error("e")), 3]).then(r => console.log(r.map(x => x.status + ":" + (x.value ?? x.reason.message))));\n`,
  ),
  js(
    "promise-any",
    `Promise.any([Promise.reject(1), Promise.resolve(2)]).then(v => console.log("any", v));\nPromise.any([Promise.reject(1)]).catch(e => console.log(e.constructor.name, e.errors));\n`,
  ),
  js(
    "timers-order",
    `setTimeout(() => console.log("t20"), 20);\nsetTimeout(() => console.log("t0"), 0);\nsetTimeout(() => console.log("t10"), 10);\nsetImmediate(() => console.log("immediate"));\n`,
    { known: "setImmediate runs as a 0 ms timer here; in this case the order is the same" },
  ),
  js("interval-clear", `let n = 0;\nconst id = setInterval(() => { n++; console.log("tick", n); if (n === 3) clearInterval(id); }, 2);\n`),
  js("timeout-clear", `const t = setTimeout(() => console.log("never"), 10);\nclearTimeout(t);\nconsole.log("cleared");\n`),
  js(
    "microtask-order",
    `console.log(1);\nsetTimeout(() => console.log(5), 0);\nPromise.resolve().then(() => console.log(3)).then(() => console.log(4));\nqueueMicrotask(() => console.log("q"));\nconsole.log(2);\n`,
  ),
  js(
    "async-retry",
    `let tries = 0;\nasync function flaky() { if (++tries < 3) throw new Error("fail " + tries); return "ok after " + tries; }\nasync function retry(fn, n) { for (let i = 0; ; i++) { try { return await fn(); } catch (e) { console.log(e.message); if (i >= n) throw e; } } }\nretry(flaky, 5).then(console.log);\n`,
  ),
  js("timers-promises", `const { setTimeout: wait } = require("timers/promises");\n(async () => { const v = await wait(5, "value"); console.log(v); })();\n`),
  js(
    "util-promisify",
    `const util = require("util"), fs = require("fs");\nconst read = util.promisify(fs.readFile);\nread("t.txt", "utf8").then(s => console.log(s));\n`,
    { files: { "t.txt": "promisified" } },
  ),
  js(
    "events-emitter",
    `const EventEmitter = require("events");\nclass Job extends EventEmitter {}\nconst j = new Job();\nj.on("progress", p => console.log("progress", p));\nj.once("done", () => console.log("done once"));\nj.emit("progress", 50); j.emit("done"); j.emit("done");\nconsole.log(j.listenerCount("progress"), j.listenerCount("done"));\n`,
  ),
  js(
    "events-error-unhandled",
    `const { EventEmitter } = require("events");\nconst e = new EventEmitter();\ntry { e.emit("error", new Error("bad event")); } catch (err) { console.log("thrown", err.message); }\n`,
  ),
  js(
    "events-once-promise",
    `const { EventEmitter, once } = require("events");\nconst e = new EventEmitter();\n(async () => { setTimeout(() => e.emit("ready", 42), 5); const [v] = await once(e, "ready"); console.log("ready", v); })();\n`,
  ),

  // --- modules ---
  js("require-local", `const { add } = require("./lib/math");\nconst greet = require("./lib/greet.js");\nconsole.log(add(2, 3), greet("x"));\n`, {
    files: { "lib/math.js": "exports.add = (a, b) => a + b;\n", "lib/greet.js": "module.exports = n => `hi ${n}`;\n" },
  }),
  js("require-cache-singleton", `const a = require("./counter"); a.n++;\nconst b = require("./counter");\nconsole.log(b.n, a === b);\n`, {
    files: { "counter.js": "module.exports = { n: 0 };\n" },
  }),
  js("require-dir-index", `console.log(require("./pkg").name);\n`, { files: { "pkg/index.js": "module.exports = { name: 'from index' };\n" } }),
  js("require-node-modules", `const lp = require("leftpad");\nconsole.log(lp("5", 3, "0"));\n`, {
    files: {
      "node_modules/leftpad/package.json": '{"name":"leftpad","main":"lib/index.js"}',
      "node_modules/leftpad/lib/index.js": "module.exports = (s, n, c) => String(s).padStart(n, c);\n",
    },
  }),
  js("require-scoped-package", `console.log(require("@acme/util").twice(21));\n`, {
    files: { "node_modules/@acme/util/package.json": '{"name":"@acme/util"}', "node_modules/@acme/util/index.js": "exports.twice = x => x * 2;\n" },
  }),
  js("require-builtin-node-prefix", `const fs = require("node:fs"), path = require("node:path");\nconsole.log(typeof fs.readFileSync, path.join("a", "b"));\n`),
  js("require-cycle", `const a = require("./a");\nconsole.log(a.done, a.bSawA);\n`, {
    files: {
      "a.js": "exports.done = false;\nconst b = require('./b');\nexports.bSawA = b.sawA;\nexports.done = true;\n",
      "b.js": "const a = require('./a');\nexports.sawA = a.done;\n",
    },
  }),
  js("module-exports-function", `const m = require("./m");\nconsole.log(typeof m, m(), require.main === module, module.id);\n`, {
    files: { "m.js": "module.exports = function () { return require.main === module; };\n" },
  }),
  js("require-resolve", `const path = require("path");\nconsole.log(path.relative(process.cwd(), require.resolve("./lib/x")));\n`, { files: { "lib/x.js": "" } }),
  js("dirname-in-module", `const path = require("path");\nconsole.log(path.relative(__dirname, require("./sub/where")));\n`, {
    files: { "sub/where.js": "module.exports = __filename;\n" },
  }),
  mjs("esm-relative-import", `import { add } from "./math.mjs";\nimport def from "./def.mjs";\nconsole.log(add(1, 2), def);\n`, {
    files: { "math.mjs": "export const add = (a, b) => a + b;\n", "def.mjs": "export default 'default export';\n" },
  }),
  mjs(
    "esm-builtins",
    `import fs from "fs";\nimport { join } from "node:path";\nimport * as os from "os";\nconsole.log(typeof fs.readFileSync, join("a", "b"), os.EOL === "\\n");\n`,
  ),
  mjs("esm-top-level-await", `const v = await new Promise(r => setTimeout(() => r(7), 5));\nconsole.log("awaited", v);\n`),
  mjs("esm-fs-promises", `import { readFile } from "fs/promises";\nconst s = await readFile("t.txt", "utf8");\nconsole.log(s.trim());\n`, {
    files: { "t.txt": "esm read\n" },
  }),
  {
    name: "esm-type-module",
    files: {
      "package.json": '{"type":"module"}',
      "main.js": "import { v } from './lib.js';\nconsole.log(v, typeof require);\n",
      "lib.js": "export const v = 'type module';\n",
    },
    cmd: "node main.js",
  },
  mjs("esm-import-cjs", `import cjs from "./c.cjs";\nconsole.log(cjs.x);\n`, { files: { "c.cjs": "module.exports = { x: 'from cjs' };\n" } }),
  mjs("esm-import-json-via-fs", `import fs from "fs";\nconst d = JSON.parse(fs.readFileSync("d.json", "utf8"));\nconsole.log(d.k);\n`, {
    files: { "d.json": '{"k":"v"}' },
  }),
  mjs("esm-export-star", `import * as m from "./all.mjs";\nconsole.log(Object.keys(m).sort());\n`, {
    files: { "all.mjs": "export * from './one.mjs';\nexport const two = 2;\n", "one.mjs": "export const one = 1;\n" },
  }),
  mjs("esm-dynamic-import", `const m = await import("./lazy.mjs");\nconsole.log(m.default());\n`, { files: { "lazy.mjs": "export default () => 'lazy loaded';\n" } }),
  mjs("esm-missing-import", `import { nope } from "./nope.mjs";\nconsole.log(nope);\n`, {
    known: "ES module resolution errors: Node prints ERR_MODULE_NOT_FOUND with its loader's stack",
    compare: "exit",
  }),
  { name: "shebang-script", files: { "tool.js": "#!/usr/bin/env node\nconsole.log('shebang ok', process.argv.slice(2));\n" }, cmd: "chmod +x tool.js && ./tool.js x y" },
  { name: "node-reads-script-from-stdin", files: {}, cmd: "echo 'console.log(1 + 1)' | node" },
  { name: "e-input-type-module", files: {}, cmd: `node --input-type=module -e 'import { sep } from "path"; console.log(sep)'` },
  { name: "pipe-into-node", files: {}, cmd: `printf 'x\\ny\\n' | node -e 'console.log(require("fs").readFileSync(0, "utf8").split("\\n").length)'` },
  { name: "node-output-piped", files: {}, cmd: `node -e 'for (let i = 0; i < 5; i++) console.log(i)' | tail -n 2` },
  { name: "node-exit-status-in-shell", files: {}, cmd: `node -e 'process.exit(3)'; echo "status $?"` },
  { name: "missing-script", files: {}, cmd: "node nope.js", known: "Node prints its loader's stack for a missing main script", compare: "error-line" },

  // --- other built-ins ---
  js(
    "buffer-base64-hex",
    `const b = Buffer.from("hello world");\nconsole.log(b.toString("base64"), b.toString("hex").slice(0, 10), Buffer.from("aGk=", "base64").toString());\n`,
  ),
  js(
    "buffer-ops",
    `const a = Buffer.from([1, 2, 3]), b = Buffer.alloc(2, 9);\nconst c = Buffer.concat([a, b]);\nconsole.log(c.length, [...c], c.slice(1, 3), c.readUInt16BE(0), Buffer.compare(a, b), c.equals(Buffer.from([1,2,3,9,9])));\n`,
  ),
  js("buffer-print", `console.log(Buffer.from("abc"));\n`),
  js(
    "util-format-inspect",
    `const util = require("util");\nconsole.log(util.format("%s=%d %o", "x", 5, [1]), util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }), util.inspect("str"));\n`,
  ),
  js(
    "util-types",
    `const util = require("util");\nconsole.log(util.isDeepStrictEqual({ a: [1] }, { a: [1] }), util.types.isDate(new Date()), util.inspect(new Date(0)));\n`,
    { known: "util.inspect: the npm util package prints a Date with toString, Node with toISOString", compare: "exit" },
  ),
  js("os-basics", `const os = require("os");\nconsole.log(os.EOL === "\\n", typeof os.cpus().length, typeof os.tmpdir(), os.platform());\n`),
  js(
    "url-parse",
    `const u = new URL("https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash");\nconsole.log(u.protocol, u.username, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin);\nconsole.log([...u.searchParams], u.searchParams.get("a"));\n`,
  ),
  js(
    "url-build",
    `const u = new URL("/api/items", "https://example.com");\nu.searchParams.set("q", "a b&c");\nu.searchParams.append("page", 2);\nconsole.log(u.href, String(u));\n`,
  ),
  js(
    "url-searchparams",
    `const p = new URLSearchParams("a=1&b=2&a=3");\nconsole.log(p.getAll("a"), p.has("b"), p.toString());\np.delete("a");\nconsole.log(p.toString(), new URLSearchParams({ x: "1 2", y: "é" }).toString());\n`,
  ),
  js("url-invalid", `try { new URL("not a url"); } catch (e) { console.log(e.code, e.name); }\n`),
  js("url-file-path", `const { pathToFileURL, fileURLToPath } = require("url");\nconsole.log(fileURLToPath("file:///tmp/a%20b.txt"), pathToFileURL("/x/y z").href);\n`),
  js(
    "crypto-hashes",
    `const crypto = require("crypto");\nfor (const alg of ["md5", "sha1", "sha256"]) console.log(alg, crypto.createHash(alg).update("hello").digest("hex"));\nconsole.log(crypto.createHash("sha256").update("a").update("b").digest("base64"));\n`,
  ),
  js("crypto-hmac", `const crypto = require("crypto");\nconsole.log(crypto.createHmac("sha256", "key").update("msg").digest("hex"));\n`),
  js(
    "crypto-uuid-shape",
    `const { randomUUID, randomBytes } = require("crypto");\nconsole.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(randomUUID()), randomBytes(8).length, typeof crypto.randomUUID);\n`,
    { known: "engine version: Debian's node 18 has no global crypto (a global from Node 19 on); here it is there as in Node 20", compare: "none" },
  ),
  js(
    "crypto-hash-file",
    `const crypto = require("crypto"), fs = require("fs");\nconsole.log(crypto.createHash("md5").update(fs.readFileSync("f.bin")).digest("hex"));\n`,
    { files: { "f.bin": "some bytes\n" } },
  ),
  js(
    "child-process-execsync",
    `const { execSync } = require("child_process");\nconsole.log(execSync("echo hello from shell").toString().trim());\nconsole.log(execSync("ls", { encoding: "utf8" }).split("\\n").filter(Boolean));\n`,
  ),
  js(
    "child-process-execsync-fail",
    `const { execSync } = require("child_process");\ntry { execSync("exit 3", { stdio: "pipe" }); } catch (e) { console.log("status", e.status); }\n`,
  ),
  js(
    "child-process-spawnsync",
    `const { spawnSync } = require("child_process");\nconst r = spawnSync("sh", ["-c", "echo out; echo err >&2; exit 2"], { encoding: "utf8" });\nconsole.log(r.status, JSON.stringify(r.stdout), JSON.stringify(r.stderr));\n`,
  ),
  js(
    "child-process-exec-promisified",
    `const util = require("util");\nconst exec = util.promisify(require("child_process").exec);\n(async () => { const { stdout } = await exec("echo one; echo two"); console.log(stdout.split("\\n").filter(Boolean)); })();\n`,
  ),
  js("child-process-exec-callback", `const { exec } = require("child_process");\nexec("echo async", (err, stdout) => console.log(err, stdout.trim()));\n`),
  js("child-process-input", `const { execSync } = require("child_process");\nconsole.log(execSync("wc -l", { input: "a\\nb\\nc\\n" }).toString().trim());\n`),
  // child_process *Sync: the command runs through the session's shell while the script waits (JSPI).
  js(
    "execsync-error-shape",
    `const cp = require("child_process");\ntry { cp.execSync("echo out; echo err >&2; exit 3"); } catch (e) { console.log(JSON.stringify(e.message), e.status, e.signal, JSON.stringify(String(e.stdout)), JSON.stringify(String(e.stderr)), Object.keys(e)); }\n`,
  ),
  js(
    "execsync-error-pipe",
    `const cp = require("child_process");\ntry { cp.execSync("exit 4", { stdio: "pipe" }); } catch (e) { console.log(JSON.stringify(e.message), e.status); }\ntry { cp.execSync("echo x >&2; exit 5", { stdio: "pipe", encoding: "utf8" }); } catch (e) { console.log(JSON.stringify(e.message), e.status, typeof e.stderr, e.output); }\n`,
  ),
  js(
    "execsync-buffer-or-string",
    `const { execSync } = require("child_process");\nconst b = execSync("printf abc");\nconsole.log(Buffer.isBuffer(b), b.length, b, typeof execSync("printf abc", { encoding: "utf8" }), execSync("printf %s hé", { encoding: "latin1" }).length);\n`,
  ),
  js(
    "execsync-inherit",
    `const { execSync } = require("child_process");\nconsole.log("before");\nconsole.log(execSync("echo from child", { stdio: "inherit" }));\nconsole.log("after");\n`,
  ),
  js(
    "execsync-cwd-env",
    `const { execSync } = require("child_process");\nconsole.log(execSync("pwd", { cwd: "sub", encoding: "utf8" }).trim().endsWith("/sub"));\nconsole.log(execSync("echo $GREETING", { env: { GREETING: "hi", PATH: process.env.PATH }, encoding: "utf8" }).trim());\n`,
    { files: { "sub/x.txt": "x\n" } },
  ),
  js(
    "execsync-writes-files",
    `const { execSync } = require("child_process"), fs = require("fs");\nexecSync("echo made > made.txt && mkdir -p d && echo two > d/two.txt");\nconsole.log(fs.readFileSync("made.txt", "utf8").trim(), fs.readdirSync("d"));\nfs.writeFileSync("from-node.txt", "n1\\nn2\\n");\nconsole.log(execSync("wc -l < from-node.txt").toString().trim());\n`,
  ),
  js(
    "execsync-loop",
    `const { execSync } = require("child_process");\nconst out = [];\nfor (let i = 0; i < 5; i++) out.push(execSync("echo " + i * i, { encoding: "utf8" }).trim());\nconsole.log(out.join(","));\n`,
  ),
  js(
    "execsync-after-await",
    `const { execSync } = require("child_process");\n(async () => {\n  await new Promise((r) => setTimeout(r, 5));\n  console.log("timer", execSync("echo in-async", { encoding: "utf8" }).trim());\n  await Promise.resolve();\n  console.log("job", execSync("echo again", { encoding: "utf8" }).trim());\n})();\nsetTimeout(() => console.log("cb", execSync("echo in-timeout").toString().trim()), 20);\n`,
  ),
  // *Sync in ES modules, required files, timers and promise jobs: every entry into QuickJS is a
  // JSPI promising one, and the module loader's imports suspend too (src/tools/node/suspend.ts).
  mjs(
    "execsync-esm",
    `import { execSync } from "node:child_process";\nconst v = execSync("echo esm", { encoding: "utf8" });\nawait Promise.resolve();\nconsole.log(v.trim(), execSync("echo tla").toString().trim());\n`,
  ),
  mjs(
    "execsync-esm-bare-import",
    `import cp, { spawnSync, execFileSync } from "child_process";\nconsole.log(cp.execSync("echo a b").toString());\nconsole.log(execFileSync("printf", ["%s-", "x", "y"], { encoding: "utf8" }));\nconst r = spawnSync("sh", ["-c", "echo o; echo e >&2; exit 3"], { encoding: "utf8" });\nconsole.log(r.status, JSON.stringify(r.stdout), JSON.stringify(r.stderr));\n`,
  ),
  {
    name: "execsync-type-module",
    cmd: "node main.js",
    files: {
      "package.json": '{ "type": "module" }\n',
      "main.js": `import { execSync } from "child_process";\nimport { count } from "./lib.js";\nconsole.log(count("*.txt"), execSync("cat a.txt", { encoding: "utf8" }).trim());\n`,
      "lib.js": `import { execSync } from "node:child_process";\nexport const count = (glob) => execSync(\`ls \${glob} | wc -l\`, { encoding: "utf8" }).trim();\nexport const atLoad = execSync("echo loaded").toString().trim();\nconsole.log("lib", atLoad);\n`,
      "a.txt": "alpha\n",
      "b.txt": "beta\n",
    },
  },
  js("execsync-required-helper", `const { sh } = require("./helper");\nconsole.log(sh("echo from helper"), sh("printf %s 12 | wc -c"));\n`, {
    files: { "helper.js": `const cp = require("child_process");\nexports.sh = (c) => cp.execSync(c, { encoding: "utf8" }).trim();\n` },
  }),
  mjs("execsync-esm-imports-cjs-helper", `import helper from "./helper.cjs";\nconsole.log(helper.top, helper.run("echo later"));\n`, {
    files: {
      "helper.cjs": `const { execSync } = require("child_process");\nexports.top = execSync("echo at-require").toString().trim();\nexports.run = (c) => execSync(c).toString().trim();\n`,
    },
  }),
  mjs(
    "execsync-esm-timer-and-await",
    `import { execSync } from "node:child_process";\nimport { setTimeout as sleep } from "node:timers/promises";\nsetTimeout(() => console.log("timeout", execSync("echo t1", { encoding: "utf8" }).trim()), 5);\nawait sleep(20);\nconsole.log("after await", execSync("echo a1", { encoding: "utf8" }).trim());\nPromise.resolve().then(() => console.log("job", execSync("echo j1", { encoding: "utf8" }).trim()));\nqueueMicrotask(() => console.log("microtask", execSync("echo m1").toString().trim()));\n`,
  ),
  mjs(
    "execsync-esm-dynamic-import",
    `const { execSync } = await import("node:child_process");\nconst m = await import("./m.mjs");\nconsole.log(execSync("echo dyn").toString().trim(), m.v);\n`,
    { files: { "m.mjs": `import { execSync } from "child_process";\nexport const v = execSync("echo in-module", { encoding: "utf8" }).trim();\n` } },
  ),
  mjs(
    "spawnsync-esm-shapes",
    `import { spawnSync } from "node:child_process";\nconst a = spawnSync("sh", ["-c", "printf out; printf err >&2; exit 4"]);\nconsole.log(a.status, a.signal, a.error, Buffer.isBuffer(a.stdout), String(a.stdout), String(a.stderr), a.output.length, a.output[0]);\nconst b = spawnSync("sh", ["-c", "cat; echo done"], { input: "in\\n", encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });\nconsole.log(JSON.stringify(b.stdout), b.status, JSON.stringify(b.output));\nconst c = spawnSync("sh", ["-c", "echo shown; exit 0"], { stdio: "inherit" });\nconsole.log(c.status, c.stdout, c.stderr);\nconst d = spawnSync("sh", ["-c", "echo e >&2; exit 1"], { stdio: ["pipe", "pipe", "inherit"], encoding: "utf8" });\nconsole.log(d.status, JSON.stringify(d.stdout), d.stderr);\n`,
  ),
  mjs(
    "execsync-esm-failure-shape",
    `import { execSync, execFileSync } from "node:child_process";\ntry { execSync("echo partial; exit 6", { stdio: "pipe", encoding: "utf8" }); } catch (e) { console.log(e.constructor.name, JSON.stringify(e.message), e.status, e.signal, JSON.stringify(e.stdout), JSON.stringify(e.stderr), Object.keys(e)); }\ntry { execFileSync("sh", ["-c", "exit 2"], { stdio: "pipe" }); } catch (e) { console.log(e.status, JSON.stringify(e.message)); }\n`,
  ),
  js(
    "execsync-git-like",
    `const { execSync } = require("child_process");\nconst files = execSync("ls", { encoding: "utf8" }).trim().split("\\n");\nconst counts = files.map((f) => f + ":" + execSync("wc -c < " + f, { encoding: "utf8" }).trim());\nconsole.log(counts.join(" "));\n`,
    { files: { "a.txt": "aaa\n", "b.txt": "bb\n" } },
  ),
  js(
    "spawnsync-shape",
    `const { spawnSync } = require("child_process");\nconst r = spawnSync("sh", ["-c", "echo o; echo e >&2"]);\nconsole.log(Object.keys(r), r.stdout, r.output.length, typeof r.pid, r.signal, r.error);\nconst s = spawnSync("printf", ["%s|", "a b", "c"], { encoding: "utf8" });\nconsole.log(s.status, s.stdout, s.output);\n`,
  ),
  js(
    "spawnsync-inherit-and-input",
    `const { spawnSync } = require("child_process");\nconst r = spawnSync("sh", ["-c", "echo visible; exit 7"], { stdio: "inherit" });\nconsole.log(r.status, r.stdout, r.stderr);\nconst t = spawnSync("tr", ["a-z", "A-Z"], { input: "shout\\n", encoding: "utf8" });\nconsole.log(t.stdout.trim(), t.status);\n`,
  ),
  js(
    "spawnsync-shell-option",
    `const { spawnSync } = require("child_process");\nconst r = spawnSync("echo $((6 * 7)) | tr 4 X", { shell: true, encoding: "utf8" });\nconsole.log(JSON.stringify(r.stdout), r.status);\n`,
  ),
  js(
    "execfilesync-shape",
    `const { execFileSync } = require("child_process");\nconsole.log(execFileSync("echo", ["a b", "c"], { encoding: "utf8" }));\ntry { execFileSync("sh", ["-c", "exit 5"]); } catch (e) { console.log(JSON.stringify(e.message), e.status, Object.keys(e)); }\n`,
  ),
  js(
    "execsync-uncaught-failure",
    `const { execSync } = require("child_process");\nconsole.log("start");\nexecSync("exit 2", { stdio: "pipe" });\nconsole.log("not reached");\n`,
    { known: STACK, compare: "error-line" },
  ),
  js("worker-threads-refused", `try { require("worker_threads"); console.log("loaded"); } catch (e) { console.log("refused"); }\n`, {
    known: "worker_threads cannot exist here: require throws a clear error (Node loads it)",
    compare: "none",
  }),
  js(
    "string-decoder",
    `const { StringDecoder } = require("string_decoder");\nconst d = new StringDecoder("utf8");\nconst euro = Buffer.from("€");\nconsole.log(d.write(euro.slice(0, 1)) + "|" + d.write(euro.slice(1)) + "|" + d.end());\n`,
  ),
  js("querystring", `const qs = require("querystring");\nconsole.log(qs.parse("a=1&b=x%20y&a=2"), qs.stringify({ k: "v w", n: 1 }));\n`, {
    known: "util.inspect: Node's querystring.parse returns a null-prototype object, printed with [Object: null prototype]",
    compare: "exit",
  }),
  js("structured-clone-json", `const o = { a: [1, { b: 2 }] };\nconst c = structuredClone(o);\nc.a[1].b = 3;\nconsole.log(o.a[1].b, c.a[1].b);\n`),
  js("textencoder", `const e = new TextEncoder().encode("hé");\nconsole.log(e.length, new TextDecoder().decode(e));\n`),
  js("global-this", `globalThis.shared = 5;\nconsole.log(global.shared, typeof window);\n`),
  js(
    "label-loops-math",
    `let found = null;\nouter: for (let i = 2; i < 50; i++) { for (let j = 2; j * j <= i; j++) if (i % j === 0) continue outer; if (i > 40) { found = i; break; } }\nconsole.log(found, Math.max(...[3, 9, 2]), Math.round(2.5), Math.round(-2.5), Math.trunc(-4.7), Math.sign(-3));\n`,
  ),
  js("sort-numbers-default", `console.log([10, 9, 1, 100].sort(), [10, 9, 1, 100].sort((a, b) => a - b));\n`),
  js("regex-sticky-unicode", `console.log(/\\p{L}+/u.exec("123héllo")[0], "aaa".replace(/a/y, "b"), /(?<=\\$)\\d+/.exec("cost $42")[0]);\n`),
];
