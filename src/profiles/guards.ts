/**
 * Profile behaviours around a file call that the platforms document: Darix's
 * read-first-then-edit guard and Wayland's deduplication of repeated reads of unchanged files.
 * Both look only at the canonical call a profile tool routed to.
 */
import type { ToolContext, ToolResult } from "../tools/types";
import { relativeToRoot } from "../vfs/paths";
import type { Profile, Route } from "./types";

export interface ReadMemory {
  /** Paths read or written in this session (kept in the session's SQLite). */
  wasRead(path: string): boolean;
  markRead(path: string): void;
  /**
   * The last read of a path and range: its file's mtime and size then. Kept in memory and
   * cleared by the session at every change to the workspace (a state-changing tool, an
   * upload), so a stamp that did not move is not trusted across a change.
   */
  lastRead: Map<string, string>;
}

const filePath = (ctx: ToolContext, call: Route): string | null =>
  call.tool === "read_file" || call.tool === "write_file" || call.tool === "edit_file" ? ctx.fs.resolve(ctx.cwd, call.args.path) : null;

/** A refusal before the call runs, or null to run it. */
export function beforeCall(profile: Profile, ctx: ToolContext, call: Route, memory: ReadMemory): ToolResult | null {
  if (!profile.readBeforeEdit || call.tool !== "edit_file") return null;
  const path = filePath(ctx, call)!;
  if (memory.wasRead(path)) return null;
  return {
    success: false,
    error: `${relativeToRoot(path)} has not been read in this run. Read it with the read tool first, then edit it, so the edit is based on its current content.`,
  };
}

/** Records reads and writes, and shortens a repeated read of an unchanged file. */
export function afterCall(profile: Profile, ctx: ToolContext, call: Route, result: ToolResult, memory: ReadMemory): ToolResult {
  if (!result.success) return result;
  const path = filePath(ctx, call);
  if (path === null || call.tool === "edit_file") return result;
  if (profile.readBeforeEdit) memory.markRead(path);
  if (!profile.dedupReads || call.tool !== "read_file") return result;
  const info = ctx.fs.stat(path);
  if (!info) return result;
  const key = `${path}\0${call.args.offset ?? ""}\0${call.args.limit ?? ""}`;
  const stamp = `${info.mtimeMs}:${info.size}`;
  if (memory.lastRead.get(key) === stamp) {
    return {
      success: true,
      output: `File unchanged since your last read of ${relativeToRoot(path)} (same offset and limit) in this session; its content is as shown then.`,
      unchanged: true,
    };
  }
  memory.lastRead.set(key, stamp);
  return result;
}
