import * as git from "isomorphic-git";
import { parseArgs } from "../args";
import { statusRows, worktreeDiffers } from "../changes";
import { abbrev, cleanMessage } from "../format";
import { currentBranch, fatal, headOid, identity, resolveRev, treeFiles, unsupported, type Repo } from "../repo";
import { conflictedPaths } from "./merge-state";
import { mergeText } from "./merge-text";
import { commitSummary } from "./worktree";

const o = (repo: Repo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });
/** git's merge message: "Merge branch 'x'" (plus " into y" off the master/main branch). */
function mergeMessage(theirs: string, branch: string | undefined, isBranch: boolean): string {
  const what = isBranch ? `branch '${theirs}'` : /^[0-9a-f]{7,40}$/.test(theirs) ? `commit '${theirs}'` : `'${theirs}'`;
  const into = branch && branch !== "master" && branch !== "main" ? ` into ${branch}` : "";
  return `Merge ${what}${into}\n`;
}

/** Files changed on both sides since the base: git names them "Auto-merging". */
async function bothChanged(repo: Repo, base: string | undefined, ours: string, theirs: string): Promise<string[]> {
  const tree = async (c: string | undefined) => treeFiles(repo, c ? (await git.readCommit({ ...o(repo), oid: c })).commit.tree : undefined);
  const [b, x, y] = await Promise.all([tree(base), tree(ours), tree(theirs)]);
  const out: string[] = [];
  for (const path of new Set([...x.keys(), ...y.keys()])) {
    const bo = b.get(path)?.oid;
    const xo = x.get(path)?.oid;
    const yo = y.get(path)?.oid;
    if (xo !== bo && yo !== bo && xo !== yo && xo && yo) out.push(path);
  }
  return out.sort();
}

