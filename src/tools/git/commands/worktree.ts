import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import * as git from "isomorphic-git";
import { parseArgs } from "../args";
import { changesBetween, statusRows, worktreeDiffers } from "../changes";
import { globalConfig } from "../config";
import { countLines, statSummary, statText } from "../diff";
import { abbrev, cleanMessage, quotePath, subjectOf } from "../format";
import { currentBranch, display, fatal, headOid, identity, indexFiles, matches, repoPath, resolveRev, treeFiles, unsupported, type Repo } from "../repo";
import { computeStatus, longStatus } from "./status";
import { conflictedPaths } from "./merge-state";

const opts = (repo: Repo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });

export async function init(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("init", argv, {
    flags: { "-q": "quiet", "--quiet": "quiet", "--bare": "bare" },
    values: { "-b": "branch", "--initial-branch": "branch" },
  });
  if (p.opts.has("bare")) unsupported("git init --bare is not supported here; clone or init a work tree instead");
  const target = p.args[0] ? (p.args[0].startsWith("/") ? p.args[0] : `${repo.cwd}/${p.args[0]}`) : repo.cwd;
  const dir = target.replace(/\/+$/, "") || "/";
  await repo.fs.promises.mkdir(dir, { recursive: true });
  const existed = await repo.fs.promises.stat(`${dir}/.git/HEAD`).then(
    () => true,
    () => false,
  );
  const cfgBranch = await globalConfig(repo).get("init.defaultBranch");
  await git.init({ fs: repo.fs, dir, defaultBranch: (p.opts.get("branch") as string) ?? cfgBranch ?? "master" });
  if (!p.opts.has("quiet")) repo.out(`${existed ? "Reinitialized existing" : "Initialized empty"} Git repository in ${dir}/.git/\n`);
  return 0;
}

/**
 * Writes the loose blob objects of many files at once, before git.add indexes them: hashed with
 * the platform's SHA-1 and deflated by its zlib (synchronous, native), each written once through
 * the policy-guarded fs. git.add then finds each object present and writes none itself (it
 * hashes again to index it; a per-file CompressionStream and write pipeline made `git add` of
 * 1,000 new files take seconds). Skipped where core.autocrlf would change the bytes; a file that
 * cannot be read here is left to git.add.
 */
