import { PolicyDenied } from "../../policy/denied";
import type { ProgramIo } from "../../shell/host";
import { EXIT_DENIED, say } from "../net/cli-io";
import type { ToolContext } from "../types";
import { gitFs } from "./fs";
import { GitExit, normalizeAbs, type Repo } from "./repo";
import { diff, log } from "./commands/history";
import { merge } from "./commands/merge";
import { stash } from "./commands/stash";
import { branch, checkout, config, revParse, switchCmd, tag } from "./commands/refs";
import { clone, fetch, pull, push, remote } from "./commands/remote";
import { status } from "./commands/status";
import { add, commit, init, lsFiles, mv, reset, restore, rm } from "./commands/worktree";

/**
 * `git`, run by the host like curl: isomorphic-git over the session's workspace through the
 * policy-guarded fs (./fs.ts), the network through the one fetch path (./http.ts), and git's
 * own output formats rebuilt where agents parse them (status, log, diff, branch, rev-parse).
 * What is not built is refused by name (exit 129), never silently ignored.
 */

type Sub = (repo: Repo, argv: string[]) => Promise<number>;

/** Subcommands and whether they need a repository around the caller. */
const COMMANDS: Record<string, { run: Sub; repo: boolean }> = {
  init: { run: init, repo: false },
  clone: { run: clone, repo: false },
  config: { run: config, repo: false },
  add: { run: add, repo: true },
  rm: { run: rm, repo: true },
  mv: { run: mv, repo: true },
  commit: { run: commit, repo: true },
  status: { run: status, repo: true },
  diff: { run: diff, repo: true },
  log: { run: (r, a) => log(r, a), repo: true },
  show: { run: (r, a) => log(r, a, true), repo: true },
  branch: { run: branch, repo: true },
  checkout: { run: checkout, repo: true },
  switch: { run: switchCmd, repo: true },
  restore: { run: restore, repo: true },
  reset: { run: reset, repo: true },
  merge: { run: merge, repo: true },
  tag: { run: tag, repo: true },
  "rev-parse": { run: revParse, repo: true },
  stash: { run: stash, repo: true },
  "ls-files": { run: lsFiles, repo: true },
  fetch: { run: fetch, repo: true },
  pull: { run: pull, repo: true },
  push: { run: push, repo: true },
  remote: { run: remote, repo: true },
};

/** Well-known subcommands not built, each with what to do instead. */
const REFUSED: Record<string, string> = {
  rebase: "rebase is not supported here; use 'git merge', or 'git reset --soft' and commit again",
  "cherry-pick": "cherry-pick is not supported here; use 'git show <commit> > p.diff' and apply the change with an edit",
  revert: "revert is not supported here; restore the files with 'git restore --source=<commit>~1 <paths>' and commit",
  submodule: "submodules are not supported here; clone each repository on its own",
  worktree: "git worktree is not supported here; clone a second copy instead",
  bisect: "bisect is not supported here; check out commits one by one with 'git checkout <commit>'",
  blame: "blame is not supported here; use 'git log -p -- <path>'",
  am: "git am is not supported here",
  apply: "git apply is not supported here; use the patch program: 'patch -p1 < file.diff'",
  gc: "git gc is not needed here",
  "filter-branch": "filter-branch is not supported here",
  reflog: "reflog is not supported here; use 'git log'",
  "ls-remote": "ls-remote is not supported here; use 'git fetch' then 'git branch -r'",
  grep: "git grep is not supported here; use 'rg PATTERN' or 'grep -rn PATTERN .'",
  clean: "git clean is not supported here; list untracked files with 'git status --porcelain' and remove them with rm",
  describe: "git describe is not supported here; use 'git tag' and 'git log --oneline'",
};

const VERSION = "git version 2.39.5 (toolshed isomorphic-git)";

/** The directory holding `.git`, from `start` upwards, or undefined. */
function findRepo(ctx: ToolContext, start: string): string | undefined {
  for (let dir = start; ; dir = dir.slice(0, dir.lastIndexOf("/")) || "/") {
    try {
      const st = ctx.fs.stat(`${dir === "/" ? "" : dir}/.git`);
      if (st?.kind === "dir") return dir;
    } catch {
      /* a refused path: keep looking upwards */
    }
    if (dir === "/") return undefined;
  }
}

