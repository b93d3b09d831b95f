import * as git from "isomorphic-git";
import { parseArgs } from "../args";
import { statusRows, type Row } from "../changes";
import { abbrev, quotePath } from "../format";
import { unsupported, currentBranch, display, headOid, indexFiles, matches, repoPath, treeFiles, type Repo } from "../repo";
import { conflictedPaths } from "./merge-state";
import { upstreamOf } from "./tracking";

/** One path's state as the short format's two letters: X staged, Y work tree. */
interface StatusEntry {
  path: string;
  /** For a staged rename: where it came from. */
  from?: string;
  x: string;
  y: string;
}

export interface Status {
  tracked: StatusEntry[];
  /** Untracked paths, wholly untracked directories collapsed to `dir/`. */
  untracked: string[];
  unmerged: StatusEntry[];
}

/** statusMatrix's [head, workdir, stage] → the short format's XY (and whether the path is also untracked). */
function letters([, head, wd, stage]: Row): { xy: string; untracked: boolean } | null {
  if (head === 0) {
    if (stage === 0) return wd === 0 ? null : { xy: "", untracked: true };
    if (stage === 2) return { xy: "A ", untracked: false };
    return { xy: wd === 0 ? "AD" : "AM", untracked: false };
  }
  if (stage === 0) return { xy: "D ", untracked: wd !== 0 };
  const x = stage === 1 ? " " : "M";
  const y = wd === 0 ? "D" : stage === 2 ? " " : stage === 1 ? (wd === 1 ? " " : "M") : "M";
  return x === " " && y === " " ? null : { xy: x + y, untracked: false };
}

export async function computeStatus(repo: Repo, specs: string[] = []): Promise<Status> {
  const rows = await statusRows(repo);
  const conflicts = new Set(await conflictedPaths(repo));
  const tracked: StatusEntry[] = [];
  const untrackedFiles: string[] = [];
  const indexDirs = new Set<string>();
  for (const [path, , , stage] of rows) {
    if (stage === 0) continue;
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) indexDirs.add(path.slice(0, i));
  }
  const unmerged: StatusEntry[] = [];
  for (const row of rows) {
    const path = row[0];
    if (!matches(specs, path)) continue;
    if (conflicts.has(path)) {
      unmerged.push({ path, x: "U", y: "U" });
      continue;
    }
    const l = letters(row);
    if (!l) continue;
    if (l.xy) tracked.push({ path, x: l.xy[0]!, y: l.xy[1]! });
    if (l.untracked) untrackedFiles.push(path);
  }
  // Exact renames among staged additions and deletions, as git pairs them.
  const deleted = tracked.filter((e) => e.x === "D");
  const added = tracked.filter((e) => e.x === "A");
  if (deleted.length && added.length) {
    const head = await treeFiles(repo, await headOid(repo));
    const index = await indexFiles(repo);
    for (const d of deleted) {
      const oid = head.get(d.path)?.oid;
      const a = added.find((e) => !e.from && index.get(e.path)?.oid === oid);
      if (!a) continue;
      a.from = d.path;
      a.x = "R";
      tracked.splice(tracked.indexOf(d), 1);
    }
  }
  const untracked = new Set<string>();
  for (const path of untrackedFiles) {
    const parts = path.split("/");
    let shown = path;
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!indexDirs.has(dir)) {
        shown = `${dir}/`;
        break;
      }
    }
    untracked.add(shown);
  }
  const all = [...tracked, ...unmerged].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { tracked: all.filter((e) => e.x !== "U"), unmerged, untracked: [...untracked].sort() };
}

const LABEL: Record<string, string> = { A: "new file:", M: "modified:", D: "deleted:", R: "renamed:", T: "typechange:" };
const pad = (label: string, width: number) => label + " ".repeat(Math.max(1, width - label.length));

/** The long format's opening: branch, upstream, "No commits yet". */
async function header(repo: Repo): Promise<string> {
  const branch = await currentBranch(repo);
  const head = await headOid(repo);
  let out = branch ? `On branch ${branch}\n` : `HEAD detached at ${abbrev(head ?? "")}\n`;
  if (branch && head) {
    const up = await upstreamOf(repo, branch);
    if (up) out += `${up.message}\n\n`;
  }
  if (!head) out += "\nNo commits yet\n\n";
  if (await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: "MERGE_HEAD" }).catch(() => undefined)) {
    const conflicts = await conflictedPaths(repo);
    out += conflicts.length
      ? `You have unmerged paths.\n  (fix conflicts and run "git commit")\n  (use "git merge --abort" to abort the merge)\n\n`
      : `All conflicts fixed but you are still merging.\n  (use "git commit" to conclude merge)\n\n`;
  }
  return out;
}

