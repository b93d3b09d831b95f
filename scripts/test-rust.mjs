// `npm run test:rust`: the toolbox's Rust unit tests (`#[cfg(test)]` in wasm/*/src) run natively,
// offline, with Debian's toolchain, as scripts/build-wasm.mjs builds the modules: /usr/bin/cargo
// and /usr/bin/rustc (a rustup toolchain first on PATH is bypassed), crates from Debian's registry
// (wasm/.cargo/config.toml). `node scripts/prepare.mjs` installs that toolchain on a fresh machine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheBase } from "./lib/cache.mjs";

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
for (const k of ["RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_HOME"]) delete env[k];
// Optimised test builds: the regex- and jq-heavy tables take minutes unoptimised and seconds at
// opt-level 1, for a compile that costs about the same.
env.CARGO_PROFILE_TEST_OPT_LEVEL = "1";
env.CARGO_PROFILE_DEV_OPT_LEVEL = "1";
const r = spawnSync(CARGO, ["test", "--offline", "--workspace", ...process.argv.slice(2)], { cwd: wasmDir, stdio: "inherit", env });
if (r.error) console.error(`[test-rust] could not run ${CARGO}: ${r.error.message}`);
process.exit(r.status ?? 1);
