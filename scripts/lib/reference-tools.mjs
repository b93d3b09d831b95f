// The one list of reference programs: every real Debian program a test compares the toolbox, the
// shell or a runtime against, by the Debian package that provides it. Test setups call
// ensureReferenceTools() so a fresh machine gets them (apt-get, through scripts/lib/debian.mjs),
// and a test whose reference is still missing fails with referenceMissing()'s message, which
// names the package. To add a reference (python3.11, sqlite3, nodejs, git, ...): add its package
// and the binaries the tests run, then call ensureReferenceTools() from the suite's setup.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { aptInstall } from "./debian.mjs";

/**
 * Debian package -> the binaries (in /usr/bin or /bin) tests run from it, space-separated so the
 * list stays a table.
 */
const LIST = {
  // The option sweep (test/tools/options/gnu.global.mjs): GNU and util-linux counterparts of the toolbox.
  coreutils: `base64 basename cat chgrp chown cksum comm cp cut date df dirname du echo env expand expr false fmt fold head id
    install join ln ls md5sum mkdir mkfifo mktemp mv nl nproc numfmt od paste printenv printf readlink realpath rm rmdir seq
    sha1sum sha224sum sha256sum sha384sum sha512sum shuf sleep sort split stat tac tail tee timeout touch tr true truncate tty
    uname unexpand uniq wc whoami yes`,
  bash: "bash",
  grep: "grep egrep fgrep",
  sed: "sed",
  findutils: "find xargs",
  diffutils: "cmp diff",
  gzip: "gzip gunzip zcat",
  tar: "tar",
  "util-linux": "getopt more rev",
  bsdextrautils: "column hexdump",
  "libc-bin": "iconv",
  debianutils: "which",
  hostname: "hostname",
  gawk: "gawk",
  ripgrep: "rg",
  jq: "jq",
  tree: "tree",
  xxd: "xxd",
  bc: "bc",
  patch: "patch",
  binutils: "strings",
  file: "file",
  less: "less",
  // Perl's rename (Debian's `rename` package), not util-linux's rename.ul.
  rename: "rename",
  // The realism corpus (test/realism/corpus.global.mjs).
  "gettext-base": "envsubst",
  // The runtimes' tables (test/python, test/node) and git's (test/git, test/checkpoints). Node's
  // reference is Debian's nodejs 18, fetched beside the machine's node by debian-node.mjs (the
  // machine's /usr/bin/node may be another vendor's package), so it is not in this list.
  "python3.11": "python3.11",
  sqlite3: "sqlite3",
  // Files compressed by Debian's own programs for Python's bz2 and lzma (test/python).
  bzip2: "bzip2",
  "xz-utils": "xz",
  git: "git",
};

/** @type {Record<string, string[]>} */
export const REFERENCE_TOOLS = Object.fromEntries(Object.entries(LIST).map(([pkg, bins]) => [pkg, bins.trim().split(/\s+/)]));

/** The path of a reference binary, or null when it is not installed. */
export function referencePath(bin) {
  return ["/usr/bin", "/bin"].map((d) => join(d, bin)).find((p) => existsSync(p)) ?? null;
}

/** The package that provides `bin` according to the list, or undefined when it is not listed. */
export function referencePackage(bin) {
  return Object.entries(REFERENCE_TOOLS).find(([, bins]) => bins.includes(bin))?.[0];
}

/** The clear failure for a test whose reference program is absent. */
export function referenceMissing(bin) {
  const pkg = referencePackage(bin);
  return pkg
    ? `reference program ${bin} is not installed: install the Debian package "${pkg}" (apt-get install ${pkg}); the test setup installs every package of scripts/lib/reference-tools.mjs when it runs as root or with sudo`
    : `reference program ${bin} is not installed and no package in scripts/lib/reference-tools.mjs provides it: add it there`;
}

/**
 * Installs the listed packages whose binaries are missing (all packages, or only `packages`).
 * Returns the binaries still missing afterwards (bin -> package); a failed install is reported on
 * stderr, not thrown, so each test can fail on its own with referenceMissing()'s message.
 */
export function ensureReferenceTools(tag, packages = Object.keys(REFERENCE_TOOLS)) {
  const lacking = () => {
    const out = {};
    for (const pkg of packages) for (const bin of REFERENCE_TOOLS[pkg] ?? []) if (!referencePath(bin)) out[bin] = pkg;
    return out;
  };
  const before = lacking();
  const toInstall = [...new Set(Object.values(before))];
  if (toInstall.length) {
    try {
      aptInstall(tag, toInstall);
    } catch (e) {
      console.error(`[${tag}] could not install reference packages ${toInstall.join(" ")}: ${e.message}`);
    }
  }
  return lacking();
}

/** ensureReferenceTools() for `packages`; throws one line per binary still missing (a global setup's failure). */
export function requireReferenceTools(tag, packages) {
  const missing = Object.keys(ensureReferenceTools(tag, packages));
  if (missing.length) throw new Error(`[${tag}] ${missing.map(referenceMissing).join("\n")}`);
}