export async function longStatus(repo: Repo, st: Status): Promise<string> {
  const head = await headOid(repo);
  let out = await header(repo);
  const staged = st.tracked.filter((e) => e.x !== " " && e.x !== "?");
  const unstaged = st.tracked.filter((e) => e.y !== " ");
  const name = (e: StatusEntry) => (e.from ? `${quotePath(display(repo, e.from))} -> ${quotePath(display(repo, e.path))}` : quotePath(display(repo, e.path)));
  if (staged.length) {
    out += `Changes to be committed:\n  (use "git ${head ? "restore --staged" : "rm --cached"} <file>..." to unstage)\n`;
    for (const e of staged) out += `\t${pad(LABEL[e.x]!, 12)}${name(e)}\n`;
    out += "\n";
  }
  if (st.unmerged.length) {
    out += `Unmerged paths:\n  (use "git add <file>..." to mark resolution)\n`;
    for (const e of st.unmerged) out += `\t${pad("both modified:", 17)}${name(e)}\n`;
    out += "\n";
  }
  if (unstaged.length) {
    const anyDeleted = unstaged.some((e) => e.y === "D");
    out += `Changes not staged for commit:\n  (use "git add${anyDeleted ? "/rm" : ""} <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n`;
    for (const e of unstaged) out += `\t${pad(LABEL[e.y]!, 12)}${quotePath(display(repo, e.path))}\n`;
    out += "\n";
  }
  if (st.untracked.length) {
    out += `Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n`;
    for (const p of st.untracked) out += `\t${quotePath(display(repo, p))}\n`;
    out += "\n";
  }
  if (staged.length) return out;
  if (st.unmerged.length || unstaged.length) return `${out}no changes added to commit (use "git add" and/or "git commit -a")\n`;
  if (st.untracked.length) return `${out}nothing added to commit but untracked files present (use "git add" to track)\n`;
  return `${out}${head ? "nothing to commit, working tree clean" : 'nothing to commit (create/copy files and use "git add" to track)'}\n`;
}

/** `--short`/`--porcelain` lines (porcelain: paths from the root, never relative). */
function shortStatus(repo: Repo, st: Status, porcelain: boolean): string {
  const show = (p: string) => quotePath(porcelain ? p : display(repo, p), true);
  let out = "";
  const entries = [...st.tracked, ...st.unmerged].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const e of entries) out += `${e.x}${e.y} ${e.from ? `${show(e.from)} -> ` : ""}${show(e.path)}\n`;
  for (const p of st.untracked) out += `?? ${show(p)}\n`;
  return out;
}

async function branchLine(repo: Repo): Promise<string> {
  const branch = await currentBranch(repo);
  const head = await headOid(repo);
  if (!branch) return "## HEAD (no branch)\n";
  if (!head) return `## No commits yet on ${branch}\n`;
  const up = await upstreamOf(repo, branch);
  if (!up) return `## ${branch}\n`;
  const counts = [up.ahead ? `ahead ${up.ahead}` : "", up.behind ? `behind ${up.behind}` : ""].filter(Boolean).join(", ");
  return `## ${branch}...${up.name}${counts ? ` [${counts}]` : ""}\n`;
}

export async function status(repo: Repo, argv: string[]): Promise<number> {
  const p = parseArgs("status", argv, {
    flags: { "-s": "short", "--short": "short", "-b": "branch", "--branch": "branch", "--long": "long", "-z": "z", "--no-renames": "norenames", "--show-stash": "stash" },
    optional: { "--porcelain": "porcelain", "-u": "untracked", "--untracked-files": "untracked", "--ignored": "ignored" },
  });
  if (p.opts.has("z")) unsupported("git status -z is not supported here; use --porcelain (newline-separated)");
  if (p.opts.has("ignored")) unsupported("git status --ignored is not supported here; use 'git check-ignore' or read .gitignore");
  const porcelain = p.opts.get("porcelain");
  if (porcelain !== undefined && porcelain !== true && porcelain !== "v1" && porcelain !== "1") {
    unsupported(`git status --porcelain=${porcelain} is not supported here; use --porcelain (version 1)`);
  }
  const specs = [...p.args, ...p.paths].map((a) => repoPath(repo, a));
  const st = await computeStatus(repo, specs);
  const untrackedMode = p.opts.get("untracked");
  if (untrackedMode === "no") st.untracked = [];
  else if (untrackedMode === "all" || untrackedMode === true) {
    const rows = await statusRows(repo);
    st.untracked = rows.filter((r) => r[1] === 0 && r[3] === 0 && r[2] !== 0 && matches(specs, r[0])).map((r) => r[0]);
  }
  if (porcelain !== undefined || p.opts.has("short")) {
    let out = p.opts.has("branch") ? await branchLine(repo) : "";
    out += shortStatus(repo, st, porcelain !== undefined);
    repo.out(out);
  } else {
    repo.out(await longStatus(repo, st));
  }
  return 0;
}
