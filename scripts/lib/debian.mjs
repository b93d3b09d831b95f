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

/** The version of `pkg`'s source package apt knows, or "" when it knows none. */
export function sourceVersion(pkg) {
  const r = spawnSync("apt-cache", ["showsrc", pkg], { encoding: "utf8" });
  if (r.status !== 0) return "";
  return /^Version: (\S+)/m.exec(r.stdout)?.[1] ?? "";
}

/**
 * Adds a deb-src entry for Debian 12 when apt knows no source of `probe`, so `apt-get source`
 * works. scripts/build-python.mjs keeps its own copy: its text is CPython's build cache key.
 */
export function ensureDebSrc(tag, probe) {
  if (sourceVersion(probe)) return;
  const list = "/etc/apt/sources.list.d/toolshed-src.sources";
  console.log(`[${tag}] adding a deb-src entry (${list}) for Debian's source packages`);
  const entry = [
    "Types: deb-src",
    "URIs: http://deb.debian.org/debian",
    "Suites: bookworm bookworm-updates",
    "Components: main",
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg",
    "",
  ].join("\n");
  const root = process.getuid?.() === 0;
  const r = spawnSync(root ? "tee" : "sudo", root ? [list] : ["-n", "tee", list], { input: entry, stdio: ["pipe", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`could not write ${list}; as root, add a deb-src entry for bookworm and run apt-get update`);
  // aptInstall runs apt-get update first; dpkg-dev is what `apt-get source` unpacks with.
  aptInstall(tag, ["dpkg-dev"]);
}

/**
 * `apt-get source --download-only` the source packages into `dir` (needs a deb-src entry:
 * ensureDebSrc); downloading needs no root.
 */
export function aptSource(tag, packages, dir) {
  const r = spawnSync("apt-get", ["source", "--download-only", ...packages], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error) throw new Error(`could not run apt-get: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`[${tag}] apt-get source --download-only ${packages.join(" ")} exited with status ${r.status}`);
}
