// GNU gzip's source, which the toolbox compiles its deflate from (wasm/toolbox/build.rs): only
// gzip's own deflate.c/trees.c give GNU gzip's compressed bytes. Fetched with
// `apt-get source --download-only gzip` (scripts/lib/debian.mjs adds a deb-src entry when apt has none) into the
// machine's build cache and unpacked there; nothing of it is committed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheBase } from "./cache.mjs";
import { aptSource, ensureDebSrc, sourceVersion } from "./debian.mjs";

/** { dir, version }: the unpacked upstream gzip source apt's source package holds. */
export function gzipSource(tag) {
  ensureDebSrc(tag, "gzip");
  const version = sourceVersion("gzip");
  if (!version) throw new Error("apt-cache showsrc knows no version of gzip");
  const base = join(cacheBase, "gzip-src", version);
  const dir = join(base, "src");
  if (existsSync(join(dir, "deflate.c"))) return { dir, version };
  const dl = join(base, "download");
  mkdirSync(dl, { recursive: true });
  if (!readdirSync(dl).some((f) => /\.orig\.tar\./.test(f))) {
    console.log(`[${tag}] apt-get source --download-only gzip (${version})`);
    aptSource(tag, ["gzip"], dl);
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
