/** Helpers over the workspace's absolute, already-normalized paths ("/workspace/a/b"). */
export const ROOT = "/workspace";

export function parentOf(path: string): string {
  if (path === ROOT) return ROOT;
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

/** Workspace-relative form for display ("src/a.ts"; "." for the root). */
export function relativeToRoot(path: string): string {
  return path === ROOT ? "." : path.slice(ROOT.length + 1);
}
