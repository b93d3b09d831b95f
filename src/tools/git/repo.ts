import * as git from "isomorphic-git";
import type { Denial } from "../../policy/denied";
import type { ProgramIo } from "../../shell/host";
import type { ToolContext } from "../types";
import type { GitFs } from "./fs";
import { configValue } from "./config";
import { parseGitDate } from "./format";

/** A git failure with git's exit status and message (printed as `fatal: ...` unless `raw`). */
export class GitExit extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly raw = false,
  ) {
    super(message);
  }
}

export const fatal = (message: string, status = 128): never => {
  throw new GitExit(status, message);
};

/** An option or form not built here: refused by name, exit 129 as git does for a bad option. */
export const unsupported = (message: string): never => {
  throw new GitExit(129, `error: ${message}`, true);
};

/** What every subcommand sees: the repository, the session's streams, the policy-guarded fs. */
export interface Repo {
  fs: GitFs;
  /** The work tree's root (absolute); empty before `init`/`clone` when outside a repository. */
  dir: string;
  gitdir: string;
  /** The caller's directory (absolute). */
  cwd: string;
  env: Record<string, string>;
  cache: object;
  ctx: ToolContext;
  io: ProgramIo;
  out(text: string): void;
  /** Writes what `out` gathered (long outputs flush as they go). */
  flush(): Promise<void>;
  err(text: string): void;
  denial(): Denial | undefined;
}

export interface Entry {
  oid: string;
  mode: string;
}

/** `a/b` relative to the repository root → as the caller's directory sees it (`../a/b`). */
export function display(repo: Repo, path: string): string {
  const rel = repo.cwd === repo.dir ? "" : repo.cwd.slice(repo.dir.length + 1);
  if (!rel) return path;
  if (path === `${rel}/`) return "./";
  const from = rel.split("/");
  const to = path.split("/");
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => ".."), ...to.slice(i)].join("/");
}

/** A path as the caller wrote it → relative to the repository root ("" for the root itself). */
export function repoPath(repo: Repo, arg: string): string {
  const abs = normalizeAbs(arg.startsWith("/") ? arg : `${repo.cwd}/${arg}`);
  if (abs === repo.dir) return "";
  if (!abs.startsWith(`${repo.dir}/`)) fatal(`${arg}: '${arg}' is outside repository at '${repo.dir}'`);
  return abs.slice(repo.dir.length + 1);
}

export function normalizeAbs(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (!part || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** Whether `path` is matched by a pathspec (a path or directory prefix, or a simple glob). */
export function matches(specs: string[], path: string): boolean {
  if (!specs.length) return true;
  return specs.some((s) => {
    if (s === "") return true;
    if (/[*?[]/.test(s)) return globRe(s).test(path);
    return path === s || path.startsWith(s.endsWith("/") ? s : `${s}/`);
  });
}

function globRe(glob: string): RegExp {
  let re = "";
  for (const c of glob) re += c === "*" ? ".*" : c === "?" ? "." : /[.+^${}()|\\]/.test(c) ? `\\${c}` : c;
  return new RegExp(`^${re}(/.*)?$`);
}

export async function headOid(repo: Repo): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: "HEAD" });
  } catch {
    return undefined;
  }
}

/** The branch HEAD names (short), or undefined when detached. */
export async function currentBranch(repo: Repo): Promise<string | undefined> {
  return (await git.currentBranch({ fs: repo.fs, gitdir: repo.gitdir, fullname: false })) ?? undefined;
}

/** Every file of a commit's (or tree's) tree, by path. */
export async function treeFiles(repo: Repo, oid: string | undefined): Promise<Map<string, Entry>> {
  const files = new Map<string, Entry>();
  if (!oid) return files;
  const walk = async (tree: string, prefix: string) => {
    const { tree: entries } = await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid: tree, cache: repo.cache });
    for (const e of entries) {
      const path = prefix + e.path;
      if (e.type === "tree") await walk(e.oid, `${path}/`);
      else if (e.type === "blob") files.set(path, { oid: e.oid, mode: e.mode });
    }
  };
  await walk(oid, "");
  return files;
}

/** Every file of the index, by path. */
export async function indexFiles(repo: Repo): Promise<Map<string, Entry>> {
  const files = new Map<string, Entry>();
  await git.walk({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    cache: repo.cache,
    trees: [git.STAGE()],
    map: async (path, [e]) => {
      if (!e) return null;
      const type = await e.type();
      if (type === "blob" || type === "special") files.set(path, { oid: await e.oid(), mode: ((await e.mode()) ?? 0o100644).toString(8) });
      return true;
    },
  });
  return files;
}

/** The mode git records for a work-tree file. */
function modeOf(stat: { mode: number; isSymbolicLink(): boolean }): string {
  if (stat.isSymbolicLink()) return "120000";
  return stat.mode & 0o111 ? "100755" : "100644";
}

