import * as git from "isomorphic-git";
import { parseArgs } from "../args";
import { globalConfig, localConfig } from "../config";
import { abbrev, cleanMessage, subjectOf } from "../format";
import { GitExit, currentBranch, fatal, headOid, identity, isRev, resolveRev, treeFiles, unsupported, type Repo } from "../repo";
import { restore } from "./worktree";

const o = (repo: Repo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });

/** git's rule for a branch or tag name (check-ref-format, the common cases). */
function validRefName(name: string): boolean {
  return !(!name || /(^[-.]|\/\.|\.\.|[\x00-\x20~^:?*[\\\x7f]|@\{|\.lock$|\/$|\.$|\/\/)/.test(name) || name === "@" || name === "HEAD");
}

async function isAncestor(repo: Repo, ancestor: string, of: string): Promise<boolean> {
  if (ancestor === of) return true;
  return git.isDescendent({ ...o(repo), oid: of, ancestor, depth: -1 });
}

export async function branch(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("branch", argv, {
    flags: {
      "-d": "delete",
      "--delete": "delete",
      "-D": "forcedelete",
      "-m": "move",
      "--move": "move",
      "-M": "forcemove",
      "-f": "force",
      "--force": "force",
      "-v": "verbose",
      "-vv": "verbose",
      "--verbose": "verbose",
      "-a": "all",
      "--all": "all",
      "-r": "remotes",
      "--remotes": "remotes",
      "--show-current": "current",
      "-l": "list",
      "--list": "list",
      "-q": "quiet",
      "--merged": "merged",
      "-c": "copy",
      "--copy": "copy",
      "--unset-upstream": "unset",
    },
    values: { "-u": "upstream", "--set-upstream-to": "upstream" },
    optional: { "--color": "color", "--no-color": "nocolor" },
  });
  if (p.opts.has("copy")) unsupported("git branch -c is not supported here; use 'git branch <new> <old>'");
  const branches = await git.listBranches(o(repo));
  const cur = await currentBranch(repo);
  if (p.opts.has("current")) {
    repo.out(cur ? `${cur}\n` : "");
    return 0;
  }
  if (p.opts.has("delete") || p.opts.has("forcedelete")) {
    if (!p.args.length) return fatal("branch name required");
    let status = 0;
    for (const name of p.args) {
      if (!branches.includes(name)) {
        repo.err(`error: branch '${name}' not found.\n`);
        status = 1;
        continue;
      }
      if (name === cur) {
        repo.err(`error: Cannot delete branch '${name}' checked out at '${repo.dir}'\n`);
        status = 1;
        continue;
      }
      const oid = await git.resolveRef({ ...o(repo), ref: `refs/heads/${name}` });
      const head = await headOid(repo);
      if (!p.opts.has("forcedelete") && !p.opts.has("force") && head && !(await isAncestor(repo, oid, head))) {
        repo.err(`error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`);
        status = 1;
        continue;
      }
      await git.deleteBranch({ ...o(repo), ref: name });
      repo.out(`Deleted branch ${name} (was ${abbrev(oid)}).\n`);
    }
    return status;
  }
  if (p.opts.has("move") || p.opts.has("forcemove")) {
    const [from, to] = p.args.length === 1 ? [cur, p.args[0]] : p.args;
    if (!from || !to) return fatal("branch name required");
    if (!branches.includes(from)) return fatal(`no branch named '${from}'`);
    if (!validRefName(to)) return fatal(`'${to}' is not a valid branch name`);
    if (branches.includes(to) && !p.opts.has("forcemove")) return fatal(`a branch named '${to}' already exists`);
    await git.renameBranch({ ...o(repo), oldref: from, ref: to, checkout: from === cur });
    return 0;
  }
  if (p.opts.has("upstream")) {
    const up = p.opts.get("upstream") as string;
    const name = p.args[0] ?? cur;
    const slash = up.indexOf("/");
    if (slash < 0) return fatal(`the requested upstream branch '${up}' does not exist`);
    await localConfig(repo).set(`branch.${name}.remote`, up.slice(0, slash));
    await localConfig(repo).set(`branch.${name}.merge`, `refs/heads/${up.slice(slash + 1)}`);
    repo.out(`branch '${name}' set up to track '${up}'.\n`);
    return 0;
  }
  if (p.opts.has("unset")) {
    const name = p.args[0] ?? cur;
    await localConfig(repo).set(`branch.${name}.remote`, undefined);
    await localConfig(repo).set(`branch.${name}.merge`, undefined);
    return 0;
  }
  if (p.args.length && !p.opts.has("list")) {
    const [name, start] = p.args;
    if (!validRefName(name!)) return fatal(`'${name}' is not a valid branch name`);
    if (branches.includes(name!) && !p.opts.has("force")) return fatal(`a branch named '${name}' already exists`);
    const oid = start ? await resolveRev(repo, start) : await headOid(repo);
    if (!oid) return fatal(`not a valid object name: '${cur ?? "master"}'`);
    await git.writeRef({ ...o(repo), ref: `refs/heads/${name}`, value: oid, force: true });
    return 0;
  }
  // Listing.
  const head = await headOid(repo);
  const lines: string[] = [];
  const subject = async (oid: string) => subjectOf((await git.readCommit({ ...o(repo), oid })).commit.message);
  const names: { name: string; ref: string; current: boolean }[] = [];
  if (!cur && head) names.push({ name: `(HEAD detached at ${abbrev(head)})`, ref: "HEAD", current: true });
  if (!p.opts.has("remotes")) for (const b of branches) names.push({ name: b, ref: `refs/heads/${b}`, current: b === cur });
  if (p.opts.has("all") || p.opts.has("remotes")) {
    for (const r of await git.listRemotes(o(repo))) {
      for (const b of await git.listBranches({ ...o(repo), remote: r.remote })) {
        if (b === "HEAD") {
          const target = await git.resolveRef({ ...o(repo), ref: `refs/remotes/${r.remote}/HEAD`, depth: 2 }).catch(() => "");
          names.push({ name: `${p.opts.has("all") ? "remotes/" : ""}${r.remote}/HEAD -> ${target.replace(/^refs\/remotes\//, "")}`, ref: "", current: false });
          continue;
        }
        names.push({ name: `${p.opts.has("all") ? "remotes/" : ""}${r.remote}/${b}`, ref: `refs/remotes/${r.remote}/${b}`, current: false });
      }
    }
  }
  const pattern = p.opts.has("list") && p.args.length ? refPattern(p.args) : null;
  const width = Math.max(0, ...names.map((n) => n.name.length));
  for (const n of names) {
    if (pattern && !pattern.test(n.name)) continue;
    if (p.opts.has("merged") && n.ref && head && !(await isAncestor(repo, await git.resolveRef({ ...o(repo), ref: n.ref }), head))) continue;
    let line = `${n.current ? "*" : " "} ${n.name}`;
    if (p.opts.has("verbose") && n.ref) {
      const oid = await git.resolveRef({ ...o(repo), ref: n.ref });
      line = `${n.current ? "*" : " "} ${n.name.padEnd(width)} ${abbrev(oid)} ${await subject(oid)}`;
    }
    lines.push(line);
  }
  repo.out(lines.map((l) => `${l}\n`).join(""));
  return 0;
}

/** `checkout`/`switch` to a branch or commit, refusing to overwrite local changes as git does. */
async function switchTo(repo: Repo, target: string, opts: { create?: string; force?: boolean; detach?: boolean; start?: string }): Promise<number> {
  const cur = await currentBranch(repo);
  const branches = await git.listBranches(o(repo));
  let ref = target;
  let detached = false;
  if (opts.create) {
    if (!validRefName(opts.create)) return fatal(`'${opts.create}' is not a valid branch name`);
    if (branches.includes(opts.create) && !opts.force) return fatal(`a branch named '${opts.create}' already exists`);
    const oid = opts.start ? await resolveRev(repo, opts.start) : await headOid(repo);
    if (!oid) {
      // On an unborn branch: just point HEAD at the new name.
      await git.writeRef({ ...o(repo), ref: "HEAD", value: `refs/heads/${opts.create}`, symbolic: true, force: true });
      repo.err(`Switched to a new branch '${opts.create}'\n`);
      return 0;
    }
    await git.writeRef({ ...o(repo), ref: `refs/heads/${opts.create}`, value: oid, force: true });
    if (opts.start) {
      const remoteRef = await git.expandRef({ ...o(repo), ref: opts.start }).catch(() => "");
      const m = /^refs\/remotes\/([^/]+)\/(.+)$/.exec(remoteRef);
      if (m) {
        await localConfig(repo).set(`branch.${opts.create}.remote`, m[1]);
        await localConfig(repo).set(`branch.${opts.create}.merge`, `refs/heads/${m[2]}`);
      }
    }
    ref = opts.create;
  } else if (!branches.includes(target)) {
    const remotes = await git.listRemotes(o(repo));
    const remote = remotes.find((r) => false && r);
    void remote;
    // A remote branch of the same name: create the local branch tracking it (git's DWIM).
    for (const r of remotes) {
      const oid = await git.resolveRef({ ...o(repo), ref: `refs/remotes/${r.remote}/${target}` }).catch(() => undefined);
      if (oid && !opts.detach) {
        await git.writeRef({ ...o(repo), ref: `refs/heads/${target}`, value: oid });
        await localConfig(repo).set(`branch.${target}.remote`, r.remote);
        await localConfig(repo).set(`branch.${target}.merge`, `refs/heads/${target}`);
        const code = await switchTo(repo, target, opts);
        if (code === 0) repo.err(`branch '${target}' set up to track '${r.remote}/${target}'.\n`);
        return code;
      }
    }
    if (!(await isRev(repo, target))) {
      repo.err(`error: pathspec '${target}' did not match any file(s) known to git\n`);
      return 1;
    }
    ref = await resolveRev(repo, target);
    detached = true;
  } else if (opts.detach) {
    ref = await resolveRev(repo, target);
    detached = true;
  }
  if (!detached && ref === cur && !opts.create) {
    repo.err(`Already on '${ref}'\n`);
    return 0;
  }
  try {
    await git.checkout({ ...o(repo), ref, force: opts.force === true });
  } catch (e) {
    const err = e as { code?: string; data?: { filepaths?: string[] } };
    if (err.code === "CheckoutConflictError") {
      repo.err(
        `error: Your local changes to the following files would be overwritten by checkout:\n${(err.data?.filepaths ?? []).map((f) => `\t${f}\n`).join("")}Please commit your changes or stash them before you switch branches.\nAborting\n`,
      );
      return 1;
    }
    throw e;
  }
  if (detached) {
    // isomorphic-git leaves HEAD as it was when given a commit id: point it at the commit.
    await git.writeRef({ ...o(repo), ref: "HEAD", value: ref, force: true });
    const subject = subjectOf((await git.readCommit({ ...o(repo), oid: ref })).commit.message);
    repo.err(
      `Note: switching to '${target}'.\n\nYou are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them, and you can discard any commits you make in this\nstate without impacting any branches by switching back to a branch.\n\nHEAD is now at ${abbrev(ref)} ${subject}\n`,
    );
  } else {
    repo.err(opts.create ? `Switched to a new branch '${ref}'\n` : `Switched to branch '${ref}'\n`);
  }
  return 0;
}

export async function checkout(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("checkout", argv, {
    flags: { "-f": "force", "--force": "force", "-q": "quiet", "--quiet": "quiet", "--detach": "detach" },
    values: { "-b": "create", "-B": "recreate", "--orphan": "orphan" },
  });
  if (p.opts.has("orphan")) unsupported("git checkout --orphan is not supported here; create a new repository with 'git init' instead");
  // checkout [<rev>] -- <paths> restores files; checkout <branch> switches.
  if (p.dashdash || (p.args.length > 1 && !p.opts.has("create") && !p.opts.has("recreate"))) {
    const [rev, ...rest] = p.dashdash ? [p.args[0], ...p.paths] : p.args;
    const paths = p.dashdash ? p.paths : rest;
    const source = p.dashdash && p.args.length ? rev : p.dashdash ? undefined : rev;
    return restore(repo, [...(source ? [`--source=${source}`, "--staged", "--worktree"] : []), "--", ...paths]);
  }
  const create = (p.opts.get("create") ?? p.opts.get("recreate")) as string | undefined;
  if (create) return switchTo(repo, create, { create, force: p.opts.has("recreate") || p.opts.has("force"), start: p.args[0] });
  if (!p.args.length) return 0;
  const target = p.args[0]!;
  if (target === "-") unsupported("git checkout - is not supported here; name the branch");
  const branches = await git.listBranches(o(repo));
  if (!branches.includes(target) && !(await isRev(repo, target))) {
    // A path, as `git checkout file` restores it from the index.
    const known = await treeFiles(repo, undefined);
    void known;
    return restore(repo, ["--", ...p.args]);
  }
  return switchTo(repo, target, { force: p.opts.has("force"), detach: p.opts.has("detach") });
}

export async function switchCmd(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("switch", argv, {
    flags: { "-f": "force", "--force": "force", "--discard-changes": "force", "-q": "quiet", "-d": "detach", "--detach": "detach" },
    values: { "-c": "create", "--create": "create", "-C": "recreate", "--force-create": "recreate", "--orphan": "orphan" },
  });
  if (p.opts.has("orphan")) unsupported("git switch --orphan is not supported here; create a new repository with 'git init' instead");
  const create = (p.opts.get("create") ?? p.opts.get("recreate")) as string | undefined;
  if (create) return switchTo(repo, create, { create, force: p.opts.has("recreate"), start: p.args[0] });
  if (!p.args.length) return fatal("missing branch or commit argument");
  const target = p.args[0]!;
  const branches = await git.listBranches(o(repo));
  if (!branches.includes(target) && !p.opts.has("detach")) {
    const remotes = await git.listRemotes(o(repo));
    const tracked = await Promise.all(remotes.map((r) => git.resolveRef({ ...o(repo), ref: `refs/remotes/${r.remote}/${target}` }).catch(() => undefined)));
    if (!tracked.some(Boolean)) {
      if (await isRev(repo, target))
        return fatal(`a branch is expected, got commit '${target}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.`);
      return fatal(`invalid reference: ${target}`);
    }
  }
  return switchTo(repo, target, { force: p.opts.has("force"), detach: p.opts.has("detach") });
}

export async function tag(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("tag", argv, {
    flags: { "-d": "delete", "--delete": "delete", "-a": "annotate", "--annotate": "annotate", "-f": "force", "--force": "force", "-l": "list", "--list": "list" },
    values: { "-m": "message", "--message": "message", "-n": "lines" },
  });
  const tags = (await git.listTags(o(repo))).sort();
  if (p.opts.has("delete")) {
    let status = 0;
    for (const name of p.args) {
      if (!tags.includes(name)) {
        repo.err(`error: tag '${name}' not found.\n`);
        status = 1;
        continue;
      }
      const oid = await git.resolveRef({ ...o(repo), ref: `refs/tags/${name}` });
      await git.deleteTag({ ...o(repo), ref: name });
      repo.out(`Deleted tag '${name}' (was ${abbrev(oid)})\n`);
    }
    return status;
  }
  if (!p.args.length || p.opts.has("list")) {
    const re = p.args.length ? refPattern(p.args) : null;
    repo.out(
      tags
        .filter((t) => !re || re.test(t))
        .map((t) => `${t}\n`)
        .join(""),
    );
    return 0;
  }
  const [name, rev] = p.args;
  if (!validRefName(name!)) return fatal(`'${name}' is not a valid tag name.`);
  if (tags.includes(name!) && !p.opts.has("force")) return fatal(`tag '${name}' already exists`);
  const oid = rev ? await resolveRev(repo, rev) : await headOid(repo);
  if (!oid) return fatal("Failed to resolve 'HEAD' as a valid ref.");
  const message = p.all.get("message");
  if (p.opts.has("annotate") || message) {
    if (!message) return fatal("there is no editor here: give the tag message with -m");
    const tagger = await identity(repo, "COMMITTER");
    await git.annotatedTag({ ...o(repo), ref: name!, object: oid, message: cleanMessage(message.join("\n\n")), tagger, force: p.opts.has("force") });
  } else {
    await git.tag({ ...o(repo), ref: name!, object: oid, force: p.opts.has("force") });
  }
  return 0;
}

export async function revParse(repo: Repo, argv: string[]): Promise<number> {
  let short: number | undefined;
  let abbrevRef = false;
  let verify = false;
  let quiet = false;
  const out: string[] = [];
  for (const a of argv) {
    if (a === "--short") short = 7;
    else if (a.startsWith("--short=")) short = Math.max(4, Number(a.slice(8)) || 7);
    else if (a === "--abbrev-ref") abbrevRef = true;
    else if (a === "--verify") verify = true;
    else if (a === "-q" || a === "--quiet") quiet = true;
    else if (a === "--symbolic-full-name") abbrevRef = false;
    else if (a === "--show-toplevel") out.push(repo.dir);
    else if (a === "--git-dir") out.push(repo.cwd === repo.dir ? ".git" : repo.gitdir);
    else if (a === "--absolute-git-dir") out.push(repo.gitdir);
    else if (a === "--is-inside-work-tree") out.push("true");
    else if (a === "--is-inside-git-dir" || a === "--is-bare-repository") out.push("false");
    else if (a === "--show-prefix") out.push(repo.cwd === repo.dir ? "" : `${repo.cwd.slice(repo.dir.length + 1)}/`);
    else if (a === "--show-cdup")
      out.push(
        repo.cwd === repo.dir
          ? ""
          : repo.cwd
              .slice(repo.dir.length + 1)
              .split("/")
              .map(() => "..")
              .join("/") + "/",
      );
    else if (a.startsWith("-")) unsupported(`git rev-parse ${a} is not supported here`);
    else {
      if (abbrevRef) {
        if (a === "HEAD" || a === "@") {
          const b = await currentBranch(repo);
          out.push(b ?? "HEAD");
          continue;
        }
        const full = await git.expandRef({ ...o(repo), ref: a }).catch(() => undefined);
        if (full) {
          out.push(full.replace(/^refs\/(heads|tags|remotes)\//, ""));
          continue;
        }
      }
      const peelTree = /\^\{tree\}$/.test(a);
      const name = a.replace(/\^\{(commit|tree)?\}$/, "");
      let oid: string;
      try {
        oid = await resolveRev(repo, name);
      } catch (e) {
        if (quiet && verify) return 1;
        if (verify) return fatal("Needed a single revision");
        if (e instanceof GitExit) {
          repo.out(out.map((l) => `${l}\n`).join(""));
          repo.out(`${a}\n`);
          throw e;
        }
        throw e;
      }
      if (peelTree) oid = (await git.readCommit({ ...o(repo), oid })).commit.tree;
      out.push(short ? abbrev(oid, short) : oid);
    }
  }
  repo.out(out.map((l) => `${l}\n`).join(""));
  return 0;
}

export async function config(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("config", argv, {
    flags: {
      "--global": "global",
      "--local": "local",
      "-l": "list",
      "--list": "list",
      "--unset": "unset",
      "--get": "get",
      "--add": "add",
      "--bool": "bool",
      "--system": "system",
      "--show-origin": "origin",
      "--replace-all": "replace",
    },
  });
  if (p.opts.has("system")) unsupported("git config --system is not supported here; use --global or the repository's config");
  if (p.opts.has("origin")) unsupported("git config --show-origin is not supported here");
  const global = p.opts.has("global") || !repo.gitdir;
  if (!global && !repo.gitdir) return fatal("not in a git directory");
  const file = global ? globalConfig(repo) : localConfig(repo);
  if (p.opts.has("list")) {
    const entries =
      p.opts.has("global") || p.opts.has("local")
        ? await file.entries()
        : [...(await globalConfig(repo).entries()), ...(repo.gitdir ? await localConfig(repo).entries() : [])];
    repo.out(entries.map(([k, v]) => `${k}=${v}\n`).join(""));
    return 0;
  }
  const [key, value] = p.args;
  if (!key) {
    repo.err("error: no action specified\n");
    return 2;
  }
  if (!/^[A-Za-z][A-Za-z0-9-]*(\..+)?\.[A-Za-z][A-Za-z0-9-]*$/.test(key)) {
    repo.err(`error: invalid key: ${key}\n`);
    return 1;
  }
  if (p.opts.has("unset")) return (await file.set(key, undefined)) ? 0 : 5;
  if (value === undefined || p.opts.has("get")) {
    const v =
      p.opts.has("global") || p.opts.has("local")
        ? await file.get(key)
        : await (async () => (repo.gitdir ? await localConfig(repo).get(key) : undefined) ?? (await globalConfig(repo).get(key)))();
    if (v === undefined) return 1;
    repo.out(`${p.opts.has("bool") ? (/^(true|yes|on|1)$/i.test(v) ? "true" : "false") : v}\n`);
    return 0;
  }
  if (/^(user\.password|credential\.)/i.test(key)) unsupported("credentials are not stored in git config here; the operator configures them per origin");
  await file.set(key, value);
  return 0;
}

/** `git branch --list` / `git tag -l` patterns: a name matches when it matches one of them (`*` any run, `?` one character). */
function refPattern(patterns: string[]): RegExp {
  const one = (a: string) =>
    a
      .replace(/[.+^${}()|\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".");
  return new RegExp(`^(${patterns.map(one).join("|")})$`);
}
