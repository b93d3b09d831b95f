import type { FileRules } from "../policy/files";
import { resolvePath } from "../policy/paths";
import type { FileEditor } from "./file-editor";
import type { NodeInfo, Workspace } from "./workspace";

/**
 * The workspace as every door sees it (file tools, HTTP files, the shell, WASI programs):
 * the same calls as Workspace, each asking the policy first. Metadata (stat, listing) is
 * open; reading contents honours the sensitive-file rule; changes honour the identity rule.
 */
export class GuardedFs {
  constructor(
    readonly ws: Workspace,
    readonly rules: FileRules,
  ) {}

  resolve(cwd: string, input: string): string {
    return resolvePath(cwd, input);
  }

  stat(path: string): NodeInfo | null {
    return this.ws.stat(path);
  }

  mustStat(path: string): NodeInfo {
    return this.ws.mustStat(path);
  }

  readdir(path: string): readonly NodeInfo[] {
    return this.ws.readdir(path);
  }

  walk(dir: string): NodeInfo[] {
    return this.ws.walk(dir);
  }

  readFile(path: string): Uint8Array {
    this.rules.checkRead(path);
    return this.ws.readFile(path);
  }

  read(path: string, offset: number, length: number): Uint8Array {
    this.rules.checkRead(path);
    return this.ws.read(path, offset, length);
  }

  /** See Workspace.readChunk: the bytes may be shared, never modify them. */
  readChunk(path: string, idx: number): Uint8Array {
    this.rules.checkRead(path);
    return this.ws.readChunk(path, idx);
  }

  chunks(path: string): Generator<Uint8Array> {
    this.rules.checkRead(path);
    return this.ws.chunks(path);
  }

  writeFile(path: string, data: Uint8Array | string, opts: { createParents?: boolean } = {}): NodeInfo {
    this.rules.checkMutate(path, "written");
    return this.ws.writeFile(path, data, opts);
  }

  /** `write` false opens for reading through the editor (WASI read-write fds start this way). */
  openEditor(
    path: string,
    opts: { create?: boolean; truncate?: boolean; exclusive?: boolean; createParents?: boolean; write?: boolean } = {},
  ): FileEditor {
    if (opts.write !== false) this.rules.checkMutate(path, "written");
    if (!opts.truncate) this.rules.checkRead(path);
    return this.ws.openEditor(path, opts);
  }

  mkdir(path: string, opts: { recursive?: boolean } = {}): void {
    this.ws.mkdir(path, opts);
  }

  touch(path: string, mtimeMs?: number): void {
    this.rules.checkMutate(path, "modified");
    this.ws.touch(path, mtimeMs);
  }

  setMtime(path: string, mtimeMs: number): void {
    this.rules.checkMutate(path, "modified");
    this.ws.setMtime(path, mtimeMs);
  }

  remove(path: string, opts: { recursive?: boolean } = {}): void {
    this.checkSubtree(path, "deleted");
    this.ws.remove(path, opts);
  }

  rename(from: string, to: string): void {
    this.checkSubtree(from, "moved");
    this.rules.checkMutate(to, "replaced");
    this.ws.rename(from, to);
  }

  /** An identity file anywhere inside a directory protects the directory from removal and moves. */
  private checkSubtree(path: string, action: string): void {
    this.rules.checkMutate(path, action);
    if (this.ws.stat(path)?.kind !== "dir") return;
    for (const node of this.ws.walk(path)) {
      if (node.kind === "file") this.rules.checkMutate(node.path, action);
    }
  }
}
