// vitest globalSetup (runs in Node): the real side of test/node/node-table.test.ts. Each case of
// cases.mjs runs with Debian's `node` (package nodejs, /usr/bin/node) as nobody, in its own
// directory of a temp tree; what it printed is handed to the test (`inject("nodeReference")`),
// with the temp tree's path written as /workspace, where the session runs the same case.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheBase } from "../../scripts/lib/cache.mjs";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { CASES } from "./cases.mjs";

const NOBODY = 65534;

export function installReference() {
  requireReferenceTools("node-reference", ["nodejs"]);
}

/** Writes a case's files (and its stdin as stdin.txt) under dir. */
export function writeCase(dir, c) {
  mkdirSync(dir, { recursive: true });
  for (const [p, content] of Object.entries(c.files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  if (c.stdin !== undefined) writeFileSync(join(dir, "stdin.txt"), c.stdin);
}

/** The command line as both sides run it: stdin from stdin.txt when the case has one. */
export const commandOf = (c) => (c.stdin !== undefined ? `${c.cmd} < stdin.txt` : c.cmd);

const here = dirname(fileURLToPath(import.meta.url));
/** Every vitest run calls global setups; the reference is recomputed only when the cases or node change. */
// In the machine's build cache, so a fresh clone of unchanged cases (as CI makes) reads it.
const CACHE = join(cacheBase, "references", "node.json");

export default function setup(project) {
  installReference();
  const version = spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout.trim();
  const key = createHash("sha256")
    .update(readFileSync(join(here, "cases.mjs")))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(version)
    .digest("hex");
  if (existsSync(CACHE)) {
    const cached = JSON.parse(readFileSync(CACHE, "utf8"));
    if (cached.key === key) return void project.provide("nodeReference", cached.value);
  }
  const root = mkdtempSync(join(tmpdir(), "node-ref-"));
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const results = {};
  for (const c of CASES) {
    const dir = join(root, c.name);
    writeCase(dir, c);
    if (user.uid) spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, root, dir]);
    const r = spawnSync("bash", ["-c", commandOf(c)], {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", HOME: root, LANG: "C.UTF-8", TZ: "UTC" },
      encoding: "utf8",
      timeout: 20_000,
      ...user,
    });
    const norm = (s) => (s ?? "").split(root).join("/workspace").split(version).join("NODE_VERSION");
    results[c.name] = { stdout: norm(r.stdout), stderr: norm(r.stderr), exit: r.status ?? -1 };
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(dirname(CACHE), { recursive: true });
  writeFileSync(CACHE, JSON.stringify({ key, value: { version, results } }));
  project.provide("nodeReference", { version, results });
}
