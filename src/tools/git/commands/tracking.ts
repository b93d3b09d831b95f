import * as git from "isomorphic-git";
import { configValue } from "../config";
import { plural } from "../format";
import type { Repo } from "../repo";

/** How a branch stands against its upstream (branch.<name>.remote/merge), in git's words. */
export async function upstreamOf(repo: Repo, branch: string): Promise<{ name: string; ahead: number; behind: number; message: string } | undefined> {
  const remote = await configValue(repo, `branch.${branch}.remote`);
  const merge = await configValue(repo, `branch.${branch}.merge`);
  if (!remote || !merge) return undefined;
  const short = merge.replace(/^refs\/heads\//, "");
  const name = remote === "." ? short : `${remote}/${short}`;
  const ref = remote === "." ? `refs/heads/${short}` : `refs/remotes/${remote}/${short}`;
  const opts = { fs: repo.fs, gitdir: repo.gitdir };
  const theirs = await git.resolveRef({ ...opts, ref }).catch(() => undefined);
  if (!theirs) {
    return { name, ahead: 0, behind: 0, message: `Your branch is based on '${name}', but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)` };
  }
  const ours = await git.resolveRef({ ...opts, ref: `refs/heads/${branch}` });
  const ancestors = async (oid: string) => {
    const seen = new Set<string>();
    const stack = [oid];
    while (stack.length) {
      const o = stack.pop()!;
      if (seen.has(o)) continue;
      seen.add(o);
      const { commit } = await git.readCommit({ ...opts, oid: o, cache: repo.cache });
      stack.push(...commit.parent);
    }
    return seen;
  };
  const a = await ancestors(ours);
  const b = await ancestors(theirs);
  const ahead = [...a].filter((o) => !b.has(o)).length;
  const behind = [...b].filter((o) => !a.has(o)).length;
  let message: string;
  if (!ahead && !behind) message = `Your branch is up to date with '${name}'.\n`;
  else if (ahead && !behind) message = `Your branch is ahead of '${name}' by ${plural(ahead, "commit", "commits")}.\n  (use "git push" to publish your local commits)\n`;
  else if (!ahead)
    message = `Your branch is behind '${name}' by ${plural(behind, "commit", "commits")}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)\n`;
  else
    message = `Your branch and '${name}' have diverged,\nand have ${ahead} and ${behind} different commits each, respectively.\n  (use "git pull" to merge the remote branch into yours)\n`;
  return { name, ahead, behind, message: message.replace(/\n$/, "") };
}
