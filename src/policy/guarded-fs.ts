import type { FileRules } from "./files";
import { VfsError, isVfsError } from "../vfs/errors";
import { type LinkView, checkMachineWrite, machineArea, resolveMachinePath, resolvePath } from "./paths";
import type { FileEditor } from "../vfs/file-editor";
import { CHUNK_SIZE } from "../vfs/schema";
import type { SystemTree } from "../vfs/system-tree";
import type { NodeInfo, Workspace } from "../vfs/workspace";

/**
 * The workspace as every door sees it (file tools, HTTP files, the shell, WASI programs):
 * the same calls as Workspace, each asking the policy first. Metadata (stat, listing) is
 * open; reading contents honours the sensitive-file rule; changing contents honours the identity
 * rule and, for a file that holds anything, the sensitive-file rule (FileRules.checkWrite), so a program,
 * git or a tool cannot rewrite `.env` any more than read it.
 * Symbolic links are followed here, before any check: every rule applies to the place a link
 * leads to, and the file tools' view refuses links that lead out of /workspace. Only `lstat`,
 * `readlink`, `remove`, `rename` and `symlink` act on a link itself.
 */
export class GuardedFs {
  /**
   * Without `system`, the file tools' view: /workspace only. With it, the shell's and its
   * programs' view of a whole machine: the stored roots (/workspace, /tmp, /usr/local/bin) plus
   * the read-only system tree, everything else refused by the path policy.
   */
  constructor(
    readonly ws: Workspace,
    readonly rules: FileRules,
    readonly system?: SystemTree,
  ) {}

  /** The same workspace and rules, seen as the shell's whole machine. */
  withSystem(system: SystemTree): GuardedFs {
    return new GuardedFs(this.ws, this.rules, system);
  }

  /**
   * The absolute path `input` names from `cwd`, links followed (all of them, or all but the last
   * component when `follow` is false, as lstat/unlink/rename see it), or a refusal.
   */
  resolve(cwd: string, input: string, follow = true): string {
    const links = this.links(follow);
    return this.system ? resolveMachinePath(cwd, input, links) : resolvePath(cwd, input, links);
  }

  /** As resolve, without following any link: the path as written, made absolute (a shell's logical cwd). */
  normalize(cwd: string, input: string): string {
    return this.system ? resolveMachinePath(cwd, input) : resolvePath(cwd, input);
  }

  /**
   * Sessions that never made a link resolve paths lexically, as before links existed, apart from
   * the system tree's own links (`/usr/bin/awk -> /etc/alternatives/awk`) in the machine view.
   */
  private links(followLast: boolean): LinkView | undefined {
    const stored = this.ws.hasLinks();
    const system = this.system;
    if (!stored && !system) return undefined;
    const linkAt = (p: string) => (system && machineArea(p) === "system" ? system.linkTarget(p) : stored ? this.ws.linkTarget(p) : undefined);
    return { linkAt, followLast };
  }

  /** Where an absolute path leads once every link in it is followed (the path itself in a session without links). */
  private real(path: string): string {
    if (this.ws.hasLinks()) return this.resolve("/", path);
    // The system tree's links lead only into the system tree: other paths stay as written.
    return this.sys(path) ? this.resolve("/", path) : path;
  }

  /** The system tree when it answers for `path` (never for the stored roots). */
  private sys(path: string): SystemTree | undefined {
    return this.system && machineArea(path) === "system" ? this.system : undefined;
  }

  /** The node a path leads to (links followed); null when nothing is there, a dangling link included. */
  stat(path: string): NodeInfo | null {
    let real: string;
    try {
      real = this.real(path);
    } catch (e) {
      // A loop leads nowhere: stat finds nothing there, as `test -e` expects.
      if (isVfsError(e, "ELOOP")) return null;
      throw e;
    }
    const sys = this.sys(real);
    return sys ? sys.stat(real) : this.scratch(this.ws.stat(real));
  }

