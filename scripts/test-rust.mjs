// `npm run test:rust`: the toolbox's Rust unit tests (`#[cfg(test)]` in wasm/*/src) run natively,
// offline, with Debian's toolchain, as scripts/build-wasm.mjs builds the modules: /usr/bin/cargo
// and /usr/bin/rustc (a rustup toolchain first on PATH is bypassed), crates from Debian's registry
// (wasm/.cargo/config.toml). `node scripts/prepare.mjs` installs that toolchain on a fresh machine.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheBase } from "./lib/cache.mjs";
import { gzipSource } from "./lib/gzip-source.mjs";
import { wasmSourceHash } from "./lib/wasm-sources.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wasmDir = join(root, "wasm");
const CARGO = "/usr/bin/cargo";
if (!existsSync(CARGO)) {
  console.error(`[test-rust] ${CARGO} is missing: run \`node scripts/prepare.mjs\` (it installs Debian's rustc and cargo)`);
  process.exit(1);
}
// The native test build lives in the machine's build cache, not the clone: a fresh clone (as CI
// makes each run) then recompiles only the workspace's own crates, not Debian's registry crates.
const env = { ...process.env, RUSTC: "/usr/bin/rustc", RUSTDOC: "/usr/bin/rustdoc", CARGO_TARGET_DIR: join(cacheBase, "cargo-test-target") };
// wasm/toolbox/build.rs compiles GNU gzip's deflate from this source.
const gzip = gzipSource("test-rust");
env.TOOLBOX_GZIP_SRC = gzip.dir;
for (const k of ["RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_HOME"]) delete env[k];
// Optimised test builds: the regex- and jq-heavy tables take minutes unoptimised and seconds at
// opt-level 1, for a compile that costs about the same.
env.CARGO_PROFILE_TEST_OPT_LEVEL = "1";
env.CARGO_PROFILE_DEV_OPT_LEVEL = "1";
const args = process.argv.slice(2);
// A whole run that passed is recorded under a hash of every input (the sources under wasm/, this
// script, the compiler): the same sources on the same machine (a fresh CI clone of an unchanged
// toolbox) print that run's results instead of compiling for minutes. TOOLSHED_RUST_TESTS=always
// runs them anyway; a filtered run (`npm run test:rust -- NAME`) always runs and records nothing.
const rustc = execFileSync("/usr/bin/rustc", ["--version"], { encoding: "utf8" });
const key = wasmSourceHash(wasmDir, `${rustc}gzip ${gzip.version}\n${readFileSync(fileURLToPath(import.meta.url), "utf8")}`);
const record = join(cacheBase, "rust-tests-passed", key);
if (!args.length && process.env.TOOLSHED_RUST_TESTS !== "always" && existsSync(record)) {
  console.log(`[test-rust] these sources passed on this machine before (${key.slice(0, 16)}); their results, not run again (TOOLSHED_RUST_TESTS=always runs them):`);
  process.stdout.write(readFileSync(record, "utf8"));
  process.exit(0);
}
const r = spawnSync(CARGO, ["test", "--offline", "--workspace", ...args], { cwd: wasmDir, stdio: ["ignore", "pipe", "inherit"], env, maxBuffer: 256 * 1024 * 1024 });
if (r.error) console.error(`[test-rust] could not run ${CARGO}: ${r.error.message}`);
const out = r.stdout?.toString() ?? "";
process.stdout.write(out);
if (r.status === 0 && !args.length) {
  mkdirSync(dirname(record), { recursive: true });
  const results = out.split("\n").filter((l) => l.startsWith("test result:"));
  writeFileSync(record, `${results.join("\n")}\n`);
}
process.exit(r.status ?? 1);