/** Merges `theirsRev` into the current branch; used by `merge` and `pull`. */
export async function mergeInto(
  repo: Repo,
  theirsRev: string,
  opts: { ffOnly?: boolean; noFf?: boolean; message?: string; label?: string; quiet?: boolean },
): Promise<number> {
  const branch = await currentBranch(repo);
  const head = await headOid(repo);
  const theirs = await resolveRev(repo, theirsRev);
  if (!head) {
    // An unborn branch takes the other side as it is.
    await git.writeRef({ ...o(repo), ref: `refs/heads/${branch ?? "master"}`, value: theirs, force: true });
    await git.checkout({ ...o(repo), ref: branch ?? "master", force: true });
    return 0;
  }
  if (!branch) unsupported("merging on a detached HEAD is not supported here; switch to a branch first");
  const rows = await statusRows(repo);
  {
    const dirty = rows.filter((r) => r[3] !== 0 && (worktreeDiffers(r) || r[3] === 2 || r[3] === 3)).map((r) => r[0]);
    if (dirty.length) {
      repo.err(
        `error: Your local changes to the following files would be overwritten by merge:\n${dirty.map((f) => `\t${f}\n`).join("")}Please commit your changes or stash them before you merge.\nAborting\n`,
      );
      return 1;
    }
  }
  const [base] = await git.findMergeBase({ ...o(repo), oids: [head, theirs] });
  if (base === theirs) {
    repo.out("Already up to date.\n");
    return 0;
  }
  if (base === head && !opts.noFf) {
    if (!opts.quiet) repo.out(`Updating ${abbrev(head)}..${abbrev(theirs)}\nFast-forward\n`);
    await git.writeRef({ ...o(repo), ref: "ORIG_HEAD", value: head, force: true });
    await git.writeRef({ ...o(repo), ref: `refs/heads/${branch}`, value: theirs, force: true });
    await git.checkout({ ...o(repo), ref: branch! });
    if (!opts.quiet) repo.out(await commitSummary(repo, head, theirs, true));
    return 0;
  }
  if (opts.ffOnly) {
    repo.err(
      'hint: Diverging branches can\'t be fast-forwarded, you need to either:\nhint:\nhint: \tgit merge --no-ff\nhint:\nhint: or:\nhint:\nhint: \tgit rebase\nhint:\nhint: Disable this message with "git config advice.diverging false"\n',
    );
    return fatal("Not possible to fast-forward, aborting.");
  }
  const label = opts.label ?? theirsRev;
  const isBranch = (await git.listBranches(o(repo))).includes(theirsRev);
  const message = opts.message ?? mergeMessage(label, branch, isBranch);
  const author = await identity(repo, "AUTHOR");
  const committer = await identity(repo, "COMMITTER");
  const auto = await bothChanged(repo, base, head, theirs);
  await git.writeRef({ ...o(repo), ref: "ORIG_HEAD", value: head, force: true });
  try {
    const r = await git.merge({
      ...o(repo),
      ours: branch,
      theirs,
      fastForward: false,
      abortOnConflict: false,
      message: cleanMessage(message),
      author,
      committer,
      mergeDriver: ({ contents }) => {
        const m = mergeText(contents[0]!, contents[1]!, contents[2]!, "HEAD", label);
        return { cleanMerge: m.clean, mergedText: m.text };
      },
    });
    // The branch moved under the work tree: write the merged files (tracked changes were refused above).
    await git.checkout({ ...o(repo), ref: branch!, force: true });
    if (!opts.quiet) {
      repo.out(auto.map((f) => `Auto-merging ${f}\n`).join(""));
      repo.out("Merge made by the 'ort' strategy.\n");
      repo.out(await commitSummary(repo, head, r.oid!, true));
    }
    return 0;
  } catch (e) {
    const err = e as { code?: string; data?: { filepaths?: string[]; bothModified?: string[]; deleteByUs?: string[]; deleteByTheirs?: string[] } };
    if (err.code !== "MergeConflictError") throw e;
    const conflicts = [...(err.data?.filepaths ?? [])].sort();
    await git.writeRef({ ...o(repo), ref: "MERGE_HEAD", value: theirs, force: true });
    await repo.fs.promises.writeFile(`${repo.gitdir}/MERGE_MSG`, `${cleanMessage(message)}\n# Conflicts:\n${conflicts.map((f) => `#\t${f}\n`).join("")}`);
    await repo.fs.promises.writeFile(`${repo.gitdir}/MERGE_MODE`, "");
    let out = auto
      .filter((f) => !conflicts.includes(f))
      .map((f) => `Auto-merging ${f}\n`)
      .join("");
    for (const f of conflicts) {
      if (auto.includes(f)) out += `Auto-merging ${f}\n`;
      if (err.data?.deleteByUs?.includes(f)) out += `CONFLICT (modify/delete): ${f} deleted in HEAD and modified in ${label}.  Version ${label} of ${f} left in tree.\n`;
      else if (err.data?.deleteByTheirs?.includes(f))
        out += `CONFLICT (modify/delete): ${f} deleted in ${label} and modified in HEAD.  Version HEAD of ${f} left in tree.\n`;
      else out += `CONFLICT (content): Merge conflict in ${f}\n`;
    }
    out += "Automatic merge failed; fix conflicts and then commit the result.\n";
    repo.out(out);
    return 1;
  }
}

export async function merge(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("merge", argv, {
    flags: {
      "--ff-only": "ffonly",
      "--no-ff": "noff",
      "--ff": "ff",
      "--abort": "abort",
      "--continue": "continue",
      "-q": "quiet",
      "--quiet": "quiet",
      "--no-edit": "noedit",
      "--squash": "squash",
      "--no-commit": "nocommit",
      "--stat": "stat",
      "--no-stat": "nostat",
    },
    values: { "-m": "message", "--message": "message", "-s": "strategy", "--strategy": "strategy", "-X": "option", "--strategy-option": "option" },
  });
  if (p.opts.has("squash")) unsupported("git merge --squash is not supported here; merge, or use 'git diff A B | git apply' and commit");
  if (p.opts.has("nocommit")) unsupported("git merge --no-commit is not supported here; merge, then 'git reset --soft HEAD~1' to undo the commit");
  if (p.opts.has("strategy") || p.opts.has("option")) unsupported("merge strategies and -X options are not supported here; the default three-way merge is used");
  if (p.opts.has("abort")) {
    const head = await headOid(repo);
    if (!(await git.resolveRef({ ...o(repo), ref: "MERGE_HEAD" }).catch(() => undefined))) return fatal("There is no merge to abort (MERGE_HEAD missing).");
    const { reset } = await import("./worktree");
    return reset(repo, ["--hard", "-q", head!]);
  }
  if (p.opts.has("continue")) {
    const { commit } = await import("./worktree");
    return commit(repo, []);
  }
  if (await git.resolveRef({ ...o(repo), ref: "MERGE_HEAD" }).catch(() => undefined)) {
    if ((await conflictedPaths(repo)).length) {
      repo.err(
        "error: Merging is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\n",
      );
      return fatal("Exiting because of an unresolved conflict.");
    }
    return fatal("You have not concluded your merge (MERGE_HEAD exists).\nPlease, commit your changes before you merge.");
  }
  if (p.args.length !== 1) unsupported("git merge takes one branch or commit here (octopus merges are not supported)");
  const msgs = p.all.get("message");
  return mergeInto(repo, p.args[0]!, { ffOnly: p.opts.has("ffonly"), noFf: p.opts.has("noff"), message: msgs?.join("\n\n"), quiet: p.opts.has("quiet") });
}