async function writeBlobs(repo: Repo, paths: string[]): Promise<void> {
  const autocrlf = await git.getConfig({ ...opts(repo), path: "core.autocrlf" }).catch(() => undefined);
  if (autocrlf !== undefined && autocrlf !== false && autocrlf !== "false") return;
  const fs = repo.ctx.fs;
  const made = new Set<string>();
  for (const path of paths) {
    const file = `${repo.dir === "/" ? "" : repo.dir}/${path}`;
    let bytes: Uint8Array;
    try {
      if (fs.lstat(file)?.kind !== "file") continue;
      bytes = fs.readFile(file);
    } catch {
      // A refused or vanished file is left to git.add, which reports it through the git fs.
      continue;
    }
    const head = new TextEncoder().encode(`blob ${bytes.length}\0`);
    const wrapped = new Uint8Array(head.length + bytes.length);
    wrapped.set(head);
    wrapped.set(bytes, head.length);
    const oid = createHash("sha1").update(wrapped).digest("hex");
    const dir = `${repo.gitdir}/objects/${oid.slice(0, 2)}`;
    const object = `${dir}/${oid.slice(2)}`;
    if (!made.has(dir)) {
      fs.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    if (fs.lstat(object)) continue;
    fs.writeFile(object, new Uint8Array(deflateSync(wrapped)), { mode: 0o444 });
  }
}

/** `git add`: paths, directories, `.`, `-A`/`--all`, `-u`; removals of deleted files are staged too. */
export async function add(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("add", argv, {
    flags: {
      "-A": "all",
      "--all": "all",
      "-u": "update",
      "--update": "update",
      "-f": "force",
      "--force": "force",
      "-v": "verbose",
      "--verbose": "verbose",
      "-n": "dry",
      "--dry-run": "dry",
      "--no-all": "noall",
      "-N": "intent",
      "--intent-to-add": "intent",
    },
  });
  if (p.opts.has("intent")) unsupported("git add -N is not supported here; add the file with 'git add <file>'");
  if (p.opts.has("dry")) unsupported("git add --dry-run is not supported here; use 'git status --short' to see what would be added");
  const words = [...p.args, ...p.paths];
  if (!words.length && !p.opts.has("all") && !p.opts.has("update")) {
    repo.err(
      "Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n",
    );
    return 0;
  }
  const specs = words.map((w) => repoPath(repo, w));
  const rows = await statusRows(repo);
  const known = new Set(rows.map((r) => r[0]));
  for (const [i, s] of specs.entries()) {
    if (s === "" || /[*?[]/.test(s)) continue;
    if (!rows.some((r) => matches([s], r[0]))) {
      const ignored = await git.isIgnored({ ...opts(repo), filepath: s }).catch(() => false);
      const exists = await repo.fs.promises.lstat(`${repo.dir}/${s}`).then(
        () => true,
        () => false,
      );
      if (ignored && exists) {
        if (p.opts.has("force")) {
          await git.add({ ...opts(repo), filepath: s, force: true });
          continue;
        }
        repo.err(
          `The following paths are ignored by one of your .gitignore files:\n${words[i]}\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"\n`,
        );
        return 1;
      }
      if (!exists || !known.has(s)) return fatal(`pathspec '${words[i]}' did not match any files`);
    }
  }
  const toAdd: string[] = [];
  const toRemove: string[] = [];
  for (const row of rows) {
    const [path, head, wd, stage] = row;
    if (!matches(specs, path)) continue;
    const untracked = stage === 0 && head === 0;
    if (p.opts.has("update") && untracked) continue;
    if (wd === 0) {
      if (stage !== 0) toRemove.push(path);
    } else if (untracked || worktreeDiffers(row) || stage === 0) toAdd.push(path);
  }
  // Conflicted paths are resolved by adding them, whatever their contents.
  for (const c of await conflictedPaths(repo)) if (matches(specs, c) && !toAdd.includes(c)) toAdd.push(c);
  for (const path of toRemove) await git.remove({ ...opts(repo), filepath: path });
  // The rows already leave out ignored untracked files (statusRows asked git once per path), so
  // git.add need not read every .gitignore again for each: force skips that second look.
  if (toAdd.length > 1) await writeBlobs(repo, toAdd);
  if (toAdd.length) await git.add({ ...opts(repo), filepath: toAdd, force: true });
  if (p.opts.has("verbose")) {
    for (const path of toAdd) repo.out(`add '${path}'\n`);
    for (const path of toRemove) repo.out(`remove '${path}'\n`);
  }
  return 0;
}

export async function rm(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("rm", argv, {
    flags: { "--cached": "cached", "-r": "recursive", "-f": "force", "--force": "force", "-q": "quiet", "--quiet": "quiet", "-n": "dry", "--dry-run": "dry" },
  });
  const words = [...p.args, ...p.paths];
  if (!words.length) {
    repo.err("usage: git rm [<options>] [--] <file>...\n");
    return 129;
  }
  const index = await indexFiles(repo);
  const targets: string[] = [];
  for (const w of words) {
    const s = repoPath(repo, w);
    const hits = [...index.keys()].filter((path) => matches([s], path));
    if (!hits.length) return fatal(`pathspec '${w}' did not match any files`);
    if (!p.opts.has("recursive") && !hits.includes(s)) return fatal(`not removing '${w}' recursively without -r`);
    targets.push(...hits.filter((h) => !targets.includes(h)));
  }
  targets.sort();
  for (const path of targets) {
    if (!p.opts.has("quiet")) repo.out(`rm '${path}'\n`);
    if (p.opts.has("dry")) continue;
    await git.remove({ ...opts(repo), filepath: path });
    if (!p.opts.has("cached")) {
      await repo.fs.promises.unlink(`${repo.dir}/${path}`).catch((e: { code?: string }) => {
        if (e.code !== "ENOENT") throw e;
      });
      await pruneEmptyDirs(repo, path);
    }
  }
  return 0;
}

/** Removes directories a deletion left empty, up to the work tree's root, as git does. */
async function pruneEmptyDirs(repo: Repo, path: string): Promise<void> {
  for (let dir = path.slice(0, path.lastIndexOf("/")); dir && dir.includes(""); dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/")))) {
    const full = `${repo.dir}/${dir}`;
    const names = await repo.fs.promises.readdir(full).catch(() => null);
    if (!names || names.length) return;
    await repo.fs.promises.rmdir(full);
    if (!dir.includes("/")) return;
  }
}

export async function mv(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("mv", argv, {
    flags: { "-f": "force", "--force": "force", "-k": "skip", "-n": "dry", "--dry-run": "dry", "-v": "verbose", "--verbose": "verbose" },
  });
  const words = [...p.args, ...p.paths];
  if (words.length < 2) {
    repo.err("usage: git mv [<options>] <source>... <destination>\n");
    return 129;
  }
  const dest = repoPath(repo, words[words.length - 1]!);
  const destStat = await repo.fs.promises.stat(`${repo.dir}/${dest}`).catch(() => null);
  const sources = words.slice(0, -1);
  if (sources.length > 1 && !destStat?.isDirectory()) return fatal(`destination '${words[words.length - 1]}' is not a directory`);
  const index = await indexFiles(repo);
  for (const w of sources) {
    const src = repoPath(repo, w);
    const target = destStat?.isDirectory() ? (dest ? `${dest}/${src.slice(src.lastIndexOf("/") + 1)}` : src.slice(src.lastIndexOf("/") + 1)) : dest;
    const files = [...index.keys()].filter((k) => matches([src], k));
    if (!files.length) return fatal(`not under version control, source=${src}, destination=${target}`, 128);
    if (
      !p.opts.has("force") &&
      (await repo.fs.promises.lstat(`${repo.dir}/${target}`).then(
        () => true,
        () => false,
      ))
    ) {
      return fatal(`destination exists, source=${src}, destination=${target}`);
    }
    if (p.opts.has("verbose")) repo.out(`Renaming ${src} to ${target}\n`);
    if (p.opts.has("dry")) continue;
    const parent = target.includes("/") ? `${repo.dir}/${target.slice(0, target.lastIndexOf("/"))}` : repo.dir;
    await repo.fs.promises.mkdir(parent, { recursive: true });
    repo.ctx.fs.rename(repo.ctx.fs.resolve("/", `${repo.dir}/${src}`, false), repo.ctx.fs.resolve("/", `${repo.dir}/${target}`, false));
    for (const f of files) {
      const moved = target + f.slice(src.length);
      await git.remove({ ...opts(repo), filepath: f });
      await git.add({ ...opts(repo), filepath: moved });
    }
  }
  return 0;
}

export async function lsFiles(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("ls-files", argv, {
    flags: {
      "-c": "cached",
      "--cached": "cached",
      "-m": "modified",
      "--modified": "modified",
      "-o": "others",
      "--others": "others",
      "-d": "deleted",
      "--deleted": "deleted",
      "-s": "stage",
      "--stage": "stage",
      "--exclude-standard": "exclude",
      "-z": "z",
      "-u": "unmerged",
      "--unmerged": "unmerged",
      "--full-name": "full",
    },
  });
  if (p.opts.has("z")) unsupported("git ls-files -z is not supported here; paths print one a line, quoted when unusual");
  const here = repo.cwd === repo.dir ? "" : repo.cwd.slice(repo.dir.length + 1);
  const specs = [...p.args, ...p.paths].map((a) => repoPath(repo, a));
  const scope = (path: string) => (here === "" || path.startsWith(`${here}/`)) && matches(specs, path);
  const show = (path: string) => quotePath(p.opts.has("full") ? path : display(repo, path));
  const out: string[] = [];
  const index = await indexFiles(repo);
  const rows = p.opts.has("modified") || p.opts.has("others") || p.opts.has("deleted") ? await statusRows(repo) : [];
  const listCached = p.opts.has("cached") || !(p.opts.has("modified") || p.opts.has("others") || p.opts.has("deleted") || p.opts.has("unmerged"));
  if (p.opts.has("unmerged")) {
    for (const path of await conflictedPaths(repo)) if (scope(path)) out.push(show(path));
  }
  if (listCached || p.opts.has("stage")) {
    for (const [path, e] of index) if (scope(path)) out.push(p.opts.has("stage") ? `${e.mode} ${e.oid} 0\t${show(path)}` : show(path));
  }
  if (p.opts.has("deleted")) for (const [path, , wd, stage] of rows) if (stage !== 0 && wd === 0 && scope(path)) out.push(show(path));
  if (p.opts.has("modified")) for (const row of rows) if (row[3] !== 0 && (worktreeDiffers(row) || row[2] === 0) && scope(row[0])) out.push(show(row[0]));
  if (p.opts.has("others")) for (const [path, head, wd, stage] of rows) if (head === 0 && stage === 0 && wd !== 0 && scope(path)) out.push(show(path));
  repo.out(out.map((l) => `${l}\n`).join(""));
  return 0;
}

/** The lines `commit` prints under its first: counts and created/deleted/renamed files. */
/** `full`: the whole diffstat first, as merge prints it; commit prints only the counts. */
export async function commitSummary(repo: Repo, parent: string | undefined, oid: string, full = false): Promise<string> {
  const changes = await changesBetween(
    repo,
    { kind: "tree", oid: parent ? (await git.readCommit({ ...opts(repo), oid: parent })).commit.tree : undefined },
    { kind: "tree", oid: (await git.readCommit({ ...opts(repo), oid })).commit.tree },
  );
  const rows = changes.map(countLines);
  let out = full ? statText(rows) : statSummary(rows);
  for (const ch of changes) {
    if (ch.renamed) out += ` rename ${rows[changes.indexOf(ch)]!.name} (100%)\n`;
    else if (!ch.old) out += ` create mode ${ch.neu!.mode} ${quotePath(ch.neu!.path)}\n`;
    else if (!ch.neu) out += ` delete mode ${ch.old.mode} ${quotePath(ch.old.path)}\n`;
    else if (ch.old.mode !== ch.neu.mode) out += ` mode change ${ch.old.mode} => ${ch.neu.mode} ${quotePath(ch.neu.path)}\n`;
  }
  return out;
}

export async function commit(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("commit", argv, {
    flags: {
      "-a": "all",
      "--all": "all",
      "-q": "quiet",
      "--quiet": "quiet",
      "--allow-empty": "empty",
      "--amend": "amend",
      "--no-edit": "noedit",
      "--allow-empty-message": "emptymsg",
      "-v": "verbose",
      "--no-verify": "noverify",
      "-n": "noverify",
      "-s": "signoff",
      "--signoff": "signoff",
    },
    values: {
      "-m": "message",
      "--message": "message",
      "-F": "file",
      "--file": "file",
      "--author": "author",
      "--date": "date",
      "-C": "reuse",
      "--reuse-message": "reuse",
    },
  });
  if (p.opts.has("signoff")) unsupported("git commit -s is not supported here; add the Signed-off-by line to the message");
  if (p.args.length || p.paths.length) unsupported("git commit <paths> is not supported here; 'git add' the paths, then 'git commit'");
  const head = await headOid(repo);
  const mergeHead = await git.resolveRef({ ...opts(repo), ref: "MERGE_HEAD" }).catch(() => undefined);
  if (mergeHead && (await conflictedPaths(repo)).length) {
    repo.err(
      "error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n",
    );
    return 128;
  }
  if (p.opts.has("all")) {
    const rows = await statusRows(repo);
    for (const row of rows) {
      const [path, head, wd, stage] = row;
      if (head === 0 && stage === 0) continue;
      if (wd === 0 && stage !== 0) await git.remove({ ...opts(repo), filepath: path });
      else if (wd !== 0 && worktreeDiffers(row)) await git.add({ ...opts(repo), filepath: path });
    }
  }
  let message: string | undefined;
  const msgs = p.all.get("message");
  if (msgs) message = msgs.join("\n\n");
  else if (p.opts.has("file")) {
    const f = p.opts.get("file") as string;
    message = f === "-" ? await readAll(repo) : ((await repo.fs.promises.readFile(f.startsWith("/") ? f : `${repo.cwd}/${f}`, "utf8")) as string);
  } else if (p.opts.has("reuse")) {
    message = (await git.readCommit({ ...opts(repo), oid: await resolveRev(repo, p.opts.get("reuse") as string) })).commit.message;
  } else if (p.opts.has("amend") && head) {
    message = (await git.readCommit({ ...opts(repo), oid: head })).commit.message;
  } else if (mergeHead) {
    message = // Kept as written, "# Conflicts:" lines included: without an editor git cleans whitespace only.
      message = (await repo.fs.promises.readFile(`${repo.gitdir}/MERGE_MSG`, "utf8").catch(() => "Merge")) as string;
  } else {
    repo.err('error: there is no editor here: give the message with -m "..." or -F <file>\n');
    return 1;
  }
  message = cleanMessage(message!);
  if (!message && !p.opts.has("emptymsg")) {
    repo.err("Aborting commit due to empty commit message.\n");
    return 1;
  }
  let parents = head ? [head] : [];
  if (p.opts.has("amend")) {
    if (!head) return fatal("You have nothing to amend.");
    parents = (await git.readCommit({ ...opts(repo), oid: head })).commit.parent;
  }
  if (mergeHead) parents = [head!, mergeHead];
  // Nothing staged: git prints the status and exits 1.
  if (!p.opts.has("empty") && !p.opts.has("amend") && !mergeHead) {
    const staged = await changesBetween(
      repo,
      { kind: "tree", oid: head ? (await git.readCommit({ ...opts(repo), oid: head })).commit.tree : undefined },
      { kind: "index" },
      [],
      { renames: false },
    );
    if (!staged.length) {
      const st = await computeStatus(repo);
      if (p.opts.has("quiet")) return 1;
      const text = await longStatus(repo, st);
      repo.out(text.replace(/\n$/, "") + "\n");
      return 1;
    }
  }
  const author = await identity(repo, "AUTHOR");
  const committer = await identity(repo, "COMMITTER");
  if (p.opts.has("author")) {
    const m = /^(.*?)\s*<([^>]*)>$/.exec(p.opts.get("author") as string);
    if (!m) return fatal(`--author '${p.opts.get("author")}' is not 'Name <email>' and matches no existing author`);
    author.name = m[1]!;
    author.email = m[2]!;
  }
  // --amend keeps the commit's author, date included (git reads it before the environment).
  if (p.opts.has("amend") && head && !p.opts.has("author")) {
    const old = (await git.readCommit({ ...opts(repo), oid: head })).commit.author;
    Object.assign(author, old);
  }
  const oid = await git.commit({ ...opts(repo), message, author, committer, parent: parents });
  if (mergeHead) {
    for (const f of ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "ORIG_HEAD"]) await repo.fs.promises.unlink(`${repo.gitdir}/${f}`).catch(() => undefined);
  }
  if (p.opts.has("quiet")) return 0;
  const branch = await currentBranch(repo);
  const where = branch ? `${branch}${parents.length ? "" : " (root-commit)"}` : "detached HEAD";
  repo.out(`[${where} ${abbrev(oid)}] ${subjectOf(message)}\n`);
  if (p.opts.has("amend")) repo.out(` Date: ${(await import("../format")).gitDate(author.timestamp, author.timezoneOffset)}\n`);
  repo.out(await commitSummary(repo, parents[0], oid));
  return 0;
}

async function readAll(repo: Repo): Promise<string> {
  const parts: Uint8Array[] = [];
  for (;;) {
    const chunk = await repo.io.stdin.read();
    if (!chunk) break;
    parts.push(chunk);
  }
  return new TextDecoder().decode(await new Blob(parts).arrayBuffer());
}

/** Puts index entries back to a commit's (`reset <paths>`, `restore --staged`). */
async function resetPaths(repo: Repo, ref: string | undefined, paths: string[]): Promise<void> {
  const tree = await treeFiles(repo, ref ? (await git.readCommit({ ...opts(repo), oid: ref })).commit.tree : undefined);
  for (const path of paths) {
    if (tree.has(path)) await git.resetIndex({ ...opts(repo), filepath: path, ref });
    else await git.remove({ ...opts(repo), filepath: path });
  }
}

/** Writes an index or commit version of files into the work tree, and refreshes the index's stat data. */
async function writeFiles(repo: Repo, entries: [string, { oid: string; mode: string }][]): Promise<void> {
  for (const [path, e] of entries) {
    const { blob } = await git.readBlob({ ...opts(repo), oid: e.oid });
    const full = `${repo.dir}/${path}`;
    await repo.fs.promises.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (e.mode === "120000") {
      await repo.fs.promises.unlink(full).catch(() => undefined);
      await repo.fs.promises.symlink(new TextDecoder().decode(blob), full);
    } else {
      await repo.fs.promises.writeFile(full, blob, { mode: e.mode === "100755" ? 0o755 : 0o644 });
    }
  }
}

export async function restore(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("restore", argv, {
    flags: { "-S": "staged", "--staged": "staged", "-W": "worktree", "--worktree": "worktree", "-q": "quiet", "--quiet": "quiet" },
    values: { "-s": "source", "--source": "source" },
  });
  const words = [...p.args, ...p.paths];
  if (!words.length) return fatal("you must specify path(s) to restore");
  const specs = words.map((w) => repoPath(repo, w));
  const staged = p.opts.has("staged");
  const worktree = p.opts.has("worktree") || !staged;
  const source = p.opts.has("source") ? await resolveRev(repo, p.opts.get("source") as string) : staged ? await headOid(repo) : undefined;
  const index = await indexFiles(repo);
  const from = source || staged ? await treeFiles(repo, source ? (await git.readCommit({ ...opts(repo), oid: source })).commit.tree : undefined) : index;
  for (const [i, s] of specs.entries()) {
    if (![...from.keys(), ...index.keys()].some((k) => matches([s], k))) {
      repo.err(`error: pathspec '${words[i]}' did not match any file(s) known to git\n`);
      return 1;
    }
  }
  if (staged)
    await resetPaths(
      repo,
      source,
      [...new Set([...from.keys(), ...index.keys()])].filter((k) => matches(specs, k)),
    );
  if (worktree) {
    const picked = [...from].filter(([k]) => matches(specs, k));
    await writeFiles(repo, picked);
    if (!source && !staged) await git.add({ ...opts(repo), filepath: picked.map(([k]) => k) }).catch(() => undefined);
  }
  return 0;
}

export async function reset(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("reset", argv, {
    flags: { "--soft": "soft", "--mixed": "mixed", "--hard": "hard", "-q": "quiet", "--quiet": "quiet", "--merge": "merge", "--keep": "keep" },
  });
  if (p.opts.has("merge") || p.opts.has("keep")) unsupported("git reset --merge/--keep are not supported here; use --hard, --mixed or --soft");
  const head = await headOid(repo);
  let rev: string | undefined;
  let paths = p.paths;
  if (p.args.length) {
    try {
      rev = await resolveRev(repo, p.args[0]!);
      paths = [...p.args.slice(1), ...paths];
    } catch (e) {
      if (p.dashdash || !head) throw e;
      paths = [...p.args, ...paths];
    }
  }
  const target = rev ?? head;
  if (paths.length) {
    if (p.opts.has("soft") || p.opts.has("hard")) return fatal(`Cannot do ${p.opts.has("soft") ? "soft" : "hard"} reset with paths.`);
    const specs = paths.map((w) => repoPath(repo, w));
    const index = await indexFiles(repo);
    const tree = await treeFiles(repo, target ? (await git.readCommit({ ...opts(repo), oid: target })).commit.tree : undefined);
    await resetPaths(
      repo,
      target,
      [...new Set([...tree.keys(), ...index.keys()])].filter((k) => matches(specs, k)),
    );
    await unstagedAfterReset(repo, p.opts.has("quiet"));
    return 0;
  }
  if (!target) return fatal("ambiguous argument 'HEAD': unknown revision or path not in the working tree.");
  const branch = await currentBranch(repo);
  if (head) await git.writeRef({ ...opts(repo), ref: "ORIG_HEAD", value: head, force: true });
  if (branch) await git.writeRef({ ...opts(repo), ref: `refs/heads/${branch}`, value: target, force: true });
  else await git.writeRef({ ...opts(repo), ref: "HEAD", value: target, force: true });
  for (const f of ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"]) await repo.fs.promises.unlink(`${repo.gitdir}/${f}`).catch(() => undefined);
  if (p.opts.has("soft")) return 0;
  const tree = await treeFiles(repo, (await git.readCommit({ ...opts(repo), oid: target })).commit.tree);
  const index = await indexFiles(repo);
  if (p.opts.has("hard")) {
    // Tracked files not in the target go; the target's files are written; untracked files stay.
    for (const path of index.keys()) {
      if (tree.has(path)) continue;
      await git.remove({ ...opts(repo), filepath: path });
      await repo.fs.promises.unlink(`${repo.dir}/${path}`).catch(() => undefined);
      await pruneEmptyDirs(repo, path);
    }
    const rows = new Map((await statusRows(repo)).map((r) => [r[0], r]));
    const stale = [...tree].filter(([path, e]) => {
      const r = rows.get(path);
      const idx = index.get(path);
      return !r || !idx || idx.oid !== e.oid || idx.mode !== e.mode || worktreeDiffers(r) || r[2] === 0;
    });
    await writeFiles(repo, stale);
    for (const [path] of stale) await git.resetIndex({ ...opts(repo), filepath: path, ref: target });
    if (stale.length) await git.add({ ...opts(repo), filepath: stale.map(([k]) => k) });
    const { commit } = await git.readCommit({ ...opts(repo), oid: target });
    if (!p.opts.has("quiet")) repo.out(`HEAD is now at ${abbrev(target)} ${subjectOf(commit.message)}\n`);
    return 0;
  }
  for (const path of new Set([...tree.keys(), ...index.keys()])) {
    const a = tree.get(path);
    const b = index.get(path);
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue;
    if (a) await git.resetIndex({ ...opts(repo), filepath: path, ref: target });
    else await git.remove({ ...opts(repo), filepath: path });
  }
  await unstagedAfterReset(repo, p.opts.has("quiet"));
  return 0;
}

async function unstagedAfterReset(repo: Repo, quiet: boolean): Promise<void> {
  if (quiet) return;
  const rows = await statusRows(repo);
  const lines = rows.filter((r) => r[3] !== 0 && (worktreeDiffers(r) || r[2] === 0)).map((r) => `${r[2] === 0 ? "D" : "M"}\t${r[0]}\n`);
  if (lines.length) repo.out(`Unstaged changes after reset:\n${lines.join("")}`);
}
