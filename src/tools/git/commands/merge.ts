import { diff3Merge } from "diff3";
import * as git from "isomorphic-git";
import { parseArgs } from "../args";
import { statusRows, worktreeDiffers } from "../changes";
import { abbrev, cleanMessage } from "../format";
import { currentBranch, fatal, headOid, identity, resolveRev, treeFiles, unsupported, type Repo } from "../repo";
import { conflictedPaths } from "./merge-state";
import { commitSummary } from "./worktree";

const o = (repo: Repo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });
const LINES = /^.*(\r?\n|$)/gm;

/**
 * A three-way file merge with git's conflict markers (`<<<<<<< HEAD` ... `>>>>>>> branch`):
 * diff3 regions, then trimmed as git's "zealous" level does (lines equal on both sides at a
 * conflict's start or end are moved out of it; a conflict whose sides agree is no conflict).
 */
function mergeText(base: string, ours: string, theirs: string, ourName: string, theirName: string): { clean: boolean; text: string } {
  const split = (s: string) => (s.match(LINES) ?? []).filter((l) => l !== "");
  const blocks = diff3Merge(split(ours), split(base), split(theirs));
  let text = "";
  let clean = true;
  const side = (lines: string[]) => {
    const t = lines.join("");
    return t && !t.endsWith("\n") ? `${t}\n` : t;
  };
  for (const b of blocks) {
    if (b.ok) {
      text += b.ok.join("");
      continue;
    }
    let a = [...b.conflict!.a];
    let c = [...b.conflict!.b];
    let head = "";
    while (a.length && c.length && a[0] === c[0]) {
      head += a.shift();
      c.shift();
    }
    let tail = "";
    while (a.length && c.length && a[a.length - 1] === c[c.length - 1]) {
      tail = a.pop()! + tail;
      c.pop();
    }
    text += head;
    if (!a.length && !c.length) {
      text += tail;
      continue;
    }
    clean = false;
    text += `<<<<<<< ${ourName}\n${side(a)}=======\n${side(c)}>>>>>>> ${theirName}\n${tail}`;
    a = [];
    c = [];
  }
  return { clean, text };
}

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
export async function mergeInto(repo: Repo, theirsRev: string, opts: { ffOnly?: boolean; noFf?: boolean; message?: string; label?: string; quiet?: boolean }): Promise<number> {
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
      repo.err(`error: Your local changes to the following files would be overwritten by merge:\n${dirty.map((f) => `\t${f}\n`).join("")}Please commit your changes or stash them before you merge.\nAborting\n`);
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
    if (!opts.quiet) repo.out(await commitSummary(repo, head, theirs));
    return 0;
  }
  if (opts.ffOnly) {
    repo.err("hint: Diverging branches can't be fast-forwarded, you need to either:\nhint:\nhint: \tgit merge --no-ff\nhint:\nhint: or:\nhint:\nhint: \tgit rebase\nhint:\nhint: Disable this message with \"git config advice.diverging false\"\n");
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
    await git.checkout({ ...o(repo), ref: branch! });
    if (!opts.quiet) {
      repo.out(auto.map((f) => `Auto-merging ${f}\n`).join(""));
      repo.out("Merge made by the 'ort' strategy.\n");
      repo.out(await commitSummary(repo, head, r.oid!));
    }
    return 0;
  } catch (e) {
    const err = e as { code?: string; data?: { filepaths?: string[]; bothModified?: string[]; deleteByUs?: string[]; deleteByTheirs?: string[] } };
    if (err.code !== "MergeConflictError") throw e;
    const conflicts = [...(err.data?.filepaths ?? [])].sort();
    await git.writeRef({ ...o(repo), ref: "MERGE_HEAD", value: theirs, force: true });
    await repo.fs.promises.writeFile(`${repo.gitdir}/MERGE_MSG`, `${cleanMessage(message)}\n# Conflicts:\n${conflicts.map((f) => `#\t${f}\n`).join("")}`);
    await repo.fs.promises.writeFile(`${repo.gitdir}/MERGE_MODE`, "");
    let out = auto.map((f) => `Auto-merging ${f}\n`).join("");
    for (const f of conflicts) {
      if (err.data?.deleteByUs?.includes(f)) out += `CONFLICT (modify/delete): ${f} deleted in HEAD and modified in ${label}.  Version ${label} of ${f} left in tree.\n`;
      else if (err.data?.deleteByTheirs?.includes(f)) out += `CONFLICT (modify/delete): ${f} deleted in ${label} and modified in HEAD.  Version HEAD of ${f} left in tree.\n`;
      else out += `CONFLICT (content): Merge conflict in ${f}\n`;
    }
    out += "Automatic merge failed; fix conflicts and then commit the result.\n";
    repo.out(out);
    return 1;
  }
}

