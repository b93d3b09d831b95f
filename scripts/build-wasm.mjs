// Builds the WASI programs under wasm/ into wasm/dist/<name>.wasm.
//
// Only Debian's toolchain is used: /usr/bin/cargo + /usr/bin/rustc with the
// wasm32 std from libstd-rust-dev-wasm32, and crates from the librust-*-dev
// packages (wasm/.cargo/config.toml points cargo at /usr/share/cargo/registry).
// A rustup toolchain that may sit first on PATH lacks the WASI target, so it
// is bypassed on purpose. Missing packages are installed with apt-get.
//
// The build is skipped when a hash of the sources (plus this script and the
// compiler version) matches wasm/dist/.hash and every output exists, and copied
// from the machine's build cache (scripts/lib/cache.mjs) when it holds that hash.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheEntry, restoreFromCache, storeInCache } from "./lib/cache.mjs";
import { aptInstall } from "./lib/debian.mjs";
import { gzipSource } from "./lib/gzip-source.mjs";
import { wasmSourceHash } from "./lib/wasm-sources.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wasmDir = join(root, "wasm");
const distDir = join(wasmDir, "dist");
const hashFile = join(distDir, ".hash");
const CARGO = "/usr/bin/cargo";
const RUSTC = "/usr/bin/rustc";
const REGISTRY = "/usr/share/cargo/registry";
/** Binaries the workspace produces; each becomes wasm/dist/<name>.wasm. */
const PROGRAMS = ["fsprobe", "toolbox"];
/**
 * Debian packages the build needs. lld-14 provides the linker rustc calls as
 * /usr/bin/rust-lld (only a Recommends of the wasm32 std, which
 * --no-install-recommends skips). CRATES name the registry directories
 * (by prefix) that the librust-*-dev packages install.
 */
const PACKAGES = [
  "rustc",
  "cargo",
  "libstd-rust-dev-wasm32",
  "lld-14",
  "librust-regex+default-dev",
  "librust-memchr-dev",
  "librust-libc-dev",
  "librust-parity-wasm-dev",
  "librust-miniz-oxide-dev",
  // rg -P: look-around and backreferences.
  "librust-fancy-regex-dev",
  // gzip's own deflate (C, wasm/toolbox/build.rs): clang for wasm32, wasi-libc's headers, llvm-ar.
  "clang-14",
  "llvm-14",
  "wasi-libc",
];
const CRATES = [
  "regex-1",
  "regex-syntax-0",
  "aho-corasick-0",
  "memchr-2",
  "libc-0",
  "parity-wasm-0",
  "miniz_oxide-0",
  "adler-1",
  "fancy-regex-0",
  "bit-set-0",
  "bit-vec-0",
];
/** Exported i64 global the metering pass adds (see wasm/meter/src/main.rs). */
const FUEL_EXPORT = "toolshed_fuel";

const log = (msg) => console.log(`[build-wasm] ${msg}`);

function die(msg) {
  console.error(`[build-wasm] ERROR: ${msg}`);
  process.exit(1);
}

function sysroot() {
  return execFileSync(RUSTC, ["--print", "sysroot"], { encoding: "utf8" }).trim();
}

/** Names of the crate directories in Debian's registry, e.g. "regex-1.7.1". */
function registryCrates() {
  return existsSync(REGISTRY) ? readdirSync(REGISTRY) : [];
}

function missingPieces() {
  const missing = [];
  if (!existsSync(CARGO)) missing.push(CARGO);
  if (!existsSync(RUSTC)) missing.push(RUSTC);
  // existsSync follows the symlink, so a dangling rust-lld counts as missing.
  if (!existsSync("/usr/bin/rust-lld")) missing.push("/usr/bin/rust-lld (lld)");
  for (const b of ["/usr/bin/clang-14", "/usr/bin/llvm-ar-14"]) if (!existsSync(b)) missing.push(b);
  if (!existsSync("/usr/include/wasm32-wasi/stdio.h")) missing.push("wasi-libc");
  if (existsSync(RUSTC)) {
    const lib = join(sysroot(), "lib", "rustlib");
    if (!["wasm32-wasip1", "wasm32-wasi"].some((t) => existsSync(join(lib, t)))) missing.push("wasm32-wasi std");
  }
  const have = registryCrates();
  for (const c of CRATES) if (!have.some((d) => d.startsWith(c))) missing.push(`crate ${c}*`);
  return missing;
}

