// vitest globalSetup (runs in Node): a real smart-HTTP git server on 127.0.0.1 for the network
// tests (test/git/remote.test.ts): Debian's `git http-backend` behind a small CGI bridge.
// Repositories: seed.git (one commit), empty.git, secrets.git (holds a .env). Pushing needs Basic `agent:s3cret-push`
// (the operator credential vitest.config.ts gives the Worker). Extra routes: /moved/* redirects
// to the same server, /to-metadata/* redirects to the cloud metadata address. A second listener
// (otherOrigin) serves the same repositories on a loopback port outside the allowed origins.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureGit } from "./git.global.mjs";

export const PUSH_USER = "agent";
export const PUSH_PASSWORD = "s3cret-push";

function git(cwd, args, env = {}) {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { PATH: "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", ...env } });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function makeRepos(root) {
  git(root, ["init", "-q", "--bare", "-b", "master", "seed.git"]);
  git(root, ["init", "-q", "--bare", "-b", "master", "empty.git"]);
  const work = join(root, "seed-work");
  git(root, ["init", "-q", "-b", "master", work]);
  spawnSync("bash", ["-c", "printf 'hello\\n' > README.md && mkdir src && printf 'print(1)\\n' > src/main.py"], { cwd: work });
  const who = {
    GIT_AUTHOR_NAME: "Seed",
    GIT_AUTHOR_EMAIL: "seed@example.com",
    GIT_COMMITTER_NAME: "Seed",
    GIT_COMMITTER_EMAIL: "seed@example.com",
    GIT_AUTHOR_DATE: "@1700000000 +0000",
    GIT_COMMITTER_DATE: "@1700000000 +0000",
  };
  git(work, ["add", "-A"], who);
  git(work, ["commit", "-q", "-m", "seed"], who);
  git(work, ["push", "-q", join(root, "seed.git"), "master"], who);
  // A repository carrying a .env file: checking it out must meet the workspace's sensitive-file rule.
  git(root, ["init", "-q", "--bare", "-b", "master", "secrets.git"]);
  const sec = join(root, "secrets-work");
  git(root, ["init", "-q", "-b", "master", sec]);
  spawnSync("bash", ["-c", "printf 'ok\\n' > ok.txt && printf 'TOKEN=leaked\\n' > .env"], { cwd: sec });
  git(sec, ["add", "-A"], who);
  git(sec, ["commit", "-q", "-m", "with env"], who);
  git(sec, ["push", "-q", join(root, "secrets.git"), "master"], who);
  for (const r of ["seed.git", "empty.git", "secrets.git"]) git(join(root, r), ["config", "http.receivepack", "true"]);
}

/** One request through `git http-backend` (CGI): headers up to the blank line, then the body. */
function cgi(root, req, res, path, query) {
  const auth = req.headers.authorization ?? "";
  const user = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString() : "";
  const pushing = /git-receive-pack$/.test(path) || query.includes("service=git-receive-pack");
  if (pushing && user !== `${PUSH_USER}:${PUSH_PASSWORD}`) {
    res.writeHead(401, { "www-authenticate": 'Basic realm="git"', "content-type": "text/plain" });
    res.end("authentication required\n");
    return;
  }
  const env = {
    PATH: "/usr/bin:/bin",
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: "1",
    GIT_CONFIG_NOSYSTEM: "1",
    HOME: root,
    PATH_INFO: path,
    QUERY_STRING: query,
    REQUEST_METHOD: req.method,
    CONTENT_TYPE: req.headers["content-type"] ?? "",
    REMOTE_ADDR: "127.0.0.1",
    ...(user ? { REMOTE_USER: user.split(":")[0] } : {}),
    ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
    ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: req.headers["git-protocol"] } : {}),
  };
  const child = spawn("git", ["http-backend"], { env });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on("data", (chunk) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    const headers = {};
    let status = 200;
    for (const line of head.subarray(0, end).toString().split("\r\n")) {
      const i = line.indexOf(":");
      const k = line.slice(0, i).trim();
      const v = line.slice(i + 1).trim();
      if (k.toLowerCase() === "status") status = Number(v.split(" ")[0]);
      else headers[k] = v;
    }
    res.writeHead(status, headers);
    started = true;
    res.write(head.subarray(end + 4));
  });
  child.on("close", () => {
    if (!started) res.writeHead(500).end("http-backend failed\n");
    else res.end();
  });
}

function handler(root) {
  return (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    if (url.pathname.startsWith("/moved/")) {
      res.writeHead(302, { location: url.pathname.slice("/moved".length) + url.search }).end();
      return;
    }
    if (url.pathname.startsWith("/to-metadata/")) {
      res.writeHead(302, { location: `http://169.254.169.254/latest/meta-data${url.search}` }).end();
      return;
    }
    cgi(root, req, res, url.pathname, url.search.slice(1));
  };
}

const listen = (server) => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));

export default async function setup(project) {
  ensureGit();
  const root = mkdtempSync(join(tmpdir(), "git-server-"));
  makeRepos(root);
  const main = createServer(handler(root));
  const other = createServer(handler(root));
  const [port, otherPort] = [await listen(main), await listen(other)];
  project.provide("gitServer", { origin: `http://127.0.0.1:${port}`, otherOrigin: `http://127.0.0.1:${otherPort}` });
  return async () => {
    main.close();
    other.close();
    rmSync(root, { recursive: true, force: true });
  };
}
