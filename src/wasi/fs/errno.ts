import { wasi } from "@bjorn3/browser_wasi_shim";
import type { VfsErrorCode } from "../../vfs/errors";

/** POSIX codes the workspace raises, as the WASI errnos a program's libc understands. */
export const VFS_ERRNO: Record<VfsErrorCode, number> = {
  ENOENT: wasi.ERRNO_NOENT,
  EEXIST: wasi.ERRNO_EXIST,
  ENOTDIR: wasi.ERRNO_NOTDIR,
  EISDIR: wasi.ERRNO_ISDIR,
  ENOTEMPTY: wasi.ERRNO_NOTEMPTY,
  EDQUOT: wasi.ERRNO_DQUOT,
  EINVAL: wasi.ERRNO_INVAL,
  EBUSY: wasi.ERRNO_BUSY,
  ELOOP: wasi.ERRNO_LOOP,
};

/**
 * A policy refusal as an errno. Changing an identity file and climbing out of the workspace are
 * "Operation not permitted" (the WASI path-resolution spec uses that for escapes); reading a
 * protected file is "Permission denied", which is what a program would see for an unreadable file.
 */
export function deniedErrno(rule: string): number {
  if (rule === "identity-file" || rule.startsWith("path-")) return wasi.ERRNO_PERM;
  return wasi.ERRNO_ACCES;
}
