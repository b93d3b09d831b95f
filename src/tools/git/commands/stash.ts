import * as git from "isomorphic-git";
import { parseArgs } from "../args";
import { statusRows, worktreeDiffers } from "../changes";
import { abbrev, tzText } from "../format";
import { currentBranch, fatal, headOid, identity, indexFiles, readWorktree, treeFiles, unsupported, type Entry, type Repo } from "../repo";
import { mergeText } from "./merge-text";

/**
 * `git stash` built as git builds it: an "index on" commit of the index and a "WIP on" commit
 * of the tracked work tree (parents HEAD and the index commit), `refs/stash` with its reflog as
 * the list. Pop/apply replay the work-tree changes onto the current HEAD (three-way per file,
 * conflict markers when both sides changed), staging files the stash added, as git does.
 */

const o = (repo: Repo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });
const ZERO = "0".repeat(40);

/** A tree object for a flat path → entry map (nested trees written bottom-up). */
async function writeTreeOf(repo: Repo, files: Map<string, Entry>): Promise<string> {
  const write = async (prefix: string): Promise<string> => {
    const here = new Map<string, { mode: string; oid: string; type: "blob" | "tree" }>();
    const dirs = new Set<string>();
    for (const [path, e] of files) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash < 0) here.set(rest, { mode: e.mode, oid: e.oid, type: "blob" });
      else dirs.add(rest.slice(0, slash));
    }
    for (const d of dirs) here.set(d, { mode: "040000", oid: await write(`${prefix}${d}/`), type: "tree" });
    return git.writeTree({ ...o(repo), tree: [...here].map(([path, e]) => ({ path, ...e })) });
  };
  return write("");
}

async function entries(repo: Repo): Promise<[string, string][]> {
  const text = (await repo.fs.promises.readFile(`${repo.gitdir}/logs/refs/stash`, "utf8").catch(() => "")) as string;
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => [l.split(" ")[1]!, l.slice(l.indexOf("\t") + 1)] as [string, string])
    .reverse();
}

async function writeEntries(repo: Repo, list: [string, string][], who: { name: string; email: string; timestamp: number; timezoneOffset: number }): Promise<void> {
  if (!list.length) {
    await repo.fs.promises.unlink(`${repo.gitdir}/refs/stash`).catch(() => undefined);
    await repo.fs.promises.unlink(`${repo.gitdir}/logs/refs/stash`).catch(() => undefined);
    return;
  }
  const lines = [...list]
    .reverse()
    .map(([oid, msg], i, all) => `${i ? all[i - 1]![0] : ZERO} ${oid} ${who.name} <${who.email}> ${who.timestamp} ${tzText(who.timezoneOffset)}\t${msg}`);
  await repo.fs.promises.mkdir(`${repo.gitdir}/logs/refs`, { recursive: true });
  await repo.fs.promises.writeFile(`${repo.gitdir}/logs/refs/stash`, `${lines.join("\n")}\n`);
  await git.writeRef({ ...o(repo), ref: "refs/stash", value: list[0]![0], force: true });
}

async function push(repo: Repo, argv: string[], save: boolean): Promise<number> {
  const p = parseArgs("stash", argv, {
    flags: { "-q": "quiet", "--quiet": "quiet", "-u": "untracked", "--include-untracked": "untracked", "-k": "keep", "--keep-index": "keep" },
    values: { "-m": "message", "--message": "message" },
  });
  if (p.opts.has("untracked")) unsupported("git stash -u is not supported here; 'git add' the new files first, then stash");
  if (p.opts.has("keep")) unsupported("git stash --keep-index is not supported here");
  if ((p.args.length || p.paths.length) && !save) unsupported("git stash push <paths> is not supported here; stash everything or commit the rest first");
  const head = await headOid(repo);
  if (!head) return fatal("You do not have the initial commit yet");
  const rows = await statusRows(repo);
  const changed = rows.some((r) => (r[3] !== 0 || r[1] === 1) && !(r[1] === 0 && r[3] === 0) && (worktreeDiffers(r) || r[3] !== 1 || r[2] === 0));
  if (!changed) {
    repo.out("No local changes to save\n");
    return 0;
  }
  const branch = (await currentBranch(repo)) ?? "(no branch)";
  const { commit: headCommit } = await git.readCommit({ ...o(repo), oid: head });
  const subject = headCommit.message.split("\n")[0];
  const given = (p.opts.get("message") as string | undefined) ?? (save && p.args.length ? p.args.join(" ") : undefined);
  const who = await identity(repo, "COMMITTER");
  const author = await identity(repo, "AUTHOR");
  const index = await indexFiles(repo);
  const indexTree = await writeTreeOf(repo, index);
  const base = `${branch}: ${abbrev(head)} ${subject}`;
  const iCommit = await git.writeCommit({ ...o(repo), commit: { tree: indexTree, parent: [head], author, committer: who, message: `index on ${base}\n` } });
  const work = new Map<string, Entry>();
  for (const [path, e] of index) {
    const file = await readWorktree(repo, path);
    if (!file) continue;
    const oid = await git.writeBlob({ ...o(repo), blob: file.bytes });
    work.set(path, { oid, mode: file.mode === e.mode || file.mode !== "120000" ? file.mode : e.mode });
  }
  const message = given ? `On ${branch}: ${given}` : `WIP on ${base}`;
  const wCommit = await git.writeCommit({
    ...o(repo),
    commit: { tree: await writeTreeOf(repo, work), parent: [head, iCommit], author, committer: who, message: `${message}\n` },
  });
  await writeEntries(repo, [[wCommit, message], ...(await entries(repo))], who);
  const { reset } = await import("./worktree");
  await reset(repo, ["--hard", "-q", "HEAD"]);
  if (!p.opts.has("quiet")) repo.out(`Saved working directory and index state ${message}\n`);
  return 0;
}

