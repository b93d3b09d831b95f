/**
 * Where the time of one request goes, sent back as a `Server-Timing` header so a benchmark
 * (`npm run bench -- latency`) can show which phase a regression lives in. Phases are laps: each
 * `lap(name)` records the time since the previous one. Under `wrangler dev` the clock advances
 * while code runs; deployed, Workers' clock stands still between I/O, so most laps read 0 there.
 */
export type Phases = Record<string, number>;

export class Laps {
  readonly phases: Phases = {};
  private last = performance.now();

  lap(name: string): void {
    const now = performance.now();
    this.phases[name] = (this.phases[name] ?? 0) + (now - this.last);
    this.last = now;
  }

  /** Adds phases measured elsewhere (the session object's), taking their sum out of `from`. */
  merge(inner: Phases | undefined, from: string): void {
    if (!inner) return;
    let total = 0;
    for (const [k, v] of Object.entries(inner)) {
      this.phases[k] = (this.phases[k] ?? 0) + v;
      total += v;
    }
    if (from in this.phases) this.phases[from] = Math.max(0, this.phases[from]! - total);
  }
}

/** The laps of a request in flight, found by the request (set by the Worker's entry point). */
const byRequest = new WeakMap<Request, Laps>();

export const startLaps = (req: Request): Laps => {
  const laps = new Laps();
  byRequest.set(req, laps);
  return laps;
};

export const lapsOf = (req: Request): Laps | undefined => byRequest.get(req);

/** The header's value: `name;dur=1.234` per phase, in the order they were first recorded. */
export const serverTiming = (phases: Phases): string =>
  Object.entries(phases)
    .map(([k, v]) => `${k};dur=${v.toFixed(3)}`)
    .join(", ");
