/**
 * Turn-taking for uploads into one session. At most MAX_UPLOADS_IN_FLIGHT uploads hold an open
 * editor (an uncommitted blob) at once; the others wait here, before the Worker reads a byte of
 * their body, in arrival order. An upload being sent is never aborted to make room: only an
 * upload whose request evidently died is reclaimed (`dropAbandonedUploads` in uploads.ts).
 */

import { LIMITS } from "../limits";

export const MAX_UPLOADS_IN_FLIGHT = LIMITS.pendingUploads;
const MAX_UPLOADS_WAITING = LIMITS.uploadsWaiting;
const UPLOAD_WAIT_MS = LIMITS.uploadWaitMs;
export const UPLOAD_RETRY_AFTER_S = LIMITS.uploadRetryAfterS;
export const UPLOAD_IDLE_MS = LIMITS.uploadIdleMs;
export const UPLOAD_HANDOFF_MS = LIMITS.uploadHandoffMs;

export class UploadSlots {
  private used = 0;
  private readonly waiting: Array<(granted: boolean) => void> = [];

  /** `reclaim` frees the slots of uploads whose request died (it calls `release` for each). */
  constructor(private readonly reclaim: () => void) {}

  get inFlight(): number {
    return this.used;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves true when a slot is held, false when the caller should retry later. */
  acquire(): Promise<boolean> {
    this.reclaim();
    if (this.used < MAX_UPLOADS_IN_FLIGHT && this.waiting.length === 0) {
      this.used++;
      return Promise.resolve(true);
    }
    if (this.waiting.length >= MAX_UPLOADS_WAITING) return Promise.resolve(false);
    return new Promise((resolve) => {
      const grant = (granted: boolean) => {
        clearTimeout(timer);
        resolve(granted);
      };
      const timer = setTimeout(() => {
        this.reclaim(); // may hand this waiter a slot
        const at = this.waiting.indexOf(grant);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        resolve(false);
      }, UPLOAD_WAIT_MS);
      this.waiting.push(grant);
    });
  }

  /** Gives a slot back: straight to the oldest waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next(true);
    else this.used = Math.max(0, this.used - 1);
  }
}
