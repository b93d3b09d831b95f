/**
 * Turns on the isolate's one thread, so that the runtime reads its sockets between two stretches
 * of CPU work however many sessions are busy.
 *
 * workerd runs every isolate of a process on one thread and polls its sockets only when no event
 * is ready to run. All session objects of a Worker can share that thread (locally they always
 * do), so 100 sessions running WASI programs back to back kept it busy for 20 s and more: no
 * request was read meanwhile, and once workerd looked, its HTTP server's idle timers (5 s for the
 * next request on a kept-alive connection, 15 s for the first one) had fired and it closed those
 * connections with the request unread. The sender saw a reset, which `wrangler dev`'s proxy
 * answers as 503 "Your worker restarted mid-request".
 *
 * A stretch is a synchronous run of Wasm, the start of a streaming one, a streaming one resuming
 * after a pipe wait, or the start of a tool call. Once RUNS_PER_POLL stretches began without a
 * poll between, the next ones begin from a timer, and timers fire only after a poll: the sockets
 * are read at least once per round of the busy sessions, whose stretches take turns, instead of
 * once per whole command of each. A lone busy session pays one poll per RUNS_PER_POLL stretches.
 */

/** Stretches begun since the last poll. */
let streak = 0;
let resetArmed = false;
/** Resets so far: a stretch that waited a poll and saw none knows the reset timer was lost. */
let resets = 0;

/** Stretches that may follow one another before the next one waits for a poll. */
const RUNS_PER_POLL = 16;

const afterPoll = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function reset(): void {
  resetArmed = false;
  streak = 0;
  resets++;
}

function claim(): void {
  streak++;
  if (resetArmed) return;
  resetArmed = true;
  // Set before the timers of stretches that wait from now on, so it fires first in the next poll.
  setTimeout(reset, 0);
}

/**
 * Claims a stretch of work on this isolate's thread: at once while fewer than RUNS_PER_POLL began
 * since the last poll, else after the next poll. Waiters are not kept in a queue: a promise
 * settled from another request's context is dropped once the request that made it is gone, and
 * the queue would stall behind it. Each waits on its own timer instead. (If the object whose call
 * armed the reset timer is aborted first, the timer goes with it: the next stretch that waits a
 * poll resets the count itself.)
 */
export async function takeTurn(): Promise<void> {
  if (streak >= RUNS_PER_POLL) {
    const seen = resets;
    await afterPoll();
    // The reset timer, armed before this wait's, fires first; if it did not, it went with an
    // aborted object, and every later stretch would wait one poll: a poll has happened, so reset.
    if (resets === seen) reset();
  }
  claim();
}

/** A wait a streaming run suspends on; it resumes in a new turn once the wait settles. */
export function resumeInTurn<T>(wait: Promise<T>): Promise<T> {
  return wait.then(async (value) => {
    await takeTurn();
    return value;
  });
}
