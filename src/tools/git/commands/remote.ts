import * as git from "isomorphic-git";
import { PolicyDenied } from "../../../policy/denied";
import { NetError } from "../../../net/errors";
import { netOf } from "../../net/web-fetch";
import { parseArgs } from "../args";
import { localConfig } from "../config";
import { abbrev } from "../format";
import { gitCredentials, gitHttp } from "../http";
import { GitExit, currentBranch, fatal, headOid, unsupported, type Repo } from "../repo";
import { mergeInto } from "./merge";

const o = (repo: Repo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });

/** Only smart HTTP(S) is spoken; other transports are refused by name. */
function checkUrl(url: string): void {
  if (/^https?:\/\//i.test(url)) return;
  if (/^(ssh|git|file):\/\//i.test(url) || /^[\w.-]+@[\w.-]+:/.test(url))
    unsupported(`the URL '${url}' needs a transport not available here; only https:// (smart HTTP) remotes work`);
  unsupported(`'${url}' is not an http(s) URL; clone or fetch from https:// remotes only (local paths are not supported)`);
}

function http(repo: Repo) {
  return gitHttp(netOf(repo.ctx), gitCredentials(repo.ctx.workerEnv?.TOOLSHED_GIT_CREDENTIALS), repo.io.limits.timeoutMs);
}

/** Network failures as git words them; policy refusals are rethrown for the dispatcher. */
async function network<T>(url: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof PolicyDenied) throw e;
    const cause = (e as { caller?: string; data?: { statusCode?: number }; code?: string }) ?? {};
    if (e instanceof NetError) throw new GitExit(128, `unable to access '${url}': ${e.message}`);
    if (cause.code === "HttpError") {
      const status = cause.data?.statusCode;
      if (status === 401 || status === 403) throw new GitExit(128, `Authentication failed for '${url}'`);
      if (status === 404) throw new GitExit(128, `repository '${url}' not found`);
      throw new GitExit(128, `unable to access '${url}': The requested URL returned error: ${status}`);
    }
    if (cause.code === "SmartHttpError" || cause.code === "ParseError")
      throw new GitExit(128, `unable to access '${url}': the server does not speak git's smart HTTP protocol`);
    throw e;
  }
}

/** The credentials isomorphic-git would ask for are never provided from the session: the operator's go as headers. */
const onAuth = () => ({ cancel: true });