/** Replays a stash's work-tree changes onto the current HEAD; true when it conflicted. */
async function apply(repo: Repo, stashOid: string): Promise<boolean> {
  const { commit: w } = await git.readCommit({ ...o(repo), oid: stashOid });
  const baseOid = w.parent[0]!;
  const tree = async (c: string) => treeFiles(repo, (await git.readCommit({ ...o(repo), oid: c })).commit.tree);
  const base = await tree(baseOid);
  const theirs = await treeFiles(repo, w.tree);
  const head = await headOid(repo);
  const ours = head ? await tree(head) : new Map<string, Entry>();
  const dec = new TextDecoder();
  const blob = async (oid: string) => (await git.readBlob({ ...o(repo), oid })).blob;
  let conflicted = false;
  const toAdd: string[] = [];
  for (const path of [...new Set([...base.keys(), ...theirs.keys()])].sort()) {
    const b = base.get(path);
    const t = theirs.get(path);
    if (b?.oid === t?.oid && b?.mode === t?.mode) continue;
    const u = ours.get(path);
    const full = `${repo.dir}/${path}`;
    if (!t) {
      if (u?.oid === b?.oid) await repo.fs.promises.unlink(full).catch(() => undefined);
      continue;
    }
    let bytes: Uint8Array = await blob(t.oid);
    if (u && b && u.oid !== b.oid && u.oid !== t.oid) {
      const m = mergeText(dec.decode(await blob(b.oid)), dec.decode(await blob(u.oid)), dec.decode(bytes), "Updated upstream", "Stashed changes");
      bytes = new TextEncoder().encode(m.text);
      if (!m.clean) {
        conflicted = true;
        repo.out(`Auto-merging ${path}\nCONFLICT (content): Merge conflict in ${path}\n`);
      }
    }
    await repo.fs.promises.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await repo.fs.promises.writeFile(full, bytes, { mode: t.mode === "100755" ? 0o755 : 0o644 });
    if (!b && !u) toAdd.push(path);
  }
  if (toAdd.length) await git.add({ ...o(repo), filepath: toAdd });
  return conflicted;
}

export async function stash(repo: Repo, argv: string[]): Promise<number> {
  const sub = argv[0] && !argv[0].startsWith("-") ? argv[0] : "push";
  const rest = sub === argv[0] ? argv.slice(1) : argv;
  switch (sub) {
    case "push":
    case "save":
      return push(repo, rest, sub === "save");
    case "list":
      repo.out((await entries(repo)).map(([, m], i) => `stash@{${i}}: ${m}\n`).join(""));
      return 0;
    case "pop":
    case "apply":
    case "drop": {
      const quiet = rest.includes("-q") || rest.includes("--quiet");
      const named = rest.find((a) => !a.startsWith("-"));
      if (rest.includes("--index")) unsupported("git stash --index is not supported here; re-stage the files with 'git add' after applying");
      const list = await entries(repo);
      if (!list.length) {
        repo.err("No stash entries found.\n");
        return 1;
      }
      const m = /^(?:stash@\{)?(\d+)\}?$/.exec(named ?? "0");
      const n = m ? Number(m[1]) : -1;
      if (n < 0 || n >= list.length) {
        repo.err(`error: ${named} is not a valid reference\n`);
        return 1;
      }
      const oid = list[n]![0];
      if (sub !== "drop") {
        const conflicted = await apply(repo, oid);
        if (conflicted) {
          if (sub === "pop") repo.out("The stash entry is kept in case you need it again.\n");
          return 1;
        }
        if (!quiet) {
          const { computeStatus, longStatus } = await import("./status");
          repo.out(await longStatus(repo, await computeStatus(repo)));
        }
      }
      if (sub !== "apply") {
        await writeEntries(
          repo,
          list.filter((_, i) => i !== n),
          await identity(repo, "COMMITTER"),
        );
        if (!quiet) repo.out(`Dropped refs/stash@{${n}} (${oid})\n`);
      }
      return 0;
    }
    case "clear":
      await writeEntries(repo, [], await identity(repo, "COMMITTER"));
      return 0;
    case "show":
      return unsupported("git stash show is not supported here; use 'git diff stash@{0}^ stash@{0}' after 'git stash list'");
    default:
      return unsupported(`git stash ${sub} is not supported here; use push, pop, apply, drop, list or clear`);
  }
}
