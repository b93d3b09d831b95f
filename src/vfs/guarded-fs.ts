import type { FileRules } from "../policy/files";
import { VfsError } from "./errors";
import { checkMachineWrite, machineArea, resolveMachinePath, resolvePath } from "../policy/paths";
import type { FileEditor } from "./file-editor";
import { CHUNK_SIZE } from "./schema";
import type { SystemTree } from "./system-tree";
import type { NodeInfo, Workspace } from "./workspace";

/**
 * The workspace as every door sees it (file tools, HTTP files, the shell, WASI programs):
 * the same calls as Workspace, each asking the policy first. Metadata (stat, listing) is
 * open; reading contents honours the sensitive-file rule; changes honour the identity rule.
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

  resolve(cwd: string, input: string): string {
    return this.system ? resolveMachinePath(cwd, input) : resolvePath(cwd, input);
  }

  /** The system tree when it answers for `path` (never for the stored roots). */
  private sys(path: string): SystemTree | undefined {
    return this.system && machineArea(path) === "system" ? this.system : undefined;
  }

  stat(path: string): NodeInfo | null {
    const sys = this.sys(path);
    return sys ? sys.stat(path) : this.ws.stat(path);
  }

  mustStat(path: string): NodeInfo {
    const sys = this.sys(path);
    if (!sys) return this.ws.mustStat(path);
    const info = sys.stat(path);
    if (!info) throw new VfsError("ENOENT", path);
    return info;
  }

  readdir(path: string): readonly NodeInfo[] {
    const sys = this.sys(path);
    if (!sys) return this.ws.readdir(path);
    if (this.mustStat(path).kind !== "dir") throw new VfsError("ENOTDIR", path);
    return sys.list(path).flatMap((name) => this.stat(path === "/" ? `/${name}` : `${path}/${name}`) ?? []);
  }

  walk(dir: string): NodeInfo[] {
    return this.sys(dir) ? [] : this.ws.walk(dir);
  }

  readFile(path: string): Uint8Array {
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
    this.rules.checkRead(path);
    return this.systemContent(path)?.slice(offset, offset + length) ?? this.ws.read(path, offset, length);
  }

  /** See Workspace.readChunk: the bytes may be shared, never modify them. */
  readChunk(path: string, idx: number): Uint8Array {
    this.rules.checkRead(path);
    return this.systemContent(path)?.slice(idx * CHUNK_SIZE, (idx + 1) * CHUNK_SIZE) ?? this.ws.readChunk(path, idx);
  }

  chunks(path: string): Generator<Uint8Array> {
    this.rules.checkRead(path);
    const data = this.systemContent(path);
    return data ? (function* () { yield data; })() : this.ws.chunks(path);
  }

  private systemContent(path: string): Uint8Array | undefined {
    const sys = this.sys(path);
    if (!sys) return undefined;
    if (this.mustStat(path).kind === "dir") throw new VfsError("EISDIR", path);
    return sys.content(path);
  }

  /** Refuses changes to the read-only system tree (only in the machine view). */
  private checkWritable(path: string): void {
    if (this.system) checkMachineWrite(path);
  }

  writeFile(path: string, data: Uint8Array | string, opts: { createParents?: boolean; mode?: number } = {}): NodeInfo {
    this.checkWritable(path);
    this.rules.checkMutate(path, "written");
    return this.ws.writeFile(path, data, opts);
  }

  /** `write` false opens for reading through the editor (WASI read-write fds start this way). */
  openEditor(
    path: string,
    opts: { create?: boolean; truncate?: boolean; exclusive?: boolean; createParents?: boolean; write?: boolean; mode?: number } = {},
  ): FileEditor {
    if (opts.write !== false) {
      this.checkWritable(path);
      this.rules.checkMutate(path, "written");
    }
    if (!opts.truncate) this.rules.checkRead(path);
    return this.ws.openEditor(path, opts);
  }

  /** chmod. Changing an identity file's bits counts as modifying it. */
  setMode(path: string, mode: number): void {
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
    this.checkSubtree(from, "moved");
    this.rules.checkMutate(to, "replaced");
    this.ws.rename(from, to);
  }

  /** An identity file anywhere inside a directory protects the directory from removal and moves. */
  private checkSubtree(path: string, action: string): void {
    this.checkWritable(path);
    this.rules.checkMutate(path, action);
    if (this.ws.stat(path)?.kind !== "dir") return;
    for (const node of this.ws.walk(path)) {
      if (node.kind === "file") this.rules.checkMutate(node.path, action);
    }
  }
}
