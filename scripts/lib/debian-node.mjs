// Debian 12's own `nodejs` (18.x) as the reference for `node`, without touching the machine's
// node: the machine may carry another nodejs package (NodeSource's 20.x replaces Debian's), so
// Debian's packages are fetched with `apt-get download`, unpacked with `dpkg -x` into the build
// cache, and run in a private mount namespace whose /usr is the unpacked tree over the real /usr
// (an overlay). Inside it `/usr/bin/node` is Debian's node, with its libnode and the
// /usr/share/nodejs modules it loads by absolute path (cjs-module-lexer, undici, acorn), exactly
// as if the package were installed; outside nothing changed. Needs root (unshare, mount).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheBase } from "./cache.mjs";

/** The packages besides nodejs/libnode108 (their library and /usr/share/nodejs dependencies). */
const DEPS = ["libc-ares2", "node-acorn", "node-cjs-module-lexer", "node-undici", "node-busboy", "node-xtend"];
const NOBODY = 65534;

let updated = false;
function apt(args, cwd) {
  return spawnSync("apt-get", args, { cwd, encoding: "utf8", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

/** Debian's version of nodejs (not NodeSource's): the newest one served from a debian.org suite. */
function debianVersion() {
  const find = () =>
    spawnSync("apt-cache", ["madison", "nodejs"], { encoding: "utf8" })
      .stdout.split("\n")
      .map((l) => l.split("|").map((s) => s.trim()))
      .find((p) => p.length >= 3 && /debian\.org/.test(p[2]) && /dfsg/.test(p[1]))?.[1];
  let v = find();
  if (!v && !updated) {
    apt(["update"]);
    updated = true;
    v = find();
  }
  if (!v) throw new Error("Debian's nodejs package is not in apt's lists (apt-cache madison nodejs): add Debian 12's repository and run apt-get update");
  return v;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/**
 * The unpacked tree (its `usr/` goes over /usr) and the version, fetched once per Debian version.
 * Throws a clear error when it cannot be had (not root, no repository).
 */
export function debianNode() {
  if (!isRoot()) throw new Error("Debian's node reference runs in a private mount namespace, which needs root (run the tests as root)");
  const version = debianVersion();
  const root = join(cacheBase, `debian-nodejs-${version.replace(/[^\w.+-]/g, "_")}`);
  if (!existsSync(join(root, "usr/bin/node"))) {
    const work = mkdtempSync(join(tmpdir(), "debian-nodejs-"));
    try {
      const pkgs = [`nodejs=${version}`, `libnode108=${version}`, ...DEPS];
      let r = apt(["download", ...pkgs], work);
      if (r.status !== 0 && !updated) {
        apt(["update"]);
        updated = true;
        r = apt(["download", ...pkgs], work);
      }
      if (r.status !== 0) throw new Error(`apt-get download ${pkgs.join(" ")} failed: ${r.stderr.trim().split("\n").pop()}`);
      const tree = join(work, "tree");
      mkdirSync(tree);
      for (const deb of readdirSync(work).filter((f) => f.endsWith(".deb"))) {
        const x = spawnSync("dpkg", ["-x", join(work, deb), tree], { encoding: "utf8" });
        if (x.status !== 0) throw new Error(`dpkg -x ${deb} failed: ${x.stderr.trim()}`);
      }
      mkdirSync(cacheBase, { recursive: true });
      rmSync(root, { recursive: true, force: true });
      renameSync(tree, root);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const probe = spawnSync(...debianNodeArgs("/usr/bin/node --version", { asNobody: false, root }), { encoding: "utf8" });
  const nodeVersion = probe.stdout.trim();
  if (!/^v18\./.test(nodeVersion)) throw new Error(`Debian's node in ${root} did not answer v18.x to --version: ${JSON.stringify(probe.stdout + probe.stderr)}`);
  return { root, version, nodeVersion };
}

/**
 * [file, args] for spawnSync: `bash -c script` in a private mount namespace where /usr/bin/node is
 * Debian's node, run as nobody unless asked otherwise. The tree comes from the cache (debianNode()).
 */
export function debianNodeArgs(script, { asNobody = true, root = null } = {}) {
  const tree = root ?? join(cacheBase, `debian-nodejs-${debianVersion().replace(/[^\w.+-]/g, "_")}`);
  const drop = asNobody ? `setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups ` : "";
  const inner = `mount -t overlay overlay -o lowerdir="$1/usr":/usr /usr && exec ${drop}bash -c "$2"`;
  return ["unshare", ["--mount", "--propagation", "private", "sh", "-c", inner, "sh", tree, script]];
}
