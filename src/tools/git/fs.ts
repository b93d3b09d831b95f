import { PolicyDenied, type Denial } from "../../policy/denied";
import { isVfsError } from "../../vfs/errors";
import type { GuardedFs } from "../../policy/guarded-fs";
import type { NodeInfo } from "../../vfs/workspace";

/**
 * The `fs` isomorphic-git is given: Node's `fs.promises` shape over the policy-guarded
 * machine view, so every read and write git makes is judged like the shell's. Errors carry
 * Node's `code` (ENOENT, EEXIST, ENOTDIR, ENOTEMPTY, EISDIR), which isomorphic-git tests for;
 * a policy refusal becomes EACCES and is remembered so the command can report it by rule.
 */

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** The stat object isomorphic-git reads (normalizeStats, and the is* methods its walkers call). */
class GitStat {
  readonly mode: number;
  readonly size: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly uid = 0;
  readonly gid = 0;
  readonly dev = 1;
  constructor(private readonly node: NodeInfo) {
    const type = node.kind === "dir" ? S_IFDIR : node.kind === "symlink" ? S_IFLNK : S_IFREG;
    this.mode = type | (node.mode & 0o7777);
    this.size = node.kind === "symlink" ? new TextEncoder().encode(node.target ?? "").length : node.size;
    this.ino = node.ino;
    this.mtimeMs = node.mtimeMs;
    // The workspace keeps no change time; its modification time stands in (git compares both).
    this.ctimeMs = node.mtimeMs;
  }
  isFile(): boolean {
    return this.node.kind === "file";
  }
  isDirectory(): boolean {
    return this.node.kind === "dir";
  }
  isSymbolicLink(): boolean {
    return this.node.kind === "symlink";
  }
}

class FsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Opts = string | { encoding?: string | null; mode?: number } | undefined;
const encodingOf = (o: Opts) => (typeof o === "string" ? o : (o?.encoding ?? undefined));

type Method = (...args: any[]) => Promise<any>;
type Names = "readFile" | "writeFile" | "unlink" | "readdir" | "mkdir" | "rmdir" | "rm" | "stat" | "lstat" | "readlink" | "symlink" | "chmod";

export interface GitFs {
  promises: Record<Names, Method>;
  /** The first policy refusal met, for the command to report. */
  denial(): Denial | undefined;
}