export async function gitCommand(argv: string[], io: ProgramIo, ctx: ToolContext): Promise<number> {
  const enc = new TextEncoder();
  let args = argv.slice(1);
  let cwd = io.cwd;
  // Global options before the subcommand.
  while (args.length && args[0]!.startsWith("-")) {
    const a = args[0]!;
    if (a === "-C" && args[1] !== undefined) {
      cwd = normalizeAbs(args[1].startsWith("/") ? args[1] : `${cwd}/${args[1]}`);
      args = args.slice(2);
    } else if (a === "--no-pager" || a === "-P" || a === "--no-optional-locks" || a === "--literal-pathspecs") {
      args = args.slice(1);
    } else if (a === "--version") {
      await say(io.stdout, `${VERSION}\n`);
      return 0;
    } else if (a === "-h" || a === "--help") {
      args = ["help"];
    } else {
      await say(io.stderr, `unknown option: ${a}\nusage: git [-C <path>] <command> [<args>] (options like -c, --git-dir and --work-tree are not supported here)\n`);
      return 129;
    }
  }
  const name = args[0];
  if (!name || name === "help") {
    await say(io.stdout, `usage: git [-C <path>] <command> [<args>]\n\nCommands available here:\n  ${Object.keys(COMMANDS).sort().join(", ")}\n`);
    return name ? 0 : 1;
  }
  if (name === "version") {
    await say(io.stdout, `${VERSION}\n`);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    const why = REFUSED[name];
    await say(io.stderr, why ? `git: ${why}\n` : `git: '${name}' is not a git command. See 'git help'.\n`);
    return why ? 129 : 1;
  }
  const cwdInfo = ctx.fs.stat(cwd);
  if (!cwdInfo || cwdInfo.kind !== "dir") {
    await say(io.stderr, `fatal: cannot change to '${cwd}': No such file or directory\n`);
    return 128;
  }
  const dir = findRepo(ctx, cwd);
  if (cmd.repo && !dir) {
    await say(io.stderr, "fatal: not a git repository (or any of the parent directories): .git\n");
    return 128;
  }
  const fs = gitFs(ctx.fs, cwd, (d) => ctx.reportDenial?.(d));
  let pending = "";
  let broken = false;
  const flush = async () => {
    if (!pending || broken) return;
    const text = pending;
    pending = "";
    await io.stdout.write(enc.encode(text)).catch(() => {
      broken = true;
    });
  };
  const repo: Repo = {
    fs,
    dir: dir ?? "",
    gitdir: dir ? `${dir === "/" ? "" : dir}/.git` : "",
    cwd,
    env: io.env,
    cache: {},
    ctx,
    io: {
      ...io,
      stdout: {
        write: async (b) => {
          await flush();
          await io.stdout.write(b);
        },
      },
    },
    out: (text) => {
      pending += text;
    },
    flush,
    err: (text) => {
      pending += "";
      void say(io.stderr, text);
    },
    denial: fs.denial,
  };
  let status: number;
  try {
    status = await cmd.run(repo, args.slice(1));
  } catch (e) {
    await flush();
    if (e instanceof GitExit) {
      await say(io.stderr, e.raw ? `${e.message}\n` : `fatal: ${e.message}\n`);
      return e.status;
    }
    if (e instanceof PolicyDenied) {
      ctx.reportDenial?.(e.denial);
      await say(io.stderr, `git: toolshed: denied (${e.rule}): ${e.message}\n`);
      return EXIT_DENIED;
    }
    const denial = fs.denial();
    if (denial) {
      await say(io.stderr, `git: toolshed: denied (${denial.rule}): ${denial.reason}\n`);
      return EXIT_DENIED;
    }
    await say(io.stderr, `fatal: ${e instanceof Error ? e.message : String(e)}\n`);
    return 128;
  }
  await flush();
  return status;
}
