// vitest globalSetup (runs in Node) for test/python/regrtest.test.ts: CPython's own regression
// tests. Takes the files test/python/regrtest/plan.mjs names from Lib/test of the CPython source
// the session's python3 is built from (Debian's python3.11 .orig tarball, which
// scripts/build-python.mjs downloads into the build cache), runs every planned command line with
// Debian's python3.11 as `nobody` on the same files, and hands the test the files (a .tar.gz to
// upload) and Debian's outcome of every test. Debian's outcomes are cached in the machine's build
// cache by a hash of everything they depend on, so an unchanged run costs nothing.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheBase } from "../../scripts/lib/cache.mjs";
import { aptSource } from "../../scripts/lib/debian.mjs";
import { requireReferenceTools } from "../../scripts/lib/reference-tools.mjs";
import { LIB_TEST_FILES, RUNS } from "./regrtest/plan.mjs";

const NOBODY = 65534;
const PYTHON = "/usr/bin/python3.11";
const here = dirname(fileURLToPath(import.meta.url));
const SUMMARY = join(here, "regrtest", "summary.py");
/** Where scripts/build-python.mjs keeps Debian's source packages. */
const SOURCES = join(cacheBase, "debian-src");
/** The most one Debian run may take (test_statistics alone takes 20 s here under load). */
const RUN_TIMEOUT_MS = 600_000;

/** Only runs that include the Python tests pay for this. */
function wanted() {
  if (process.env.TOOLSHED_PYTHON_REFERENCE === "0") return false;
  const filters = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && a !== "vitest" && !/^\d+$/.test(a));
  return filters.length === 0 || filters.some((f) => f.includes("python"));
}

const tarball = () => (existsSync(SOURCES) ? readdirSync(SOURCES).find((f) => /^python3\.11_[^_]+\.orig\.tar\.(gz|xz)$/.test(f)) : undefined);

/** The CPython source tarball, fetched with `apt-get source` when missing; undefined when it cannot be had. */
function findSource() {
  if (tarball()) return join(SOURCES, tarball());
  try {
    mkdirSync(SOURCES, { recursive: true });
    aptSource("python-regrtest", ["python3.11"], SOURCES);
  } catch (e) {
    console.error(`[python-regrtest] ${e.message}`);
  }
  return tarball() ? join(SOURCES, tarball()) : undefined;
}

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** Extracts the planned files of Lib/test into `dir`/test. */
function extract(source, dir) {
  const top = sh("tar", ["tf", source]).split("\n")[0].split("/")[0];
  sh("tar", ["xf", source, "-C", dir, ...LIB_TEST_FILES.map((f) => `${top}/Lib/test/${f}`)]);
  cpSync(join(dir, top, "Lib", "test"), join(dir, "test"), { recursive: true });
  rmSync(join(dir, top), { recursive: true, force: true });
  // Bytecode is not shipped; each side compiles what it imports.
  sh("find", [join(dir, "test"), "-name", "__pycache__", "-prune", "-exec", "rm", "-rf", "{}", "+"]);
}

function runAsNobody(cwd, argv) {
  return new Promise((resolve) => {
    const env = { HOME: cwd, PWD: cwd, PATH: "/usr/bin:/bin", LANG: "C.UTF-8", TMPDIR: "/tmp", USER: "agent", LOGNAME: "agent", TERM: "dumb" };
    const p = spawn(
      "setpriv",
      [...["--reuid", String(NOBODY), "--regid", String(NOBODY), "--clear-groups", "env", "-i"], ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv],
      { cwd, stdio: ["ignore", "pipe", "pipe"] },
    );
    const out = [];
    p.stdout.on("data", (d) => out.push(d));
    p.stderr.on("data", (d) => out.push(d));
    const timer = setTimeout(() => p.kill("SIGKILL"), RUN_TIMEOUT_MS);
    p.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output: Buffer.concat(out).toString("utf8") });
    });
  });
}

/** Debian's outcome of every test of every run, two runs at a time. */
async function native(dir) {
  const results = new Array(RUNS.length);
  let next = 0;
  const worker = async () => {
    while (next < RUNS.length) {
      const i = next++;
      const xml = join(dir, `native-${i}.xml`);
      const ran = await runAsNobody(dir, [PYTHON, "-m", "test", "--junit-xml", xml, ...RUNS[i].args]);
      if (!existsSync(xml))
        throw new Error(`[python-regrtest] Debian's python3.11 -m test ${RUNS[i].args.join(" ")} wrote no results (status ${ran.status}):\n${ran.output.slice(-3000)}`);
      results[i] = JSON.parse(sh(PYTHON, ["-I", SUMMARY, xml])).tests;
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

export default async function setup({ provide }) {
  if (!wanted()) {
    provide("pythonRegrtest", { skip: "not part of this run", tgz: "", runs: [] });
    return;
  }
  const source = findSource();
  if (!source) {
    const skip = `needs CPython's source (python3.11_*.orig.tar.* in ${SOURCES}): run \`node scripts/build-python.mjs\` (it adds the deb-src entry), then \`apt-get source --download-only python3.11\` there`;
    console.log(`[skip] test/python/regrtest.test.ts: ${skip}`);
    provide("pythonRegrtest", { skip, tgz: "", runs: [] });
    return;
  }
  requireReferenceTools("python-regrtest", ["python3.11"]);
  const dir = mkdtempSync(join(tmpdir(), "pyregr-"));
  try {
    extract(source, dir);
    cpSync(SUMMARY, join(dir, "summary.py"));
    const tgz = sh("tar", ["czf", "-", "-C", dir, "--sort=name", "--owner=0", "--group=0", "--mtime=@0", "test", "summary.py"], { encoding: "buffer" });
    const version = sh(PYTHON, ["-c", "import sys; print(sys.version)"]).trim();
    const key = createHash("sha256")
      .update(JSON.stringify({ source: source.split("/").pop(), version, runs: RUNS, files: LIB_TEST_FILES }))
      .update(readFileSync(SUMMARY))
      .update(readFileSync(fileURLToPath(import.meta.url)))
      .digest("hex")
      .slice(0, 16);
    const cache = join(cacheBase, "references", `python-regrtest-${key}.json`);
    let results;
    if (existsSync(cache)) results = JSON.parse(readFileSync(cache, "utf8"));
    else {
      chmodSync(dir, 0o777);
      sh("chmod", ["-R", "a+rwX", dir]);
      const started = Date.now();
      results = await native(dir);
      console.log(`[python-regrtest] Debian's python3.11 ran ${RUNS.length} regrtest runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      mkdirSync(dirname(cache), { recursive: true });
      writeFileSync(cache, JSON.stringify(results));
    }
    provide("pythonRegrtest", {
      all: process.env.TOOLSHED_PYTHON_REGRTEST_ALL === "1",
      tgz: tgz.toString("base64"),
      runs: RUNS.map((r, i) => ({ ...r, native: results[i] })),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