/** `cwd`: where relative paths start (isomorphic-git passes absolute ones; helpers may not). */
export function gitFs(fs: GuardedFs, cwd: string, onDenied: (d: Denial) => void): GitFs {
  let first: Denial | undefined;
  const abs = (p: string, follow = true) => fs.resolve(cwd, String(p), follow);
  // lstat answers remembered from readdir (a directory listing carries every child's node),
  // so a status walk costs one query per directory instead of one per file. Any change made
  // through this fs forgets them all.
  const known = new Map<string, NodeInfo | null>();
  // The ignore files' contents (null: absent), read once per command: git asks for every
  // .gitignore up the tree and info/exclude for each untracked path it looks at.
  const ignoreFiles = new Map<string, Uint8Array | null>();
  const isIgnoreFile = (path: string) => path.endsWith("/.gitignore") || path.endsWith("/info/exclude");
  /** Forgets what a change to `p` can make stale: its own answers and its directory's, or everything. */
  const changed = (p?: string) => {
    if (p === undefined) {
      known.clear();
      ignoreFiles.clear();
      return;
    }
    let path: string;
    try {
      path = abs(p, false);
    } catch {
      return changed();
    }
    known.delete(path);
    known.delete(path.slice(0, path.lastIndexOf("/")) || "/");
    ignoreFiles.delete(path);
    if (ignoreFiles.size && !isIgnoreFile(path)) for (const k of ignoreFiles.keys()) if (k.startsWith(`${path}/`)) ignoreFiles.delete(k);
  };
  const lstatOf = (path: string): NodeInfo | null => {
    if (known.has(path)) return known.get(path)!;
    return fs.lstat(path);
  };
  /** Runs a workspace call, turning its errors into Node-style ones. */
  const guard = <T>(path: string, fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof PolicyDenied) {
        first ??= e.denial;
        onDenied(e.denial);
        throw new FsError("EACCES", `${path}: ${e.message}`);
      }
      if (isVfsError(e)) throw new FsError(e.code, `${e.code}: ${e.description}, '${path}'`);
      throw e;
    }
  };
  const enoent = (p: string) => new FsError("ENOENT", `ENOENT: no such file or directory, '${p}'`);
  const promises: Record<Names, Method> = {
    async readFile(p: string, opts?: Opts) {
      return guard(p, () => {
        const path = abs(p);
        let bytes: Uint8Array;
        const cached = isIgnoreFile(path) ? ignoreFiles.get(path) : undefined;
        if (cached === null) throw enoent(p);
        if (cached) bytes = cached.slice();
        else {
          const info = fs.stat(path);
          if (!info) {
            if (isIgnoreFile(path)) ignoreFiles.set(path, null);
            throw enoent(p);
          }
          if (info.kind === "dir") throw new FsError("EISDIR", `EISDIR: illegal operation on a directory, read`);
          bytes = fs.readFile(path);
          if (isIgnoreFile(path)) ignoreFiles.set(path, bytes.slice());
        }
        const enc = encodingOf(opts);
        return enc === "utf8" || enc === "utf-8" ? new TextDecoder().decode(bytes) : bytes;
      });
    },
    async writeFile(p: string, data: Uint8Array | string, opts?: Opts) {
      changed(p);
      guard(p, () => {
        const path = abs(p);
        const parent = fs.stat(path.slice(0, path.lastIndexOf("/")) || "/");
        if (!parent) throw enoent(p);
        const mode = typeof opts === "object" && opts?.mode !== undefined ? opts.mode & 0o777 : undefined;
        const existing = fs.stat(path);
        if (existing?.kind === "dir") throw new FsError("EISDIR", `EISDIR: illegal operation on a directory, open '${p}'`);
        fs.writeFile(path, typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data), { mode: mode ?? 0o644 });
        // A rewrite keeps the file's bits unless git asks for others (chmod +x through checkout).
        if (mode !== undefined && existing && (existing.mode & 0o777) !== mode) fs.setMode(path, mode);
      });
    },
    async unlink(p: string) {
      changed(p);
      guard(p, () => {
        const path = abs(p, false);
        const info = fs.lstat(path);
        if (!info) throw enoent(p);
        if (info.kind === "dir") throw new FsError("EISDIR", `EISDIR: illegal operation on a directory, unlink '${p}'`);
        fs.remove(path);
      });
    },
    async readdir(p: string) {
      return guard(p, () => {
        const path = abs(p);
        const info = fs.stat(path);
        if (!info) throw enoent(p);
        if (info.kind !== "dir") throw new FsError("ENOTDIR", `ENOTDIR: not a directory, scandir '${p}'`);
        const nodes = fs.readdir(path);
        // Links are left to lstat itself (a listing's node may describe the link's target).
        for (const n of nodes) if (n.kind !== "symlink") known.set(`${path === "/" ? "" : path}/${n.path.slice(n.path.lastIndexOf("/") + 1)}`, n);
        return nodes.map((n) => n.path.slice(n.path.lastIndexOf("/") + 1));
      });
    },
    async mkdir(p: string, opts?: { recursive?: boolean; mode?: number } | number) {
      changed(p);
      guard(p, () => {
        const path = abs(p);
        const recursive = typeof opts === "object" && opts?.recursive === true;
        const info = fs.lstat(path);
        if (info) {
          if (recursive && info.kind === "dir") return;
          throw new FsError("EEXIST", `EEXIST: file already exists, mkdir '${p}'`);
        }
        if (!recursive && !fs.stat(path.slice(0, path.lastIndexOf("/")) || "/")) throw enoent(p);
        fs.mkdir(path, { recursive });
      });
    },
    async rmdir(p: string) {
      changed(p);
      guard(p, () => {
        const path = abs(p, false);
        const info = fs.lstat(path);
        if (!info) throw enoent(p);
        if (info.kind !== "dir") throw new FsError("ENOTDIR", `ENOTDIR: not a directory, rmdir '${p}'`);
        if (fs.readdir(path).length) throw new FsError("ENOTEMPTY", `ENOTEMPTY: directory not empty, rmdir '${p}'`);
        fs.remove(path);
      });
    },
    async rm(p: string, opts?: { recursive?: boolean; force?: boolean }) {
      changed();
      guard(p, () => {
        const path = abs(p, false);
        if (!fs.lstat(path)) {
          if (opts?.force) return;
          throw enoent(p);
        }
        fs.remove(path, { recursive: opts?.recursive === true });
      });
    },
    async stat(p: string) {
      return guard(p, () => {
        const info = fs.stat(abs(p));
        if (!info) throw enoent(p);
        return new GitStat(info);
      });
    },
    async lstat(p: string) {
      return guard(p, () => {
        const info = lstatOf(abs(p, false));
        if (!info) throw enoent(p);
        return new GitStat(info);
      });
    },
    async readlink(p: string, opts?: Opts) {
      return guard(p, () => {
        const target = fs.readlink(abs(p, false));
        return encodingOf(opts) === "buffer" ? new TextEncoder().encode(target) : target;
      });
    },
    async symlink(target: string, p: string) {
      changed(p);
      guard(p, () => {
        const path = abs(p, false);
        if (fs.lstat(path)) throw new FsError("EEXIST", `EEXIST: file already exists, symlink '${p}'`);
        fs.symlink(String(target), path);
      });
    },
    async chmod(p: string, mode: number) {
      changed(p);
      guard(p, () => fs.setMode(abs(p), mode & 0o7777));
    },
  };
  return { promises, denial: () => first };
}
