// `npm run check:imports [DIR]`: the import rules of .dependency-cruiser.cjs, checked by
// dependency-cruiser over src/ and durable-objects/ of DIR (the repository by default), plus
// "no cycle between folders": two folders whose files import each other, even through files
// that form no cycle of their own, are one room that was drawn as two.
// Prints each broken rule and the file-level and folder-level cycle counts; exits 1 on any.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { cruise } from "dependency-cruiser";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(process.argv[2] ?? repo);
const config = createRequire(import.meta.url)(join(repo, ".dependency-cruiser.cjs"));
const tsConfig = join(root, "tsconfig.json");
const leaves = new Set(config.leaves ?? []);
const dirs = ["src", "durable-objects"].filter((d) => existsSync(join(root, d)));

const cwd = process.cwd();
process.chdir(root); // dependency-cruiser reports paths relative to the working folder
let result;
try {
  result = await cruise(
    dirs,
    {
      ...config.options,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      tsConfig: existsSync(tsConfig) ? { fileName: tsConfig } : undefined,
      outputType: "json",
    },
    undefined,
    existsSync(tsConfig) ? { tsConfig: JSON.parse((await import("node:fs")).readFileSync(tsConfig, "utf8")) } : undefined,
  );
} finally {
  process.chdir(cwd);
}
const out = typeof result.output === "string" ? JSON.parse(result.output) : result.output;
const modules = out.modules.filter((m) => !m.coreModule && !m.couldNotResolve && !/node_modules/.test(m.source));

// Rule violations. dependency-cruiser names one path per file of a cycle; the cycles are
// counted and printed once each, as strongly connected sets of files, below.
const problems = [];
for (const v of out.summary.violations) {
  if (v.rule.name !== "no-file-cycle") problems.push(`${v.rule.name}: ${v.from} -> ${v.to}`);
}
const fileEdges = new Map(
  modules.map((m) => [m.source, m.dependencies.filter((d) => !d.coreModule && !d.couldNotResolve && !/node_modules/.test(d.resolved)).map((d) => d.resolved)]),
);
const fileCycles = stronglyConnected([...fileEdges.keys()], (n) => fileEdges.get(n) ?? []).filter((c) => c.length > 1);
// A cycle of files in one folder is one room's business (two halves of one structure, such as
// a directory and its entries): counted and shown, not refused. A cycle that crosses folders is.
const notes = [];
for (const cycle of fileCycles) {
  const inside = new Set(cycle);
  const ties = cycle.flatMap((f) => (fileEdges.get(f) ?? []).filter((t) => inside.has(t)).map((t) => `    ${f} -> ${t}`));
  const oneFolder = new Set(cycle.map((f) => dirname(f))).size === 1;
  (oneFolder ? notes : problems).push(`${oneFolder ? "file cycle inside one folder (allowed)" : "no-file-cycle"}: ${cycle.length} files\n${ties.join("\n")}`);
}

// Folder graph: one node per folder, an edge per import that crosses folders.
const edges = new Map(); // folder -> Map(folder -> example "a -> b")
for (const m of modules) {
  const from = folderOf(m.source);
  for (const d of m.dependencies) {
    if (d.coreModule || d.couldNotResolve || /node_modules/.test(d.resolved)) continue;
    const to = folderOf(d.resolved);
    if (to === from || !dirs.some((x) => to === x || to.startsWith(`${x}/`))) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${m.source} -> ${d.resolved}`);
  }
}
const folderCycles = stronglyConnected([...new Set([...edges.keys(), ...[...edges.values()].flatMap((e) => [...e.keys()])])], (n) => [
  ...(edges.get(n)?.keys() ?? []),
]).filter((c) => c.length > 1);
for (const cycle of folderCycles) {
  const inside = new Set(cycle);
  const ties = cycle.flatMap((f) => [...(edges.get(f) ?? [])].filter(([to]) => inside.has(to)).map(([, example]) => `    ${example}`));
  problems.push(`no-folder-cycle: ${cycle.join(", ")}\n${ties.join("\n")}`);
}

for (const n of notes) console.log(n);
for (const p of problems) console.log(p);
console.log(
  `check:imports: ${modules.length} files, ${fileCycles.length} file-level cycles (${fileCycles.length - notes.length} across folders), ${folderCycles.length} folder-level cycles, ${problems.length} problems`,
);
process.exit(problems.length > 0 ? 1 : 0);

// The folders of the rule are the layers: src/<name>/ with everything below it, and
// durable-objects/. Each file directly in src/ (the Worker's entry, the service layer, the RPC
// door) is a layer of its own. A leaf shared by the layers below its own (config `leaves`) stands as a room of
// its own, so that importing it does not tie those layers to its folder; a cycle through it is
// still caught.
function folderOf(file) {
  if (leaves.has(file)) return file;
  const parts = file.split("/");
  if (parts[0] !== "src") return parts[0];
  return parts.length > 2 ? `src/${parts[1]}` : file;
}

// Tarjan's algorithm; returns the strongly connected components.
function stronglyConnected(nodes, next) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      out.push(comp.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return out;
}
