// GNU gzip's source, which the toolbox compiles its deflate from (wasm/toolbox/build.rs): only
// gzip's own deflate.c/trees.c give GNU gzip's compressed bytes. Fetched with
// `apt-get source --download-only gzip` (a deb-src entry is added when apt has none) into the
// machine's build cache and unpacked there; nothing of it is committed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheBase } from "./cache.mjs";
import { aptInstall } from "./debian.mjs";

const SRC_LIST = "/etc/apt/sources.list.d/toolshed-src.sources";

function showsrc(pkg) {
  const r = spawnSync("apt-cache", ["showsrc", pkg], { encoding: "utf8" });
  if (r.status !== 0) return "";
  const m = /^Version: (\S+)/m.exec(r.stdout);
  return m ? m[1] : "";
}

/** The same deb-src entry scripts/build-python.mjs adds, when apt knows no source packages. */
function ensureDebSrc(tag) {
  if (showsrc("gzip")) return;
  console.log(`[${tag}] adding a deb-src entry (${SRC_LIST}) for Debian's source packages`);
  const entry = [
    "Types: deb-src",
    "URIs: http://deb.debian.org/debian",
    "Suites: bookworm bookworm-updates",
    "Components: main",
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg",
    "",
  ].join("\n");
  const root = process.getuid?.() === 0;
  const r = spawnSync(root ? "tee" : "sudo", root ? [SRC_LIST] : ["-n", "tee", SRC_LIST], { input: entry, stdio: ["pipe", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`could not write ${SRC_LIST}; as root, add a deb-src entry for bookworm and run apt-get update`);
  // aptInstall runs apt-get update first; dpkg-dev is what `apt-get source` unpacks with.
  aptInstall(tag, ["dpkg-dev"]);
}

/** { dir, version }: the unpacked upstream gzip source apt's source package holds. */
export function gzipSource(tag) {
  ensureDebSrc(tag);
  const version = showsrc("gzip");
  if (!version) throw new Error("apt-cache showsrc knows no version of gzip");
  const base = join(cacheBase, "gzip-src", version);
  const dir = join(base, "src");
  if (existsSync(join(dir, "deflate.c"))) return { dir, version };
  const dl = join(base, "download");
  mkdirSync(dl, { recursive: true });
  if (!readdirSync(dl).some((f) => /\.orig\.tar\./.test(f))) {
    console.log(`[${tag}] apt-get source --download-only gzip (${version})`);
    const r = spawnSync("apt-get", ["source", "--download-only", "gzip"], { cwd: dl, stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error("apt-get source --download-only gzip failed");
  }
  const tar = readdirSync(dl).find((f) => /^gzip_.*\.orig\.tar\.(gz|xz|bz2)$/.test(f));
  if (!tar) throw new Error(`no gzip .orig tarball in ${dl}`);
  const tmp = join(base, "unpack");
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const r = spawnSync("tar", ["xf", join(dl, tar), "-C", tmp], { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`could not unpack ${tar}`);
  const [top] = readdirSync(tmp);
  if (!top || !existsSync(join(tmp, top, "deflate.c"))) throw new Error(`${tar} holds no deflate.c`);
  renameSync(join(tmp, top), dir);
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(join(base, "VERSION"), `${version}\n`);
  return { dir, version };
}