export async function merge(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("merge", argv, {
    flags: { "--ff-only": "ffonly", "--no-ff": "noff", "--ff": "ff", "--abort": "abort", "--continue": "continue", "-q": "quiet", "--quiet": "quiet", "--no-edit": "noedit", "--squash": "squash", "--no-commit": "nocommit", "--stat": "stat", "--no-stat": "nostat" },
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
      repo.err("error: Merging is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\n");
      return fatal("Exiting because of an unresolved conflict.");
    }
    return fatal("You have not concluded your merge (MERGE_HEAD exists).\nPlease, commit your changes before you merge.");
  }
  if (p.args.length !== 1) unsupported("git merge takes one branch or commit here (octopus merges are not supported)");
  const msgs = p.all.get("message");
  return mergeInto(repo, p.args[0]!, { ffOnly: p.opts.has("ffonly"), noFf: p.opts.has("noff"), message: msgs?.join("\n\n"), quiet: p.opts.has("quiet") });
}

/** The stash's reflog lines, newest first: [oid, message]. */
async function stashEntries(repo: Repo): Promise<[string, string][]> {
  const text = (await repo.fs.promises.readFile(`${repo.gitdir}/logs/refs/stash`, "utf8").catch(() => "")) as string;
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => [l.split(" ")[1]!, l.slice(l.indexOf("\t") + 1)] as [string, string])
    .reverse();
}

export async function stash(repo: Repo, argv: string[]): Promise<number> {
  const sub = argv[0] && !argv[0].startsWith("-") ? argv[0] : "push";
  const rest = sub === argv[0] ? argv.slice(1) : argv;
  const head = await headOid(repo);
  const branch = (await currentBranch(repo)) ?? "(no branch)";
  switch (sub) {
    case "push":
    case "save": {
      const p = parseArgs("stash", rest, { flags: { "-q": "quiet", "--quiet": "quiet", "-u": "untracked", "--include-untracked": "untracked", "-k": "keep", "--keep-index": "keep" }, values: { "-m": "message", "--message": "message" } });
      if (p.opts.has("untracked")) unsupported("git stash -u is not supported here; 'git add' the new files first, then stash");
      if (p.opts.has("keep")) unsupported("git stash --keep-index is not supported here");
      if (p.args.length && sub === "push") unsupported("git stash push <paths> is not supported here; stash everything or commit the rest first");
      if (!head) return fatal("You do not have the initial commit yet");
      const rows = await statusRows(repo);
      if (!rows.some((r) => r[3] !== 0 && (worktreeDiffers(r) || r[3] !== 1 || r[2] === 0) && !(r[1] === 1 && r[2] === 1 && r[3] === 1))) {
        repo.out("No local changes to save\n");
        return 0;
      }
      const { commit } = await git.readCommit({ ...o(repo), oid: head });
      const subject = commit.message.split("\n")[0];
      const message = (p.opts.get("message") as string | undefined) ?? (sub === "save" ? p.args.join(" ") : "");
      await git.stash({ ...o(repo), op: "push", message: "" });
      // git's reflog text: "WIP on <branch>: <abbrev> <subject>" or "On <branch>: <message>".
      const wanted = message ? `On ${branch}: ${message}` : `WIP on ${branch}: ${abbrev(head)} ${subject}`;
      const logPath = `${repo.gitdir}/logs/refs/stash`;
      const log = (await repo.fs.promises.readFile(logPath, "utf8")) as string;
      const lines = log.split("\n").filter(Boolean);
      const last = lines.pop()!;
      lines.push(`${last.slice(0, last.indexOf("\t"))}\t${wanted}`);
      await repo.fs.promises.writeFile(logPath, `${lines.join("\n")}\n`);
      if (!p.opts.has("quiet")) repo.out(`Saved working directory and index state ${wanted}\n`);
      return 0;
    }
    case "list": {
      const entries = await stashEntries(repo);
      repo.out(entries.map(([, m], i) => `stash@{${i}}: ${m}\n`).join(""));
      return 0;
    }
    case "pop":
    case "apply":
    case "drop": {
      const entries = await stashEntries(repo);
      const ref = rest[0] ?? "stash@{0}";
      const m = /^(?:stash@\{)?(\d+)\}?$/.exec(ref);
      const n = m ? Number(m[1]) : -1;
      if (!entries.length) {
        repo.err("No stash entries found.\n");
        return 1;
      }
      if (n < 0 || n >= entries.length) {
        repo.err(`error: ${ref} is not a valid reference\n`);
        return 1;
      }
      const oid = entries[n]![0];
      if (sub !== "drop") {
        try {
          await git.stash({ ...o(repo), op: "apply", refIdx: n });
        } catch (e) {
          repo.err(`error: ${(e as Error).message}\n`);
          return 1;
        }
      }
      if (sub !== "apply") {
        await git.stash({ ...o(repo), op: "drop", refIdx: n });
        if (sub === "pop") {
          const { computeStatus, longStatus } = await import("./status");
          repo.out(await longStatus(repo, await computeStatus(repo)));
        }
        repo.out(`Dropped refs/stash@{${n}} (${oid})\n`);
      }
      return 0;
    }
    case "clear":
      await git.stash({ ...o(repo), op: "clear" });
      return 0;
    case "show":
      return unsupported("git stash show is not supported here; use 'git diff stash@{0}^ stash@{0}' after 'git stash list'");
    default:
      return unsupported(`git stash ${sub} is not supported here; use push, pop, apply, drop, list or clear`);
  }
}

export { treeFiles };
