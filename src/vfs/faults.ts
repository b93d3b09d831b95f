/** Places in a write where the fault tests (test/faults/) interrupt the Durable Object. */
export type FaultPoint = "chunk-stored" | "node-installed" | "dir-created" | "restore-applied" | "fork-chunk" | "fork-row" | "fork-commit" | "fork-imported";

/**
 * Test-only: a function the fault tests install to throw, or to abort the Durable Object, at a
 * chosen step of a write. Null in production, where each point costs one comparison.
 */
export const faults: { hook: ((point: FaultPoint) => void) | null } = { hook: null };

export function faultPoint(point: FaultPoint): void {
  if (faults.hook) faults.hook(point);
}
