import { NetError } from "../net/errors";
import type { Denial } from "../policy/denied";
import { PolicyDenied } from "../policy/denied";

/**
 * What a program's fetch answers when it fails (python's urllib, node's fetch and http): a
 * refusal by the URL policy, reported to the call's log as bash's curl would be, or a network
 * error. Anything else is a fault of the session and is thrown on.
 */
export function programFetchFailure(e: unknown, reportDenial?: (denial: Denial) => void): { error: string; denied?: true } {
  if (e instanceof PolicyDenied) {
    reportDenial?.(e.denial);
    return { error: `toolshed: denied (${e.rule}): ${e.message}`, denied: true };
  }
  if (e instanceof NetError) return { error: e.message };
  throw e;
}
