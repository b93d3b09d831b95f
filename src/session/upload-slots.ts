/**
 * Turn-taking for uploads into one session. At most MAX_UPLOADS_IN_FLIGHT uploads hold an open
 * editor (an uncommitted blob) at once; the others wait here, before the Worker reads a byte of
 * their body, in arrival order. An upload being sent is never aborted to make room: only an
 * upload whose request evidently died is reclaimed (see `reclaim` in the session).
 */

/** Uploads of one session holding an open editor at once: each may hold an uncommitted blob. */
export const MAX_UPLOADS_IN_FLIGHT = 8;
/** Uploads waiting for a slot; past this a client gets 429 with Retry-After at once. */
export const MAX_UPLOADS_WAITING = 4096;
/** How long an upload waits for a slot before it is answered 429 with Retry-After. */
export const UPLOAD_WAIT_MS = 60_000;
/** The Retry-After (seconds) sent with that 429. */
export const UPLOAD_RETRY_AFTER_S = 2;
/** A receiving upload whose body has not moved for this long belongs to a request that died. */
export const UPLOAD_IDLE_MS = 10 * 60 * 1000;
/** An opened upload whose body never started, or whose body ended but was never committed: the
 * Worker does either step right after the other, so this long means its request died. */
export const UPLOAD_HANDOFF_MS = 30_000;

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
