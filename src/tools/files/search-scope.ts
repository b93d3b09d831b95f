import { globToRegExp } from "../../lib/glob";
import type { GuardedFs } from "../../policy/guarded-fs";
import type { NodeInfo } from "../../vfs/workspace";

/**
 * The files under a search root (or the root itself when it is a file) whose path relative
 * to the root matches `glob`. With `byName`, a glob without "/" matches the file name at any
 * depth, as ripgrep's --glob does; otherwise it is matched against the whole relative path.
 */
export function filesInScope(fs: GuardedFs, root: string, glob?: string, byName = true): NodeInfo[] {
  const info = fs.mustStat(root);
  const files = info.kind === "file" ? [info] : fs.walk(root).filter((n) => n.kind === "file");
  if (!glob) return files;
  const re = globToRegExp(glob);
  const nameOnly = byName && !glob.includes("/");
  return files.filter((n) => {
    const rel = info.kind === "file" ? n.path.slice(n.path.lastIndexOf("/") + 1) : n.path.slice(root.length + 1);
    return re.test(nameOnly ? rel.slice(rel.lastIndexOf("/") + 1) : rel);
  });
}
