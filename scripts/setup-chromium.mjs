// Makes the local Browser Rendering binding (wrangler dev, the vitest plugin) run Debian's
// Chromium. Miniflare launches the Chrome build it pins from its cache and downloads it only
// when that file is missing; a download needs the internet, which local runs and CI lack.
// So: install Debian's chromium where it is missing, and put a launcher at the pinned path
// that execs it with the flags a root, offline, GPU-less machine needs.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { aptInstall } from "./lib/debian.mjs";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox", // as root Chromium refuses to start without it
  "--disable-gpu",
  "--disable-dev-shm-usage",
  // Without these Chromium opens connections to Google at start; the closed network refuses them.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The Chrome version miniflare pins for its local browser binding. */
function pinnedVersion() {
  const require = createRequire(import.meta.url);
  const src = readFileSync(require.resolve("miniflare"), "utf8");
  const m = /BROWSER_VERSION\s*=\s*"([\d.]+)"/.exec(src);
  if (!m) throw new Error("could not find BROWSER_VERSION in miniflare; see ../shared/notes/platform-facts.md");
  return m[1];
}

export function launcherPath() {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, ".wrangler", "chrome", `linux-${pinnedVersion()}`, "chrome-linux64", "chrome");
}

export function setupChromium() {
  if (!existsSync(CHROMIUM)) {
    console.log("[setup-chromium] Debian's chromium is missing; installing it");
    aptInstall("setup-chromium", ["chromium"]);
  }
  const launcher = launcherPath();
  const body = `#!/bin/sh\n# Written by scripts/setup-chromium.mjs: miniflare's pinned Chrome -> Debian's Chromium.\nexec ${CHROMIUM} ${FLAGS.join(" ")} "$@"\n`;
  if (!existsSync(launcher) || readFileSync(launcher, "utf8") !== body) {
    mkdirSync(dirname(launcher), { recursive: true });
    writeFileSync(launcher, body);
    chmodSync(launcher, 0o755);
    console.log(`[setup-chromium] launcher written for miniflare's pinned Chrome`);
  }
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) setupChromium();
