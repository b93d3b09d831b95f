import { PolicyDenied, type Denial } from "../../policy/denied";
import { isVfsError } from "../../vfs/errors";

/** What a host call answers the guest: a value, or a Node-shaped error ({code, syscall, path}). */
export type GuestError = { code?: string; message?: string; syscall?: string; path?: string; dest?: string; reason?: string };

/**
 * A workspace or policy failure as Node reports it: the VFS codes map one to one; a policy
 * refusal is EACCES (as the kernel answers a forbidden open) with the policy's reason beside it.
 */
export function toGuestError(e: unknown, syscall: string, path?: string, dest?: string, onDenied?: (d: Denial) => void): GuestError {
  if (e instanceof PolicyDenied) {
    onDenied?.(e.denial);
    return { code: "EACCES", syscall, path, dest, reason: `toolshed: denied (${e.rule}): ${e.message}` };
  }
  if (isVfsError(e)) return { code: e.code === "EDQUOT" ? "EDQUOT" : e.code, syscall, path, dest };
  if (e instanceof Error && /path/i.test(e.name)) return { code: "ENOENT", syscall, path, dest };
  throw e;
}
