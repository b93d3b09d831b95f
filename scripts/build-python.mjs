// Builds CPython 3.11 and the SQLite shell as WASI programs from Debian's own source packages
// with Debian's clang and wasi-libc, into wasm/dist/python.wasm, wasm/dist/sqlite3.wasm and
// wasm/dist/python-stdlib.bin (a zip of the standard library with precompiled bytecode).
//
// Steps: apt-get install the toolchain (scripts/lib/debian.mjs), add a deb-src entry and
// `apt-get source --download-only python3.11 sqlite3 zlib bzip2 xz-utils`, build zlib, libbz2,
// liblzma and SQLite (library and shell) for wasm32-wasi, configure CPython with them (zlib,
// _bz2, _lzma, _sqlite3, _decimal), strip and
// optimize with wasm-opt, meter with wasm/meter (fuel: a `while True: pass` stops by counted
// work), pack the stdlib (scripts/python/make-stdlib.py).
//
// The result is cached OUTSIDE the clone, keyed by a hash of every input (this script, the
// files under scripts/python, the source package versions, the compiler and meter versions):
// ${XDG_CACHE_HOME:-~/.cache}/toolshed/python-<hash>/. A fresh clone on the same machine
// copies from there instead of spending minutes building. Nothing built is committed.
import { createHash } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { aptInstall } from "./lib/debian.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const here = join(root, "scripts", "python");
const distDir = join(root, "wasm", "dist");
/** The standard library is served as a Workers static asset (src/wasi/python/programs.ts, STDLIB_ASSET). */
const assetFile = join(root, "public", "python", "stdlib.bin");
const cacheBase = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "toolshed");
/** Files this script produces in wasm/dist. */
const OUTPUTS = ["python.wasm", "sqlite3.wasm", "python-stdlib.bin"];
/** Debian packages the build needs (build-python.mjs installs the missing ones). */
const PACKAGES = ["clang", "lld", "wasi-libc", "libclang-rt-14-dev-wasm32", "binaryen", "python3.11", "tcl", "pkgconf", "make", "dpkg-dev"];
/** Debian source packages the programs are built from. */
const SOURCES = ["python3.11", "sqlite3", "zlib", "bzip2", "xz-utils"];
/**
 * Linear memory CPython may grow to: past it malloc fails and Python raises MemoryError, the
 * session lives on. The runner's per-run cap (src/wasi/runner.ts) is the same 64 MiB.
 */
const PYTHON_MAX_MEMORY = 64 * 1024 * 1024;
/** The SQLite shell's cap, for the same reason. */
const SQLITE_MAX_MEMORY = 64 * 1024 * 1024;
/** Parallel jobs: these machines have 2 cores shared by several people. */
const JOBS = "2";
const CC = "clang-14 --target=wasm32-wasi";
/** SQLite as Debian configures it (FTS, R*Tree, math, ...), minus what WASI lacks (threads, mmap, WAL's shared memory, dlopen). */
const SQLITE_FLAGS = [
  "-DSQLITE_THREADSAFE=0",
  "-DSQLITE_OMIT_LOAD_EXTENSION",
  "-DSQLITE_OMIT_WAL",
  "-DSQLITE_MAX_MMAP_SIZE=0",
  "-DSQLITE_ENABLE_FTS3",
  "-DSQLITE_ENABLE_FTS3_PARENTHESIS",
  "-DSQLITE_ENABLE_FTS4",
  "-DSQLITE_ENABLE_FTS5",
  "-DSQLITE_ENABLE_RTREE",
  "-DSQLITE_ENABLE_MATH_FUNCTIONS",
  "-DSQLITE_ENABLE_COLUMN_METADATA",
  "-DSQLITE_ENABLE_DBSTAT_VTAB",
  "-DSQLITE_ENABLE_UNLOCK_NOTIFY",
  "-DSQLITE_SECURE_DELETE",
  "-DSQLITE_ENABLE_STMTVTAB",
  "-D_WASI_EMULATED_SIGNAL",
  "-D_WASI_EMULATED_PROCESS_CLOCKS",
  "-D_WASI_EMULATED_GETPID",
  "-D_WASI_EMULATED_MMAN",
];
const WASI_LIBS = ["-lwasi-emulated-signal", "-lwasi-emulated-process-clocks", "-lwasi-emulated-getpid", "-lwasi-emulated-mman"];