  /** The node itself, a link included (lstat). */
  lstat(path: string): NodeInfo | null {
    const sys = this.sys(path);
    return sys ? sys.stat(path) : this.scratch(this.ws.stat(path));
  }

  /**
   * In the machine view, /tmp and /var/tmp themselves look as on Debian (root's, mode 1777:
   * `drwxrwxrwt`), which says what they are: scratch any user may write in. What is in them
   * stays the session's user's.
   */
  private scratch<T extends NodeInfo | null>(info: T): T {
    if (!this.system || !info || (info.path !== "/tmp" && info.path !== "/var/tmp")) return info;
    return { ...info, mode: 0o1777, uid: 0 };
  }

  /** A link's target text; EINVAL when `path` is not a link (readlink(2)). */
  readlink(path: string): string {
    const target = this.sys(path)?.linkTarget(path) ?? this.ws.linkTarget(path);
    if (target !== undefined) return target;
    if (!this.lstat(path)) throw new VfsError("ENOENT", path);
    throw new VfsError("EINVAL", path);
  }

  /** `ln -s target path`. Any target text is allowed (as on Linux); following the link is what the rules check. */
  symlink(target: string, path: string): NodeInfo {
    this.checkWritable(path);
    this.checkWrite(path, "replaced");
    return this.ws.symlink(target, path);
  }

  mustStat(path: string): NodeInfo {
    path = this.real(path);
    const sys = this.sys(path);
    if (!sys) return this.scratch(this.ws.mustStat(path));
    const info = sys.stat(path);
    if (!info) throw new VfsError("ENOENT", path);
    return info;
  }

  readdir(path: string): readonly NodeInfo[] {
    path = this.real(path);
    const sys = this.sys(path);
    if (!sys) return this.ws.readdir(path);
    if (this.mustStat(path).kind !== "dir") throw new VfsError("ENOTDIR", path);
    // Entries as lstat sees them: a system link (`/usr/bin/awk`) lists as a link, as on Linux.
    return sys.list(path).flatMap((name) => this.lstat(path === "/" ? `/${name}` : `${path}/${name}`) ?? []);
  }

  walk(dir: string): NodeInfo[] {
    dir = this.real(dir);
    return this.sys(dir) ? [] : this.ws.walk(dir);
  }

  readFile(path: string): Uint8Array {
    path = this.real(path);
    this.rules.checkRead(path);
    const system = this.systemContent(path);
    if (system) return system;
    const data = this.ws.readFile(path);
    this.noteRead(path);
    return data;
  }

  /** A program or the shell read the file: its access time may move (Workspace.noteRead). */
  noteRead(path: string): void {
    if (!this.sys(path)) this.ws.noteRead(path);
  }

  read(path: string, offset: number, length: number): Uint8Array {
    path = this.real(path);
    this.rules.checkRead(path);
    return this.systemContent(path)?.slice(offset, offset + length) ?? this.ws.read(path, offset, length);
  }

  /** See Workspace.readChunk: the bytes may be shared, never modify them. */
  readChunk(path: string, idx: number, ahead = 0): Uint8Array {
    path = this.real(path);
    this.rules.checkRead(path);
    return this.systemContent(path)?.slice(idx * CHUNK_SIZE, (idx + 1) * CHUNK_SIZE) ?? this.ws.readChunk(path, idx, ahead);
  }

