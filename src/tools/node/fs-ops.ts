import type { Denial } from "../../policy/denied";
import { VfsError } from "../../vfs/errors";
import type { GuardedFs } from "../../policy/guarded-fs";
import { toGuestError, type GuestError } from "./errors";

/** Thrown by a host op; the guest turns it into a Node error (guest/host.js). */
export class GuestFailure {
  constructor(readonly error: GuestError) {}
}

const TYPE_BITS = { file: 0o100000, dir: 0o040000, symlink: 0o120000 } as const;
const dec = new TextDecoder();

/**
 * The file operations `fs` needs, over the session's GuardedFs (the shell's machine view: the
 * same refusals as from bash). Paths are resolved from the script's cwd; errors name the path
 * as the script wrote it, as Node's do.
 */
export function fsOps(fs: GuardedFs, cwd: () => string, denied: (d: Denial) => void) {
  const at = (p: string, follow = true) => fs.resolve(cwd(), p, follow);
  const guard = <T>(syscall: string, path: string, run: () => T, dest?: string): T => {
    try {
      return run();
    } catch (e) {
      throw new GuestFailure(toGuestError(e, syscall, path, dest, denied));
    }
  };
  // Reading asks the policy first (a sensitive file is refused whether or not it exists, as
  // from bash); a directory is EISDIR on read, as Node reports it.
  const readBytes = (abs: string): Uint8Array => {
    try {
      return fs.readFile(abs);
    } catch (e) {
      if (fs.stat(abs)?.kind === "dir") throw new GuestFailure({ code: "EISDIR", syscall: "read" });
      throw e;
    }
  };
  return {
    /** For module resolution: what is at a path, or null; never reported as a refusal. */
    probe: (p: string) => {
      try {
        return fs.stat(at(p))?.kind ?? null;
      } catch {
        return null;
      }
    },
    stat: (p: string, follow: boolean, syscall: string) =>
      guard(syscall, p, () => {
        const abs = at(p, follow);
        const n = follow ? fs.stat(abs) : fs.lstat(abs);
        if (!n) throw new VfsError("ENOENT", p);
        return { mode: TYPE_BITS[n.kind as keyof typeof TYPE_BITS] | n.mode, size: n.size, mtimeMs: n.mtimeMs, atimeMs: n.atimeMs, ino: n.ino };
      }),
    readFile: (p: string): Uint8Array =>
      guard("open", p, () => {
        return readBytes(at(p));
      }),
    readText: (p: string): string =>
      guard("open", p, () => {
        return dec.decode(readBytes(at(p)));
      }),
    writeFile: (p: string, data: string | Uint8Array, append: boolean, exclusive: boolean) =>
      guard("open", p, () => {
        const abs = at(p);
        const n = fs.stat(abs);
        if (n?.kind === "dir") throw new GuestFailure({ code: "EISDIR", syscall: "open", path: p });
        if (exclusive && n) throw new GuestFailure({ code: "EEXIST", syscall: "open", path: p });
        const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
        if (!fs.stat(parent)) throw new GuestFailure({ code: "ENOENT", syscall: "open", path: p });
        if (append && n) {
          const ed = fs.openEditor(abs, { create: true });
          try {
            ed.append(typeof data === "string" ? new TextEncoder().encode(data) : data);
            ed.commit();
          } catch (e) {
            ed.abort();
            throw e;
          }
          return null;
        }
        fs.writeFile(abs, data);
        return null;
      }),
    mkdir: (p: string, recursive: boolean) =>
      guard("mkdir", p, () => {
        const abs = at(p);
        const existing = fs.stat(abs);
        if (existing) {
          if (recursive && existing.kind === "dir") return null;
          throw new GuestFailure({ code: "EEXIST", syscall: "mkdir", path: p });
        }
        // The first directory made, as Node's recursive mkdir returns.
        let first: string | null = abs;
        if (recursive) {
          for (let d = abs; d !== "/" && !fs.stat(d); d = d.slice(0, d.lastIndexOf("/")) || "/") first = d;
        } else {
          const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
          if (!fs.stat(parent)) throw new GuestFailure({ code: "ENOENT", syscall: "mkdir", path: p });
        }
        fs.mkdir(abs, { recursive });
        if (!recursive || first === null) return null;
        // Node answers in the caller's terms: `mkdirSync("a/b/c", { recursive: true })` is "a".
        const extra = abs.split("/").length - first.split("/").length;
        const parts = p.replace(/\/+$/, "").split("/");
        return extra ? parts.slice(0, parts.length - extra).join("/") || "/" : p.replace(/\/+$/, "");
      }),
    readdir: (p: string) =>
      guard("scandir", p, () => {
        const abs = at(p);
        const n = fs.stat(abs);
        if (!n) throw new VfsError("ENOENT", p);
        if (n.kind !== "dir") throw new GuestFailure({ code: "ENOTDIR", syscall: "scandir", path: p });
        // libuv sorts names by bytes, so Node lists them in that order.
        return fs
          .readdir(abs)
          .map((e) => [e.path.slice(e.path.lastIndexOf("/") + 1), e.kind] as [string, string])
          .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      }),
    rm: (p: string, recursive: boolean, force: boolean) =>
      guard("rm", p, () => {
        const abs = at(p, false);
        const n = fs.lstat(abs);
        if (!n) {
          if (force) return null;
          throw new GuestFailure({ code: "ENOENT", syscall: "lstat", path: p });
        }
        if (n.kind === "dir" && !recursive) {
          const e = { code: "ERR_FS_EISDIR", message: `Path is a directory: rm returned EISDIR (is a directory) ${p}` };
          throw new GuestFailure(e);
        }
        fs.remove(abs, { recursive });
        return null;
      }),
    rmdir: (p: string, recursive: boolean) =>
      guard("rmdir", p, () => {
        const abs = at(p, false);
        const n = fs.lstat(abs);
        if (!n) throw new VfsError("ENOENT", p);
        if (n.kind !== "dir") throw new GuestFailure({ code: "ENOTDIR", syscall: "rmdir", path: p });
        if (!recursive && fs.readdir(abs).length) throw new GuestFailure({ code: "ENOTEMPTY", syscall: "rmdir", path: p });
        fs.remove(abs, { recursive: true });
        return null;
      }),
    unlink: (p: string) =>
      guard("unlink", p, () => {
        const abs = at(p, false);
        const n = fs.lstat(abs);
        if (!n) throw new VfsError("ENOENT", p);
        if (n.kind === "dir") throw new GuestFailure({ code: "EISDIR", syscall: "unlink", path: p });
        fs.remove(abs);
        return null;
      }),
    rename: (a: string, b: string) =>
      guard(
        "rename",
        a,
        () => {
          const from = at(a, false);
          if (!fs.lstat(from)) throw new VfsError("ENOENT", a);
          fs.rename(from, at(b, false));
          return null;
        },
        b,
      ),
    copyFile: (a: string, b: string, exclusive: boolean) =>
      guard(
        "copyfile",
        a,
        () => {
          const data = readBytes(at(a));
          const to = at(b);
          if (exclusive && fs.stat(to)) throw new GuestFailure({ code: "EEXIST", syscall: "copyfile", path: a, dest: b });
          fs.writeFile(to, data);
          return null;
        },
        b,
      ),
    cp: (a: string, b: string, recursive: boolean) =>
      guard(
        "cp",
        a,
        () => {
          const from = at(a);
          const n = fs.stat(from);
          if (!n) throw new VfsError("ENOENT", a);
          const to = at(b);
          if (n.kind !== "dir") {
            fs.writeFile(to, fs.readFile(from), { createParents: true });
            return null;
          }
          if (!recursive) throw new GuestFailure({ code: "ERR_FS_EISDIR", message: `Recursive option is required to copy a directory: ${a}` });
          fs.mkdir(to, { recursive: true });
          for (const e of fs.walk(from)) {
            const dest = to + e.path.slice(from.length);
            if (e.kind === "dir") fs.mkdir(dest, { recursive: true });
            else if (e.kind === "file") fs.writeFile(dest, fs.readFile(e.path), { createParents: true });
          }
          return null;
        },
        b,
      ),
    realpath: (p: string) =>
      guard("realpath", p, () => {
        const abs = at(p);
        if (!fs.stat(abs)) throw new VfsError("ENOENT", p);
        return abs;
      }),
    chmod: (p: string, mode: number) => guard("chmod", p, () => (fs.setMode(at(p), mode & 0o7777), null)),
    utimes: (p: string, atimeMs: number, mtimeMs: number) => guard("utime", p, () => (fs.setTimes(at(p), { atimeMs, mtimeMs }), null)),
    symlink: (target: string, p: string) => guard("symlink", target, () => (fs.symlink(target, at(p, false)), null), p),
    readlink: (p: string) => guard("readlink", p, () => fs.readlink(at(p, false))),
  };
}
