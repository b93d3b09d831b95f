import { describe, expect, it } from "vitest";
import { takeTurn } from "../../src/wasi/turns";

/** A timer armed now fires after the runtime's next poll of its sockets and timers. */
const nextPoll = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("turns on the isolate's thread", () => {
  it("a burst of stretches lets a poll happen after every 16, in any number of sessions", async () => {
    await nextPoll(); // start from a fresh poll, with no stretch counted yet
    const order: string[] = [];
    let polls = 0;
    // Stands for a socket read: it needs the thread to poll. Re-armed after each poll it sees.
    let watching = true;
    const watch = async () => {
      while (watching) {
        await nextPoll();
        polls++;
        order.push("poll");
      }
    };
    const watcher = watch();
    // 100 "sessions", each with 3 stretches of pure CPU back to back (nothing else awaited).
    await Promise.all(
      Array.from({ length: 100 }, async (_, s) => {
        for (let i = 0; i < 3; i++) {
          await takeTurn();
          let x = 0;
          for (let k = 0; k < 10_000; k++) x = (x * 31 + k) | 0; // a stretch that never yields by itself
          order.push(`s${s}:${x & 0}`);
        }
      }),
    );
    watching = false;
    await watcher;
    const runs = order
      .join(" ")
      .split("poll")
      .map((chunk) => chunk.trim().split(" ").filter(Boolean).length);
    // Without turns all 300 stretches would run between two polls.
    expect(polls).toBeGreaterThanOrEqual(2);
    // Between two polls: at most one poll's budget of 16 plus the sessions whose wait ended in
    // that poll, each resuming for one stretch.
    expect(Math.max(...runs)).toBeLessThanOrEqual(16 + 100);
    expect(order.filter((x) => x !== "poll")).toHaveLength(300);
  });

  it("a lone session's stretches start at once, without waiting for a poll", async () => {
    // Other files' objects ran on this isolate: a count they left (its reset timer gone with an
    // aborted object) is cleared by one stretch that waits a poll, then by this file's own timer.
    for (let i = 0; i <= 16; i++) await takeTurn();
    await nextPoll();
    let polled = false;
    void nextPoll().then(() => (polled = true));
    for (let i = 0; i < 16; i++) await takeTurn();
    expect(polled).toBe(false);
  });
});