export async function clone(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("clone", argv, {
    flags: {
      "-q": "quiet",
      "--quiet": "quiet",
      "--single-branch": "single",
      "--no-checkout": "nocheckout",
      "-n": "nocheckout",
      "--bare": "bare",
      "--mirror": "mirror",
      "--recursive": "recursive",
      "--recurse-submodules": "recursive",
      "--no-tags": "notags",
    },
    values: { "-b": "branch", "--branch": "branch", "--depth": "depth", "-o": "origin", "--origin": "origin" },
  });
  if (p.opts.has("bare") || p.opts.has("mirror")) unsupported("git clone --bare/--mirror are not supported here; clone with a work tree");
  if (p.opts.has("recursive")) unsupported("submodules are not supported here; clone each repository on its own");
  const [url, target] = [...p.args, ...p.paths];
  if (!url) return fatal("You must specify a repository to clone.");
  checkUrl(url);
  const name = target ?? decodeURIComponent(new URL(url).pathname.replace(/\/+$/, "").split("/").pop() ?? "repo").replace(/\.git$/, "");
  const dir = (name.startsWith("/") ? name : `${repo.cwd}/${name}`).replace(/\/+$/, "");
  const existing = await repo.fs.promises.readdir(dir).catch(() => null);
  if (existing && existing.length) return fatal(`destination path '${name}' already exists and is not an empty directory.`);
  if (!p.opts.has("quiet")) repo.err(`Cloning into '${name}'...\n`);
  const depth = p.opts.has("depth") ? Number(p.opts.get("depth")) : undefined;
  try {
    await network(url, () =>
      git.clone({
        fs: repo.fs,
        http: http(repo),
        dir,
        url,
        ref: p.opts.get("branch") as string | undefined,
        singleBranch: p.opts.has("single") || depth !== undefined,
        depth,
        noCheckout: p.opts.has("nocheckout"),
        noTags: p.opts.has("notags"),
        remote: (p.opts.get("origin") as string | undefined) ?? "origin",
        onAuth,
        cache: repo.cache,
      }),
    );
  } catch (e) {
    // A failed clone leaves nothing behind, as git does.
    if (!existing) await repo.fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
  const heads = await git.listBranches({ fs: repo.fs, dir });
  if (!heads.length && !p.opts.has("quiet")) repo.err("warning: You appear to have cloned an empty repository.\n");
  return 0;
}

async function remoteUrl(repo: Repo, remote: string): Promise<string> {
  const url = await localConfig(repo).get(`remote.${remote}.url`);
  if (!url)
    return fatal(
      `'${remote}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.`,
    );
  checkUrl(url);
  return url;
}

export async function fetch(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("fetch", argv, {
    flags: { "-q": "quiet", "--quiet": "quiet", "--all": "all", "-p": "prune", "--prune": "prune", "--tags": "tags", "-t": "tags", "--no-tags": "notags" },
    values: { "--depth": "depth" },
  });
  const remotes = p.opts.has("all") ? (await git.listRemotes(o(repo))).map((r) => r.remote) : [p.args[0] ?? "origin"];
  for (const remote of remotes) {
    const url = await remoteUrl(repo, remote);
    const before = await remoteHeads(repo, remote);
    const r = await network(url, () =>
      git.fetch({
        ...o(repo),
        http: http(repo),
        remote,
        ref: p.args[1],
        singleBranch: p.args[1] !== undefined,
        prune: p.opts.has("prune"),
        tags: p.opts.has("tags"),
        depth: p.opts.has("depth") ? Number(p.opts.get("depth")) : undefined,
        onAuth,
      }),
    );
    const after = await remoteHeads(repo, remote);
    if (!p.opts.has("quiet")) {
      let lines = "";
      for (const [b, oid] of after) {
        const old = before.get(b);
        if (old === oid) continue;
        lines += old ? `   ${abbrev(old)}..${abbrev(oid)}  ${b.padEnd(10)} -> ${remote}/${b}\n` : ` * [new branch]      ${b.padEnd(10)} -> ${remote}/${b}\n`;
      }
      if (lines) repo.err(`From ${url.replace(/\/\/[^@/]*@/, "//")}\n${lines}`);
    }
    void r;
  }
  return 0;
}

async function remoteHeads(repo: Repo, remote: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const b of await git.listBranches({ ...o(repo), remote })) {
    if (b === "HEAD") continue;
    out.set(b, await git.resolveRef({ ...o(repo), ref: `refs/remotes/${remote}/${b}` }));
  }
  return out;
}

