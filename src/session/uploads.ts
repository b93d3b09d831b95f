import { LIMITS } from "../limits";
import { drain, pieceReader } from "../lib/streams";
import { isVfsError } from "../vfs/errors";
import type { FileEditor } from "../vfs/file-editor";
import { relativeToRoot } from "../vfs/paths";
import type { Failure, Outcome } from "./types";
import { MAX_UPLOADS_IN_FLIGHT, UPLOAD_HANDOFF_MS, UPLOAD_IDLE_MS, UPLOAD_RETRY_AFTER_S, UploadSlots } from "./upload-slots";

/** Sent before the body is read; HTTP answers it 429 with Retry-After (see failureResponse). */
const uploadsBusy = (): Failure => ({
  ok: false,
  error: "fs",
  code: "EAGAIN",
  message: `Too many uploads to this session at once (${MAX_UPLOADS_IN_FLIGHT} are sent at a time, the rest wait their turn, and this one waited too long); retry in ${UPLOAD_RETRY_AFTER_S} s.`,
});

/** What an upload needs of its session; the session object wires these. */
export interface UploadHost {
  /** Opens `path` for writing under the policy (a refusal logged as `files.put`); the session's absence is a Failure too. */
  openEditor(path: string): Outcome<{ value: FileEditor }>;
  /** Bytes went into a file: what the session remembers of reads is stale. */
  written(): void;
  /** Just before an upload commits: the session's automatic checkpoint. */
  beforeCommit(): void;
}

/**
 * A session's uploads, in three steps (open, receive the body, finish) so that a refusal is
 * known before the body crosses RPC and nothing is visible until the caller commits.
 */
export class Uploads {
  /**
   * Uploads whose bytes are stored but not yet committed, by upload id, oldest first. A request
   * that dies between open and finish never comes back for its entry, so open aborts entries
   * idle too long or past the cap (their stored chunks go with them).
   */
  private readonly uploads = new Map<string, { editor: FileEditor; touched: number; receiving: boolean }>();
  /** Uploads past MAX_UPLOADS_IN_FLIGHT wait here, before their body is read. */
  private readonly uploadSlots = new UploadSlots(() => this.dropAbandonedUploads());

  constructor(private readonly host: UploadHost) {}

  /** Uploads opened and not yet finished (each may hold one uncommitted blob). */
  get pending(): number {
    return this.uploads.size;
  }

  /**
   * Opens a pending upload (policy is asked here) before any body is sent. A refusal must be
   * known before the body crosses RPC, so that a refused body is never sent here only to be
   * drained (see `drain`).
   */
  async open(path: string): Promise<Outcome<{ uploadId: string }>> {
    if (!(await this.uploadSlots.acquire())) return uploadsBusy();
    const opened = this.host.openEditor(path);
    if (!opened.ok) return (this.uploadSlots.release(), opened);
    const uploadId = crypto.randomUUID();
    this.uploads.set(uploadId, { editor: opened.value, touched: Date.now(), receiving: false });
    return { ok: true, uploadId };
  }

  /**
   * Streams a request body into an opened upload; nothing is visible until `finish`
   * commits it. The caller commits only when it saw the body end cleanly, because a cut-off
   * stream can look like a normal end on this side. On failure the rest of the body is
   * drained, never cancelled (see `drain`); the caller bounds it to `maxBytes`.
   */
  async receive(uploadId: string, body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Outcome<{ size: number }>> {
    // Pieces of up to LIMITS.uploadReadBytes, not workerd's 4 KiB (see pieceReader); append copies each.
    const reader = pieceReader(body, LIMITS.uploadReadBytes, true);
    const pending = this.uploads.get(uploadId);
    const editor = pending?.editor;
    const fail = async (f: Failure): Promise<Failure> => {
      editor?.abort();
      this.endUpload(uploadId);
      await drain(reader);
      return f;
    };
    if (!editor) return fail({ ok: false, error: "fs", code: "EIO", message: "The upload was lost (the session restarted); upload again." });
    pending!.receiving = true;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (editor.size + value.length > maxBytes) return fail({ ok: false, error: "fs", code: "EFBIG", message: `Upload exceeds ${maxBytes} bytes.` });
        editor.append(value);
        pending!.touched = Date.now();
      }
      editor.flush();
      pending!.receiving = false;
      pending!.touched = Date.now();
    } catch (e) {
      if (isVfsError(e)) return fail({ ok: false, error: "fs", code: e.code, message: `${relativeToRoot(e.path)}: ${e.message.slice(e.path.length + 2)}` });
      return fail({ ok: false, error: "fs", code: "EIO", message: "The upload was interrupted; the previous content is unchanged." });
    }
    this.host.written();
    return { ok: true, size: editor.size };
  }

  /** Commits (or throws away) a pending upload. */
  async finish(uploadId: string, commit: boolean): Promise<Outcome<{ size: number; path: string }>> {
    const editor = this.uploads.get(uploadId)?.editor;
    this.endUpload(uploadId);
    if (!editor) return { ok: false, error: "fs", code: "EIO", message: "The upload was lost (the session restarted); upload again." };
    if (!commit) {
      editor.abort();
      return { ok: false, error: "fs", code: "EIO", message: "The upload was interrupted; the previous content is unchanged." };
    }
    try {
      this.host.beforeCommit();
      const info = editor.commit();
      return { ok: true, size: info.size, path: relativeToRoot(info.path) };
    } catch (e) {
      if (isVfsError(e)) return { ok: false, error: "fs", code: e.code, message: `${relativeToRoot(e.path)}: ${e.message.slice(e.path.length + 2)}` };
      throw e;
    }
  }

  /**
   * Aborts uploads whose request died: a body idle past UPLOAD_IDLE_MS, or an upload left
   * between steps past UPLOAD_HANDOFF_MS. Never one being sent, whatever the number waiting.
   */
  private dropAbandonedUploads(): void {
    const now = Date.now();
    for (const [id, { editor, touched, receiving }] of this.uploads) {
      if (now - touched < (receiving ? UPLOAD_IDLE_MS : UPLOAD_HANDOFF_MS)) continue;
      editor.abort();
      this.endUpload(id);
    }
  }

  /** Forgets a pending upload and hands its slot on. */
  private endUpload(uploadId: string): void {
    if (this.uploads.delete(uploadId)) this.uploadSlots.release();
  }
}
