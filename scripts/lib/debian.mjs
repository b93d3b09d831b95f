// Installs Debian packages the project needs on a fresh machine (CI, a new laptop):
// apt-get as root, or through `sudo -n` when not root. Callers say what is missing;
// this module only knows how to install it.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

let updated = false;

function sh(tag, cmd, args) {
  console.log(`[${tag}] $ ${[cmd, ...args].join(" ")}`);
  const r = spawnSync(cmd, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (r.error) throw new Error(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with status ${r.status}`);
}

/** apt-get install the packages (no recommends); runs `apt-get update` once per process. */
export function aptInstall(tag, packages) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  let prefix = [];
  if (!isRoot) {
    const sudo = ["/usr/bin/sudo", "/bin/sudo"].find((p) => existsSync(p));
    if (!sudo) throw new Error(`not root and no sudo: install as root: apt-get install ${packages.join(" ")}`);
    prefix = [sudo, "-n", "env", "DEBIAN_FRONTEND=noninteractive"];
  }
  const apt = (args) => (prefix.length ? sh(tag, prefix[0], [...prefix.slice(1), "apt-get", ...args]) : sh(tag, "apt-get", args));
  if (!updated) {
    apt(["update"]);
    updated = true;
  }
  apt(["install", "-y", "--no-install-recommends", ...packages]);
}

/**
 * `apt-get source --download-only` the source packages into `dir` (needs a deb-src entry, which
 * scripts/build-python.mjs adds); downloading needs no root.
 */
export function aptSource(tag, packages, dir) {
  const r = spawnSync("apt-get", ["source", "--download-only", ...packages], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error) throw new Error(`could not run apt-get: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`[${tag}] apt-get source --download-only ${packages.join(" ")} exited with status ${r.status}`);
}
