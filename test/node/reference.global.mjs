// vitest globalSetup (runs in Node): the real side of test/node/node-table.test.ts. Each case of
// cases.mjs runs with Debian 12's `node` (package nodejs 18.x, fetched and run beside the
// machine's own node by scripts/lib/debian-node.mjs) as nobody, in its own
// directory of a temp tree; what it printed is handed to the test (`inject("nodeReference")`),
// with the temp tree's path written as /workspace, where the session runs the same case.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheBase } from "../../scripts/lib/cache.mjs";
import { debianNode, debianNodeArgs } from "../../scripts/lib/debian-node.mjs";
import { CASES } from "./cases.mjs";

const NOBODY = 65534;

/** Debian's node (its unpacked tree and version); throws a clear error when it cannot be had. */
export function installReference() {
  return debianNode();
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
const CACHE = join(cacheBase, "references", "node-debian.json");

export default function setup(project) {
  const debian = installReference();
  const version = debian.nodeVersion;
  const key = createHash("sha256")
    .update(readFileSync(join(here, "cases.mjs")))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(`debian nodejs ${debian.version} ${version}`)
    .digest("hex");
  if (existsSync(CACHE)) {
    const cached = JSON.parse(readFileSync(CACHE, "utf8"));
    if (cached.key === key) return void project.provide("nodeReference", cached.value);
  }
  const root = mkdtempSync(join(tmpdir(), "node-ref-"));
  const results = {};
  for (const c of CASES) {
    const dir = join(root, c.name);
    writeCase(dir, c);
    spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, root, dir]);
    // As nobody, inside the namespace where /usr/bin/node is Debian's (debian-node.mjs).
    const r = spawnSync(...debianNodeArgs(commandOf(c), { root: debian.root }), {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", HOME: root, LANG: "C.UTF-8", TZ: "UTC" },
      encoding: "utf8",
      timeout: 20_000,
    });
    const norm = (s) => (s ?? "").split(root).join("/workspace").split(version).join("NODE_VERSION");
    results[c.name] = { stdout: norm(r.stdout), stderr: norm(r.stderr), exit: r.status ?? -1 };
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(dirname(CACHE), { recursive: true });
  writeFileSync(CACHE, JSON.stringify({ key, value: { version, results } }));
  project.provide("nodeReference", { version, results });
}
