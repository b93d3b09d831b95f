// vitest globalSetup (runs in Node): the Debian side of the corpus (corpus/index.mjs). Every call
// runs in Debian's bash as `nobody`, in its own copy of the fixture project, with Toolshed's
// environment (env -i: PATH, HOME = the call's directory, LANG=C.UTF-8, TMPDIR=/tmp, USER=agent,
// TERM=dumb). A few drivers run the calls side by side (each a bash loop, no Node spawn per call).
// Results are cached in the machine's build cache (scripts/lib/cache.mjs) by a hash of the corpus, this file and the programs'
// versions, so a run without changes costs nothing.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheBase } from "../../scripts/lib/cache.mjs";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { CORPUS } from "./corpus/index.mjs";
import { setupScript } from "./corpus/fixture.mjs";

const NOBODY = 65534;
/** Programs the corpus calls that a minimal Debian lacks. */
/** Packages of scripts/lib/reference-tools.mjs the calls use beyond a minimal Debian. */
const PACKAGES = ["gawk", "jq", "gettext-base", "bsdextrautils", "bc", "xxd", "tar", "sed"];
const DRIVERS = 3;
/** Seconds one call may take on the Debian side. */
const CALL_TIMEOUT = 10;

const here = dirname(fileURLToPath(import.meta.url));
const CACHE = join(cacheBase, "references", "realism-corpus.json");

function versions() {
  const v = (cmd, args) => spawnSync(cmd, args, { encoding: "utf8" }).stdout?.split("\n")[0] ?? "";
  return [v("bash", ["--version"]), v("jq", ["--version"]), v("gawk", ["--version"]), v("tar", ["--version"]), v("sed", ["--version"])].join("|");
}

/** The driver: runs calls FIRST..LAST (numbers in a list file) and leaves N.out, N.err, N.rc. */
const DRIVER = `
root=$1; list=$2
while read -r n; do
  d="$root/c/$n"; mkdir -p "$d"; cp -a "$root/fx/." "$d/"
  cd "$d" || exit 1
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$d" LANG=C.UTF-8 TMPDIR=/tmp USER=agent LOGNAME=agent SHELL=/bin/bash TERM=dumb \\
    timeout -k 2 ${CALL_TIMEOUT} bash -c "$(cat "$root/cmd/$n")" > "$root/out/$n.out" 2> "$root/out/$n.err" < /dev/null
  echo $? > "$root/out/$n.rc"
  cd "$root"; rm -rf "$d"
done < "$list"
`;

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: "ignore", ...opts });
    p.on("error", reject);
    p.on("exit", (code) => resolve(code));
  });
}

export async function computeCorpus() {
  // Memory (tmpfs) when the machine has it: copying the fixture for every call on disk is most of the cost.
  const root = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "rc-"));
  const user = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  try {
    for (const sub of ["fx", "cmd", "out", "c"]) mkdirSync(join(root, sub));
    writeFileSync(join(root, "setup.sh"), setupScript());
    writeFileSync(join(root, "driver.sh"), DRIVER);
    const lists = Array.from({ length: DRIVERS }, () => []);
    CORPUS.forEach((c, i) => {
      writeFileSync(join(root, "cmd", String(i)), c.run);
      lists[i % DRIVERS].push(i);
    });
    lists.forEach((l, k) => writeFileSync(join(root, `list${k}`), l.join("\n") + "\n"));
    if (user.uid) spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, root]);
    const base = { cwd: root, env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" }, ...user };
    const setup = await run("bash", ["-c", `cd fx && bash ../setup.sh`], base);
    if (setup !== 0) throw new Error("realism corpus: the fixture script failed on Debian");
    await Promise.all(lists.map((_, k) => run("bash", [join(root, "driver.sh"), root, join(root, `list${k}`)], base)));
    const done = new Set(readdirSync(join(root, "out")));
    return CORPUS.map((c, i) => {
      if (!done.has(`${i}.rc`)) throw new Error(`realism corpus: call ${i} left no result (${c.run.slice(0, 60)})`);
      const dir = join(root, "c", String(i));
      const mask = (s) => s.split(dir).join("DIR").split(root).join("ROOT");
      const read = (ext) => mask(readFileSync(join(root, "out", `${i}.${ext}`), "utf8"));
      return { family: c.family, run: c.run, stdout: read("out"), stderr: read("err"), exit: Number(read("rc").trim()) };
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export default async function setup(project) {
  requireReferenceTools("realism-corpus", PACKAGES);
  const hash = createHash("sha256");
  for (const f of readdirSync(join(here, "corpus")).sort()) hash.update(f).update(readFileSync(join(here, "corpus", f)));
  const key = hash
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(versions())
    .digest("hex");
  if (existsSync(CACHE)) {
    const cached = JSON.parse(readFileSync(CACHE, "utf8"));
    if (cached.key === key) return void project.provide("realismCorpus", { setup: setupScript(), calls: cached.value });
  }
  const value = await computeCorpus();
  mkdirSync(dirname(CACHE), { recursive: true });
  writeFileSync(CACHE, JSON.stringify({ key, value }));
  project.provide("realismCorpus", { setup: setupScript(), calls: value });
}