/** A work-tree file's bytes (a link's target text), or undefined when it is gone. */
export async function readWorktree(repo: Repo, path: string): Promise<{ bytes: Uint8Array; mode: string } | undefined> {
  const full = `${repo.dir}/${path}`;
  let st;
  try {
    st = await repo.fs.promises.lstat(full);
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT" || (e as { code?: string }).code === "ENOTDIR") return undefined;
    throw e;
  }
  if (st.isDirectory()) return undefined;
  const bytes = st.isSymbolicLink() ? await repo.fs.promises.readlink(full, { encoding: "buffer" }) : await repo.fs.promises.readFile(full);
  return { bytes: new Uint8Array(bytes), mode: modeOf(st) };
}

export async function blobBytes(repo: Repo, oid: string): Promise<Uint8Array> {
  const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  return blob;
}

export async function hashBytes(bytes: Uint8Array): Promise<string> {
  return (await git.hashBlob({ object: bytes })).oid;
}

export interface Identity {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** The default identity when neither the environment nor `git config` names one. */
const DEFAULT_IDENTITY = { name: "Toolshed Agent", email: "agent@toolshed.invalid" };

/** Author or committer as git finds it: GIT_<ROLE>_NAME/EMAIL/DATE, then user.name/user.email, then the default. */
export async function identity(repo: Repo, role: "AUTHOR" | "COMMITTER"): Promise<Identity> {
  const cfg = (key: string) => configValue(repo, key);
  const name = repo.env[`GIT_${role}_NAME`] ?? (await cfg("user.name")) ?? DEFAULT_IDENTITY.name;
  const email = repo.env[`GIT_${role}_EMAIL`] ?? (await cfg("user.email")) ?? DEFAULT_IDENTITY.email;
  const dateText = repo.env[`GIT_${role}_DATE`];
  let timestamp = Math.floor(Date.now() / 1000);
  let timezoneOffset = 0;
  if (dateText) {
    const d = parseGitDate(dateText);
    if (!d) fatal(`invalid date format: ${dateText}`);
    timestamp = d!.seconds;
    timezoneOffset = d!.offset;
  }
  return { name, email, timestamp, timezoneOffset };
}

/**
 * A revision as git reads it: HEAD/@, branch, tag, remote branch, full or abbreviated hash,
 * with `~N` and `^`/`^N` suffixes. Returns a commit id (or the object for `^{tree}`).
 */
export async function resolveRev(repo: Repo, rev: string): Promise<string> {
  const m = /^(.*?)((?:[~^]\d*)*)$/.exec(rev)!;
  let base = m[1] || "HEAD";
  if (base === "@") base = "HEAD";
  let oid: string | undefined;
  const stash = /^stash(?:@\{(\d+)\})?$/.exec(base);
  if (stash) {
    const log = (await repo.fs.promises.readFile(`${repo.gitdir}/logs/refs/stash`, "utf8").catch(() => "")) as string;
    const lines = log.split("\n").filter(Boolean).reverse();
    oid = lines[Number(stash[1] ?? 0)]?.split(" ")[1];
  }
  if (!oid)
    try {
      oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: base });
    } catch {
      if (/^[0-9a-f]{4,40}$/i.test(base)) {
        try {
          oid = await git.expandOid({ fs: repo.fs, gitdir: repo.gitdir, oid: base.toLowerCase(), cache: repo.cache });
        } catch {
          /* not an object */
        }
      }
    }
  if (!oid)
    throw new GitExit(
      128,
      `ambiguous argument '${rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
    );
  oid = await peel(repo, oid);
  for (const step of m[2]!.match(/[~^]\d*/g) ?? []) {
    const n = step.length > 1 ? Number(step.slice(1)) : 1;
    if (step[0] === "~") {
      for (let i = 0; i < n; i++) oid = await parentOf(repo, oid!, 0, rev);
    } else if (n > 0) {
      oid = await parentOf(repo, oid!, n - 1, rev);
    }
  }
  return oid!;
}

/** An annotated tag's commit. */
async function peel(repo: Repo, oid: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const o = await git.readObject({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache, format: "parsed" });
    if (o.type !== "tag") return oid;
    oid = (o.object as { object: string }).object;
  }
  return oid;
}

async function parentOf(repo: Repo, oid: string, n: number, rev: string): Promise<string> {
  const { commit } = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  const p = commit.parent[n];
  if (!p)
    throw new GitExit(
      128,
      `ambiguous argument '${rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
    );
  return p;
}

export async function isRev(repo: Repo, rev: string): Promise<boolean> {
  try {
    await resolveRev(repo, rev);
    return true;
  } catch {
    return false;
  }
}
