/** POSIX-style error codes the workspace raises; WASI and the tools map them to their own shapes. */
export type VfsErrorCode = "ENOENT" | "EEXIST" | "ENOTDIR" | "EISDIR" | "ENOTEMPTY" | "EDQUOT" | "EINVAL" | "EBUSY" | "ELOOP";

const DESCRIPTIONS: Record<VfsErrorCode, string> = {
  ENOENT: "No such file or directory",
  EEXIST: "File exists",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  ENOTEMPTY: "Directory not empty",
  EDQUOT: "Workspace quota exceeded",
  EINVAL: "Invalid argument",
  EBUSY: "Resource busy",
  ELOOP: "Too many levels of symbolic links",
};

export class VfsError extends Error {
  constructor(
    readonly code: VfsErrorCode,
    readonly path: string,
    detail?: string,
  ) {
    super(`${path}: ${detail ?? DESCRIPTIONS[code]}`);
    this.name = "VfsError";
  }
  /** The short POSIX description, e.g. "No such file or directory". */
  get description(): string {
    return DESCRIPTIONS[this.code];
  }
}

export const isVfsError = (e: unknown, code?: VfsErrorCode): e is VfsError => e instanceof VfsError && (code === undefined || e.code === code);
