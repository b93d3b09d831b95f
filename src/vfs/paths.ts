/** Helpers over the workspace's absolute, already-normalized paths ("/workspace/a/b"). */
export const ROOT = "/workspace";
/** The session's scratch space: stored like the workspace, but no file tool reaches it. */
export const TMP = "/tmp";
/** Where the user's own commands go; on PATH, stored like the workspace. */
const USER_BIN = "/usr/local/bin";
/** Debian's other scratch directory (scripts use it for files that outlive /tmp): stored like /tmp. */
const VAR_TMP = "/var/tmp";
/** Directories kept in the session's SQLite (everything else the shell sees is read-only or absent). */
export const STORED_ROOTS: readonly string[] = [ROOT, TMP, USER_BIN, VAR_TMP];

export function parentOf(path: string): string {
  if (path === ROOT) return ROOT;
  if (path === "/") return "/";
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/** True when `path` is `dir` itself or lies beneath it. */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** Workspace-relative form for display ("src/a.ts"; "." for the root); other paths stay absolute. */
export function relativeToRoot(path: string): string {
  if (path === ROOT) return ".";
  return isWithin(path, ROOT) ? path.slice(ROOT.length + 1) : path;
}