function ensureToolchain() {
  const missing = missingPieces();
  if (missing.length === 0) return;
  log(`toolchain incomplete (missing: ${missing.join(", ")}); installing Debian packages`);
  try {
    aptInstall("build-wasm", PACKAGES);
  } catch (e) {
    die(e.message);
  }
  const still = missingPieces();
  if (still.length) die(`still missing after apt-get install: ${still.join(", ")}`);
}

/**
 * Picks the WASI target: newer rustc calls it wasm32-wasip1 (and later drops
 * wasm32-wasi); Debian 12's 1.63 only knows wasm32-wasi. A name counts only if
 * rustc lists it and its std is installed.
 */
function pickTarget() {
  const list = execFileSync(RUSTC, ["--print", "target-list"], { encoding: "utf8" }).split("\n");
  const lib = join(sysroot(), "lib", "rustlib");
  for (const t of ["wasm32-wasip1", "wasm32-wasi"]) {
    if (list.includes(t) && existsSync(join(lib, t))) return t;
  }
  die(`${RUSTC} has no installed WASI std (looked for wasm32-wasip1, wasm32-wasi under ${lib})`);
}

function sourceHash(extra) {
  return wasmSourceHash(wasmDir, `${extra}${readFileSync(fileURLToPath(import.meta.url), "utf8")}`);
}

function main() {
  ensureToolchain();
  const version = execFileSync(RUSTC, ["--version"], { encoding: "utf8" }).trim();
  const target = pickTarget();
  let gzip;
  try {
    gzip = gzipSource("build-wasm");
  } catch (e) {
    die(`GNU gzip's source (the toolbox's deflate): ${e.message}`);
  }
  const hash = sourceHash(`${version}\n${target}\n${registryCrates().sort().join(",")}\ngzip ${gzip.version}\n`);
  const outputs = PROGRAMS.map((p) => join(distDir, `${p}.wasm`));
  if (existsSync(hashFile) && readFileSync(hashFile, "utf8").trim() === hash && outputs.every((o) => existsSync(o))) {
    log("wasm sources unchanged; skipping build");
    return;
  }
  const entry = cacheEntry("wasm", hash);
  const names = PROGRAMS.map((p) => `${p}.wasm`);
  if (restoreFromCache(entry, names, distDir)) {
    writeFileSync(hashFile, hash + "\n");
    log(`wasm build ${hash.slice(0, 16)} copied from the build cache`);
    return;
  }
  log(`building ${PROGRAMS.join(", ")} with ${version} for ${target}`);
  const started = Date.now();
  // Strip variables that would send cargo to rustup's toolchain instead.
  const env = { ...process.env, RUSTC, RUSTDOC: "/usr/bin/rustdoc", CARGO_TARGET_DIR: join(wasmDir, "target"), TOOLBOX_GZIP_SRC: gzip.dir };
  for (const k of ["RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_HOME"]) delete env[k];
  const cargo = (args, what) => {
    const r = spawnSync(CARGO, args, { cwd: wasmDir, stdio: ["ignore", "inherit", "inherit"], env });
    if (r.error) die(`could not run ${CARGO}: ${r.error.message}`);
    if (r.status !== 0) die(`cargo build of ${what} failed (status ${r.status}); see the compiler output above`);
  };
  cargo(["build", "--release", "--offline", "--target", target, ...PROGRAMS.flatMap((p) => ["-p", p])], PROGRAMS.join(", "));
  // The metering pass is a native tool run here on the build machine.
  // Debug profile: it compiles in a few seconds and still runs in well under one.
  cargo(["build", "--offline", "-p", "meter"], "the metering tool");
  const meter = join(wasmDir, "target", "debug", "meter");
  mkdirSync(distDir, { recursive: true });
  for (const p of PROGRAMS) {
    const built = join(wasmDir, "target", target, "release", `${p}.wasm`);
    if (!existsSync(built)) die(`cargo reported success but ${relative(root, built)} is missing`);
    const out = join(distDir, `${p}.wasm`);
    // Every shipped module is metered: CPU-bound loops must stop by counted
    // steps (exported global ${FUEL_EXPORT}), since the clock stands still.
    const r = spawnSync(meter, [built, out], { stdio: ["ignore", "inherit", "inherit"] });
    if (r.error || r.status !== 0) die(`metering ${p}.wasm failed${r.error ? ": " + r.error.message : ""}`);
    log(`wrote wasm/dist/${p}.wasm (${statSync(out).size} bytes, metered)`);
  }
  writeFileSync(hashFile, hash + "\n");
  storeInCache(entry, names, distDir);
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