  /** See Workspace.readChunks: each array returned is the caller's own, free to release. */
  readChunks(path: string, first: number, count: number): Uint8Array[] {
    path = this.real(path);
    this.rules.checkRead(path);
    const system = this.systemContent(path);
    if (!system) return this.ws.readChunks(path, first, count);
    const out: Uint8Array[] = [];
    for (let i = first; i < first + count && i * CHUNK_SIZE < system.length; i++) out.push(system.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE));
    return out;
  }

  chunks(path: string): Generator<Uint8Array> {
    path = this.real(path);
    this.rules.checkRead(path);
    const data = this.systemContent(path);
    return data
      ? (function* () {
          yield data;
        })()
      : this.ws.chunks(path);
  }

  private systemContent(path: string): Uint8Array | undefined {
    const sys = this.sys(path);
    if (!sys) return undefined;
    if (this.mustStat(path).kind === "dir") throw new VfsError("EISDIR", path);
    return sys.content(path);
  }

  /**
   * Refuses changing what the file at `path` (already resolved) holds: the identity rule, and the
   * sensitive-file rule once the file holds anything. WASI's open asks it for a node it found.
   */
  checkWrite(path: string, action = "written"): void {
    this.rules.checkWrite(path, () => (this.ws.stat(path)?.size ?? 0) > 0, action);
  }

  /** Refuses changes to the read-only system tree (only in the machine view). */
  private checkWritable(path: string): void {
    if (this.system) checkMachineWrite(path);
  }

  writeFile(path: string, data: Uint8Array | string, opts: { createParents?: boolean; mode?: number } = {}): NodeInfo {
    path = this.real(path);
    this.checkWritable(path);
    this.checkWrite(path);
    return this.ws.writeFile(path, data, opts);
  }

  /** `write` false opens for reading through the editor (WASI read-write fds start this way). */
  openEditor(
    path: string,
    opts: { create?: boolean; truncate?: boolean; exclusive?: boolean; createParents?: boolean; write?: boolean; mode?: number } = {},
  ): FileEditor {
    path = this.real(path);
    if (opts.write !== false) {
      this.checkWritable(path);
      this.checkWrite(path);
    }
    if (!opts.truncate) this.rules.checkRead(path);
    return this.ws.openEditor(path, opts);
  }

  /** chmod. Changing an identity file's bits counts as modifying it. */
  setMode(path: string, mode: number): void {
    path = this.real(path);
    this.checkWritable(path);
    this.rules.checkMutate(path, "modified");
    this.ws.setMode(path, mode);
  }

  mkdir(path: string, opts: { recursive?: boolean; mode?: number } = {}): void {
    // `mkdir -p /tmp` and the like: an existing directory is fine whatever holds it.
    if (opts.recursive && this.stat(path)?.kind === "dir") return;
    this.checkWritable(path);
    this.ws.mkdir(path, opts);
  }

  touch(path: string, mtimeMs?: number): void {
    path = this.real(path);
    this.checkWritable(path);
    this.rules.checkMutate(path, "modified");
    this.ws.touch(path, mtimeMs);
  }

  setMtime(path: string, mtimeMs: number): void {
    this.setTimes(path, { mtimeMs });
  }

  setTimes(path: string, times: { atimeMs?: number; mtimeMs?: number }): void {
    this.checkWritable(path);
    this.rules.checkMutate(path, "modified");
    this.ws.setTimes(path, times);
  }

  remove(path: string, opts: { recursive?: boolean } = {}): void {
    this.checkSubtree(path, "deleted");
    this.ws.remove(path, opts);
  }

  rename(from: string, to: string): void {
    this.checkWritable(to);
    // A protected file keeps its protection: no move gives it a name the rules do not cover.
    this.checkSubtree(from, "moved", (p) => this.rules.checkMove(p, to + p.slice(from.length)));
    this.checkWrite(to, "replaced");
    this.ws.rename(from, to);
  }

  /**
   * An identity file anywhere inside a directory protects the directory from removal and moves;
   * `each` is asked too for the path and every file below it.
   */
  private checkSubtree(path: string, action: string, each?: (path: string) => void): void {
    this.checkWritable(path);
    this.rules.checkMutate(path, action);
    each?.(path);
    if (this.ws.stat(path)?.kind !== "dir") return;
    for (const node of this.ws.walk(path)) {
      if (node.kind === "dir") continue;
      this.rules.checkMutate(node.path, action);
      each?.(node.path);
    }
  }
}