const log = (msg) => console.log(`[build-python] ${msg}`);
function die(msg) {
  console.error(`[build-python] ERROR: ${msg}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const shown = [cmd, ...args].join(" ");
  const r = spawnSync("nice", ["-n", "10", cmd, ...args], { stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"], ...opts, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.error) die(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    if (opts.quiet) console.error((r.stdout ?? "").slice(-4000) + (r.stderr ?? "").slice(-4000));
    die(`${shown.slice(0, 300)} failed (status ${r.status})`);
  }
  return r.stdout ?? "";
}

const have = (bin) => spawnSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" }).status === 0;

function ensureToolchain() {
  const missing = ["clang-14", "wasm-ld", "llvm-ar-14", "wasm-opt", "python3.11", "tclsh", "pkg-config", "dpkg-source"].filter((b) => !have(b));
  if (!existsSync("/usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a")) missing.push("libclang-rt-14-dev-wasm32");
  if (!existsSync("/usr/include/wasm32-wasi/stdio.h")) missing.push("wasi-libc");
  if (missing.length === 0) return;
  log(`toolchain incomplete (missing: ${missing.join(", ")}); installing Debian packages`);
  try {
    aptInstall("build-python", PACKAGES);
  } catch (e) {
    die(e.message);
  }
}

/** A deb-src entry for the suites the machine already uses, so `apt-get source` works. */
const SRC_LIST = "/etc/apt/sources.list.d/toolshed-src.sources";
function ensureDebSrc() {
  const listed = spawnSync("apt-cache", ["showsrc", "python3.11"], { encoding: "utf8" });
  if (listed.status === 0 && listed.stdout.includes("Package: python3.11")) return;
  log(`adding a deb-src entry (${SRC_LIST}) for Debian's source packages`);
  const entry = [
    "Types: deb-src",
    "URIs: http://deb.debian.org/debian",
    "Suites: bookworm bookworm-updates",
    "Components: main",
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg",
    "",
  ].join("\n");
  try {
    const r = spawnSync(process.getuid?.() === 0 ? "tee" : "sudo", process.getuid?.() === 0 ? [SRC_LIST] : ["-n", "tee", SRC_LIST], { input: entry, stdio: ["pipe", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error(`could not write ${SRC_LIST}`);
    // aptInstall runs apt-get update once; an empty install list is not allowed, so ask for one we need.
    aptInstall("build-python", ["dpkg-dev"]);
  } catch (e) {
    die(`${e.message}; as root, add a deb-src entry for bookworm and run apt-get update`);
  }
}

/** The source package versions apt would download (part of the cache key). */
function sourceVersions() {
  const out = execFileSync("apt-cache", ["showsrc", ...SOURCES], { encoding: "utf8" });
  const versions = {};
  let pkg = "";
  for (const line of out.split("\n")) {
    if (line.startsWith("Package: ")) pkg = line.slice(9).trim();
    if (line.startsWith("Version: ") && SOURCES.includes(pkg) && !versions[pkg]) versions[pkg] = line.slice(9).trim();
  }
  for (const s of SOURCES) if (!versions[s]) die(`apt-cache showsrc knows no version of ${s}`);
  return versions;
}

function inputHash(versions) {
  const h = createHash("sha256");
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  const walk = (dir) => {
    for (const ent of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, ent.name);
      if (ent.isDirectory()) walk(p);
      else {
        h.update(relative(here, p) + "\0");
        h.update(readFileSync(p));
      }
    }
  };
  walk(here);
  // The metering pass changes the output too.
  for (const f of ["wasm/meter/src/main.rs", "wasm/meter/Cargo.toml"]) if (existsSync(join(root, f))) h.update(readFileSync(join(root, f)));
  h.update(JSON.stringify(versions));
  h.update(execFileSync("clang-14", ["--version"], { encoding: "utf8" }));
  h.update(execFileSync("wasm-opt", ["--version"], { encoding: "utf8" }));
  return h.digest("hex").slice(0, 16);
}

function download(srcDir) {
  mkdirSync(srcDir, { recursive: true });
  const have = readdirSync(srcDir);
  if (SOURCES.every((s) => have.some((f) => f.startsWith(`${s}_`) && f.endsWith(".dsc")))) return;
  log(`apt-get source --download-only ${SOURCES.join(" ")}`);
  run("apt-get", ["source", "--download-only", ...SOURCES], { cwd: srcDir, quiet: true });
}

/** Unpacks the .orig tarball of `pkg` (upstream source; the programs are built from it). */
function unpack(srcDir, work, pkg) {
  const tar = readdirSync(srcDir).find((f) => f.startsWith(`${pkg}_`) && /\.orig\.tar\.(gz|xz|bz2)$/.test(f));
  if (!tar) die(`no ${pkg} .orig tarball in ${srcDir}`);
  const before = new Set(readdirSync(work));
  run("tar", ["xf", join(srcDir, tar)], { cwd: work });
  const made = readdirSync(work).find((d) => !before.has(d));
  if (!made) die(`unpacking ${tar} made no directory`);
  return join(work, made);
}

function buildZlib(dir, prefix) {
  log("zlib for wasm32-wasi");
  const env = { ...process.env, CC, CFLAGS: "-O2", AR: "llvm-ar-14", RANLIB: "llvm-ranlib-14", CHOST: "wasm32" };
  run("./configure", ["--static", `--prefix=${prefix}`], { cwd: dir, env, quiet: true });
  run("make", [`-j${JOBS}`, "libz.a"], { cwd: dir, env, quiet: true });
  run("make", ["install"], { cwd: dir, env, quiet: true });
}

/** libbz2 alone (its Makefile also builds the bzip2 programs, which need more than WASI has). */
function buildBzip2(dir, prefix) {
  log("libbz2 for wasm32-wasi");
  const objs = ["blocksort", "huffman", "crctable", "randtable", "compress", "decompress", "bzlib"];
  for (const o of objs) run("clang-14", ["--target=wasm32-wasi", "-O2", "-D_FILE_OFFSET_BITS=64", "-c", `${o}.c`, "-o", `${o}.o`], { cwd: dir, quiet: true });
  mkdirSync(join(prefix, "lib", "pkgconfig"), { recursive: true });
  mkdirSync(join(prefix, "include"), { recursive: true });
  run("llvm-ar-14", ["rcs", join(prefix, "lib", "libbz2.a"), ...objs.map((o) => `${o}.o`)], { cwd: dir });
  copyFileSync(join(dir, "bzlib.h"), join(prefix, "include", "bzlib.h"));
  // bzip2 ships no .pc file; CPython's configure asks pkg-config first.
  writeFileSync(
    join(prefix, "lib", "pkgconfig", "bzip2.pc"),
    `prefix=${prefix}\nlibdir=\${prefix}/lib\nincludedir=\${prefix}/include\nName: bzip2\nDescription: bzip2 compression library\nVersion: 1.0.8\nLibs: -L\${libdir} -lbz2\nCflags: -I\${includedir}\n`,
  );
}

/** liblzma alone, single-threaded (WASI preview1 has no threads), without the xz programs. */
function buildLzma(dir, prefix) {
  log("liblzma for wasm32-wasi");
  // Single-threaded builds mask signals with sigprocmask, which wasi-libc does not declare; liblzma never needs it.
  const hdr = join(dir, "src", "common", "mythread.h");
  const text = readFileSync(hdr, "utf8");
  const guard = "#if !(defined(_WIN32) && !defined(__CYGWIN__))\n// Use sigprocmask()";
  if (!text.includes(guard)) die(`${hdr} changed: the sigprocmask guard to patch for WASI is not there`);
  writeFileSync(hdr, text.replace(guard, "#if !(defined(_WIN32) && !defined(__CYGWIN__)) && !defined(__wasi__)\n// Use sigprocmask()"));
  const env = { ...process.env, CC, CFLAGS: "-O2 -D_WASI_EMULATED_SIGNAL", AR: "llvm-ar-14", RANLIB: "llvm-ranlib-14" };
  const off = ["threads", "xz", "xzdec", "lzmadec", "lzmainfo", "lzma-links", "scripts", "doc", "nls", "shared"].map((f) => `--disable-${f}`);
  run("./configure", ["--host=wasm32-unknown-wasi", `--prefix=${prefix}`, "--enable-static", ...off], { cwd: dir, env, quiet: true });
  run("make", [`-j${JOBS}`, "-C", "src/liblzma"], { cwd: dir, env, quiet: true });
  run("make", ["-C", "src/liblzma", "install"], { cwd: dir, env, quiet: true });
}

function buildSqlite(dir, prefix, out) {
  log("SQLite amalgamation (native tclsh) and its WASI library and shell");
  const bld = join(dir, "bld");
  mkdirSync(bld, { recursive: true });
  run("../configure", ["--disable-tcl"], { cwd: bld, quiet: true, env: { ...process.env, CC: "gcc" } });
  run("make", ["sqlite3.c", "shell.c"], { cwd: bld, quiet: true });
  const cflags = ["--target=wasm32-wasi", "-O2", ...SQLITE_FLAGS, "-include", join(here, "wasi-shim.h"), "-I", join(here, "include")];
  run("clang-14", [...cflags, "-c", "sqlite3.c", "-o", "sqlite3.o"], { cwd: bld, quiet: true });
  run("clang-14", [...cflags, "-DSQLITE_OMIT_POPEN", "-DSQLITE_NOHAVE_SYSTEM", "-c", "shell.c", "-o", "shell.o"], { cwd: bld, quiet: true });
  run("clang-14", ["--target=wasm32-wasi", "-O2", "-o", out, "shell.o", "sqlite3.o", ...WASI_LIBS, "-lm", "-Wl,-z,stack-size=1048576", `-Wl,--max-memory=${SQLITE_MAX_MEMORY}`], { cwd: bld, quiet: true });
  mkdirSync(join(prefix, "lib", "pkgconfig"), { recursive: true });
  mkdirSync(join(prefix, "include"), { recursive: true });
  run("llvm-ar-14", ["rcs", join(prefix, "lib", "libsqlite3.a"), "sqlite3.o"], { cwd: bld });
  for (const h of ["sqlite3.h", "sqlite3ext.h"]) copyFileSync(join(bld, h), join(prefix, "include", h));
  writeFileSync(
    join(prefix, "lib", "pkgconfig", "sqlite3.pc"),
    `prefix=${prefix}\nlibdir=\${prefix}/lib\nincludedir=\${prefix}/include\nName: SQLite\nDescription: SQL database engine\nVersion: 3.40.1\nLibs: -L\${libdir} -lsqlite3\nCflags: -I\${includedir}\n`,
  );
}

/**
 * One change to CPython's source, for runs resumed from the kept interpreter only
 * (scripts/python/snapshot-entry.c sets the flag): Py_FinalizeEx returns once everything a
 * program can observe is done (atexit, module teardown with its __del__ and file flushes, the
 * final flush of stdout and stderr), skipping the rest, which only frees memory the instance
 * drops anyway: half the steps of a resumed `python3 -c pass`. `_start` runs are unchanged.
 */
function patchFinalize(dir) {
  const file = join(dir, "Python", "pylifecycle.c");
  const text = readFileSync(file, "utf8");
  const head = "int\nPy_FinalizeEx(void)\n{";
  const flush = "    _PyEval_Fini();\n\n    /* Flush sys.stdout and sys.stderr (again, in case more was printed) */\n    if (flush_std_files() < 0) {\n        status = -1;\n    }\n";
  if (text.split(head).length !== 2 || text.split(flush).length !== 2) die(`${file} changed: the Py_FinalizeEx lines to patch are not there once`);
  const exit = "    /* toolshed: a run resumed from the kept interpreter ends here (snapshot-entry.c). */\n    if (_Py_toolshed_fast_exit) {\n        return status;\n    }\n";
  writeFileSync(file, text.replace(head, `int _Py_toolshed_fast_exit = 0;\n\n${head}`).replace(flush, `${flush}${exit}`));
}

function buildPython(dir, prefix) {
  log("CPython for wasm32-wasi (about 3-6 minutes on 2 cores)");
  patchFinalize(dir);
  const bld = join(dir, "builddir", "wasi");
  mkdirSync(bld, { recursive: true });
  const env = {
    ...process.env,
    CC,
    CPP: "clang-cpp-14 --target=wasm32-wasi",
    CXX: "clang++-14 --target=wasm32-wasi",
    LDSHARED: "wasm-ld",
    AR: "llvm-ar-14",
    RANLIB: "llvm-ranlib-14",
    PKG_CONFIG_PATH: "",
    PKG_CONFIG_LIBDIR: join(prefix, "lib", "pkgconfig"),
    CONFIG_SITE: "../../Tools/wasm/config.site-wasm32-wasi",
    LDFLAGS: `-Wl,--max-memory=${PYTHON_MAX_MEMORY}`,
  };
  const build = execFileSync(join(dir, "config.guess"), { encoding: "utf8" }).trim();
  run(
    "../../configure",
    ["-C", "--host=wasm32-unknown-wasi", `--build=${build}`, "--with-build-python=/usr/bin/python3.11", "--prefix=/usr", "--disable-test-modules", "--without-ensurepip"],
    { cwd: bld, env, quiet: true },
  );
  const setup = readFileSync(join(bld, "Makefile"), "utf8");
  for (const m of ["_sqlite3", "zlib", "_bz2", "_lzma", "_decimal"]) {
    if (!new RegExp(`MODULE_${m.toUpperCase()}_STATE=yes`).test(setup)) die(`configure did not enable ${m}; see ${bld}/config.log`);
  }
  run("make", [`-j${JOBS}`], { cwd: bld, env, quiet: true });
  // The snapshot entry points (toolshed_init, toolshed_resume; src/wasi/snapshot.ts) are linked
  // in beside CPython's unchanged main: compiled against the configured tree, then python.wasm
  // is linked again with them.
  const entry = join("Programs", "toolshed-snapshot.o");
  run("clang-14", ["--target=wasm32-wasi", "-O2", "-I.", "-I../../Include", "-I../../Include/internal", "-c", join(here, "snapshot-entry.c"), "-o", entry], { cwd: bld, env, quiet: true });
  rmSync(join(bld, "python.wasm"));
  run("make", ["python.wasm", `LINKFORSHARED=${entry}`], { cwd: bld, env, quiet: true });
  return { wasm: join(bld, "python.wasm"), buildLib: join(bld, "build", "lib.wasi-wasm32-3.11") };
}

/** wasm/meter, built the way build-wasm.mjs builds it (a native debug build is enough). */
function meterTool() {
  const meter = join(root, "wasm", "target", "debug", "meter");
  if (existsSync(meter)) return meter;
  const env = { ...process.env, RUSTC: "/usr/bin/rustc", CARGO_TARGET_DIR: join(root, "wasm", "target") };
  for (const k of ["RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_HOME"]) delete env[k];
  run("/usr/bin/cargo", ["build", "--offline", "-p", "meter"], { cwd: join(root, "wasm"), env });
  return meter;
}

/** Strips debug info, optimizes for speed (-O2: the interpreter loop is the hot path), then meters. */
function finishWasm(input, out, tmp) {
  const opt = join(tmp, `${out.split("/").pop()}.opt`);
  run("wasm-opt", ["--strip-debug", "--strip-producers", "-O2", input, "-o", opt]);
  run(meterTool(), [opt, out]);
}

/** Copies the library into public/ (git-ignored), where wrangler uploads it as a static asset. */
function publishAsset() {
  const src = join(distDir, "python-stdlib.bin");
  if (existsSync(assetFile) && statSync(assetFile).size === statSync(src).size && statSync(assetFile).mtimeMs >= statSync(src).mtimeMs) return;
  mkdirSync(dirname(assetFile), { recursive: true });
  copyFileSync(src, assetFile);
}

function main() {
  ensureToolchain();
  ensureDebSrc();
  const versions = sourceVersions();
  const hash = inputHash(versions);
  // `--hash`: print the cache key and stop (to find or prune a cache entry).
  if (process.argv.includes("--hash")) {
    console.log(join(cacheBase, `python-${hash}`));
    return;
  }
  const cached = join(cacheBase, `python-${hash}`);
  const targets = OUTPUTS.map((o) => join(distDir, o));
  if (OUTPUTS.every((o) => existsSync(join(cached, o)))) {
    mkdirSync(distDir, { recursive: true });
    const fresh = targets.every((t, i) => existsSync(t) && statSync(t).size === statSync(join(cached, OUTPUTS[i])).size && statSync(t).mtimeMs >= statSync(join(cached, OUTPUTS[i])).mtimeMs);
    if (!fresh) for (const o of OUTPUTS) copyFileSync(join(cached, o), join(distDir, o));
    log(`python build ${hash} found in the cache (${cached}); ${fresh ? "wasm/dist is current" : "copied into wasm/dist"}`);
    publishAsset();
    return;
  }
  const started = Date.now();
  log(`building python ${versions["python3.11"]}, sqlite3 ${versions.sqlite3}, zlib ${versions.zlib}, bzip2 ${versions.bzip2}, xz-utils ${versions["xz-utils"]} (inputs ${hash})`);
  const srcDir = join(cacheBase, "debian-src");
  download(srcDir);
  const work = join(cacheBase, `python-build-${hash}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const prefix = join(work, "prefix");
  buildZlib(unpack(srcDir, work, "zlib"), prefix);
  buildBzip2(unpack(srcDir, work, "bzip2"), prefix);
  buildLzma(unpack(srcDir, work, "xz-utils"), prefix);
  const sqliteRaw = join(work, "sqlite3-raw.wasm");
  buildSqlite(unpack(srcDir, work, "sqlite3"), prefix, sqliteRaw);
  const pyDir = unpack(srcDir, work, "python3.11");
  const py = buildPython(pyDir, prefix);

  const staging = join(work, "out");
  mkdirSync(staging, { recursive: true });
  finishWasm(py.wasm, join(staging, "python.wasm"), work);
  finishWasm(sqliteRaw, join(staging, "sqlite3.wasm"), work);
  run("/usr/bin/python3.11", ["-I", join(here, "make-stdlib.py"), join(pyDir, "Lib"), py.buildLib, join(here, "overlay"), join(staging, "python-stdlib.bin")]);
  // Publish the cache entry whole (a rename), so an interrupted build never looks complete.
  rmSync(cached, { recursive: true, force: true });
  renameSync(staging, cached);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  for (const o of OUTPUTS) {
    copyFileSync(join(cached, o), join(distDir, o));
    log(`wrote wasm/dist/${o} (${statSync(join(distDir, o)).size} bytes)`);
  }
  publishAsset();
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; cached in ${cached}`);
}

main();