export async function pull(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("pull", argv, {
    flags: { "-q": "quiet", "--quiet": "quiet", "--ff-only": "ffonly", "--no-ff": "noff", "--ff": "ff", "--rebase": "rebase", "-r": "rebase", "--no-rebase": "norebase" },
  });
  if (p.opts.has("rebase")) unsupported("git pull --rebase is not supported here; use 'git pull' (merge) or 'git pull --ff-only'");
  const branch = await currentBranch(repo);
  if (!branch) return fatal("You are not currently on a branch.");
  const remote = p.args[0] ?? (await localConfig(repo).get(`branch.${branch}.remote`)) ?? "origin";
  const merge = p.args[1] ?? (await localConfig(repo).get(`branch.${branch}.merge`))?.replace(/^refs\/heads\//, "");
  if (!merge)
    return fatal(`There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\n\n    git pull <remote> <branch>`);
  const code = await fetch(repo, ["-q", remote, merge]);
  if (code) return code;
  const url = await remoteUrl(repo, remote);
  return mergeInto(repo, `refs/remotes/${remote}/${merge}`, {
    ffOnly: p.opts.has("ffonly"),
    noFf: p.opts.has("noff"),
    label: `branch '${merge}' of ${url}`,
    message: `Merge branch '${merge}' of ${url}${branch === "master" || branch === "main" ? "" : ` into ${branch}`}\n`,
    quiet: p.opts.has("quiet"),
  });
}

export async function push(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("push", argv, {
    flags: {
      "-q": "quiet",
      "--quiet": "quiet",
      "-f": "force",
      "--force": "force",
      "-u": "upstream",
      "--set-upstream": "upstream",
      "--tags": "tags",
      "--all": "all",
      "-d": "delete",
      "--delete": "delete",
      "--force-with-lease": "force",
    },
  });
  if (p.opts.has("all")) unsupported("git push --all is not supported here; push each branch by name");
  const branch = await currentBranch(repo);
  const remote = p.args[0] ?? (branch ? await localConfig(repo).get(`branch.${branch}.remote`) : undefined) ?? "origin";
  const url = await remoteUrl(repo, remote);
  const refspecs = p.args.slice(1);
  if (p.opts.has("tags")) for (const t of await git.listTags(o(repo))) refspecs.push(`refs/tags/${t}`);
  if (!refspecs.length) {
    if (!branch) return fatal("You are not currently on a branch.");
    const merge = await localConfig(repo).get(`branch.${branch}.merge`);
    refspecs.push(merge ? `${branch}:${merge.replace(/^refs\/heads\//, "")}` : branch);
    if (!merge && !p.opts.has("upstream")) {
      return fatal(
        `The current branch ${branch} has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream ${remote} ${branch}\n`,
      );
    }
  }
  let lines = "";
  for (const spec of refspecs) {
    const force = p.opts.has("force") || spec.startsWith("+");
    const [local, remoteRef] = spec.replace(/^\+/, "").split(":") as [string, string | undefined];
    const del = p.opts.has("delete") || local === "";
    const target = remoteRef ?? local;
    const before = await git.resolveRef({ ...o(repo), ref: `refs/remotes/${remote}/${target.replace(/^refs\/heads\//, "")}` }).catch(() => undefined);
    const r = await network(url, () => git.push({ ...o(repo), http: http(repo), remote, ref: del ? undefined : local, remoteRef: target, force, delete: del, onAuth }));
    const status = r.refs?.[Object.keys(r.refs)[0] ?? ""];
    if (r.ok === false || (status && !status.ok)) {
      repo.err(
        `To ${url}\n ! [rejected]        ${local} -> ${target} (${status?.error ?? "rejected"})\nerror: failed to push some refs to '${url}'\nhint: Updates were rejected because the remote contains work that you do not\nhint: have locally. Integrate the remote changes (e.g. 'git pull ...') before pushing again.\n`,
      );
      return 1;
    }
    const now = del ? undefined : await git.resolveRef({ ...o(repo), ref: local }).catch(() => undefined);
    const short = target.replace(/^refs\/(heads|tags)\//, "");
    if (del) lines += ` - [deleted]         ${short}\n`;
    else if (!before) lines += ` * [new ${target.startsWith("refs/tags/") ? "tag" : "branch"}]      ${local.replace(/^refs\/(heads|tags)\//, "")} -> ${short}\n`;
    else if (before !== now) lines += `   ${abbrev(before)}..${abbrev(now ?? "")}  ${local} -> ${short}\n`;
    if (p.opts.has("upstream") && !target.startsWith("refs/tags/")) {
      await localConfig(repo).set(`branch.${local}.remote`, remote);
      await localConfig(repo).set(`branch.${local}.merge`, `refs/heads/${short}`);
      lines += `branch '${local}' set up to track '${remote}/${short}'.\n`;
    }
  }
  if (!p.opts.has("quiet")) repo.err(lines ? `To ${url}\n${lines}` : "Everything up-to-date\n");
  void headOid;
  return 0;
}

export async function remote(repo: Repo, argv: string[]): Promise<number> {
  const sub = argv[0];
  const remotes = await git.listRemotes(o(repo));
  if (!sub || sub === "-v" || sub === "--verbose") {
    repo.out(remotes.map((r) => (sub ? `${r.remote}\t${r.url} (fetch)\n${r.remote}\t${r.url} (push)\n` : `${r.remote}\n`)).join(""));
    return 0;
  }
  const [, name, url] = argv;
  switch (sub) {
    case "add":
      if (!name || !url) return fatal("usage: git remote add <name> <url>");
      if (remotes.some((r) => r.remote === name)) return fatal(`remote ${name} already exists.`);
      checkUrl(url);
      await git.addRemote({ ...o(repo), remote: name, url });
      return 0;
    case "remove":
    case "rm":
      if (!remotes.some((r) => r.remote === name)) {
        repo.err(`error: No such remote: '${name}'\n`);
        return 2;
      }
      await git.deleteRemote({ ...o(repo), remote: name! });
      return 0;
    case "get-url": {
      const r = remotes.find((x) => x.remote === name);
      if (!r) {
        repo.err(`error: No such remote '${name}'\n`);
        return 2;
      }
      repo.out(`${r.url}\n`);
      return 0;
    }
    case "set-url":
      if (!remotes.some((r) => r.remote === name)) {
        repo.err(`error: No such remote '${name}'\n`);
        return 2;
      }
      checkUrl(url ?? "");
      await localConfig(repo).set(`remote.${name}.url`, url);
      return 0;
    default:
      return unsupported(`git remote ${sub} is not supported here; use add, remove, get-url, set-url or -v`);
  }
}
