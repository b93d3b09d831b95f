import { deny } from "./denied";
import { ROOT, STORED_ROOTS, isWithin } from "../vfs/paths";

export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_DEPTH = 128;

const utf8 = new TextEncoder();
/** Whether `s` is longer than `limit` bytes in UTF-8 (at most 3 per UTF-16 unit: short strings need no encoding). */
const longerThan = (s: string, limit: number): boolean => s.length * 3 > limit && utf8.encode(s).length > limit;

/** The checks every path gets before it is resolved. */
function checkInput(input: string): void {
  if (typeof input !== "string") deny("path-invalid", "The path must be a string.");
  if (input.includes("\0")) deny("path-nul", "Paths may not contain NUL bytes; remove them and retry.");
  if (input === "") deny("path-empty", "The path is empty; give a file or directory inside /workspace.");
  if (longerThan(input, MAX_PATH_BYTES)) {
    deny("path-too-long", `The path is longer than ${MAX_PATH_BYTES} bytes; use a shorter path.`);
  }
}

/**
 * Resolves what an agent typed into an absolute path inside the workspace, or refuses.
 * Relative paths start at `cwd`; absolute ones must already lie in /workspace. `..` is
 * resolved lexically (the workspace has no symlinks, so that is exact) and may not climb
 * out. Percent-escapes are ordinary characters here: nothing is ever decoded.
 */
export function resolvePath(cwd: string, input: string): string {
  checkInput(input);
  const absolute = input.startsWith("/");
  if (absolute && input !== ROOT && !input.startsWith(`${ROOT}/`)) {
    deny(
      "path-outside-workspace",
      `'${input}' is outside the workspace; only paths inside ${ROOT} (or relative to the working directory) are allowed.`,
    );
  }
  const parts: string[] = [];
  const start = absolute ? input.slice(ROOT.length) : `${cwd.slice(ROOT.length)}/${input}`;
  for (const part of start.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) {
        deny("path-traversal", `'${input}' climbs out of the workspace with '..'; stay inside ${ROOT}.`);
      }
      parts.pop();
      continue;
    }
    if (longerThan(part, MAX_NAME_BYTES)) {
      deny("path-name-too-long", `A path component is longer than ${MAX_NAME_BYTES} bytes; use shorter names.`);
    }
    parts.push(part);
  }
  if (parts.length > MAX_PATH_DEPTH) {
    deny("path-too-deep", `The path is nested deeper than ${MAX_PATH_DEPTH} directories; use a shallower path.`);
  }
  return parts.length === 0 ? ROOT : `${ROOT}/${parts.join("/")}`;
}

/**
 * The read-only directories the shell and its programs see besides the stored ones: listings of
 * the commands, a small /etc, /dev and /proc/self. What they hold is src/vfs/system-tree.ts.
 */
export const SYSTEM_DIRS: readonly string[] = ["/", "/bin", "/usr", "/usr/bin", "/usr/local", "/etc", "/dev", "/dev/fd", "/proc", "/proc/self"];
/** Trees whose every path is the system tree's to answer (present or not). */
const SYSTEM_TREES = ["/bin", "/usr/bin", "/etc", "/dev", "/proc"];

export type MachineArea = "stored" | "system";

/** Which part of the shell's view a normalized absolute path lies in, or null when it is not available. */
export function machineArea(path: string): MachineArea | null {
  if (STORED_ROOTS.some((root) => isWithin(path, root))) return "stored";
  if (SYSTEM_DIRS.includes(path) || SYSTEM_TREES.some((tree) => isWithin(path, tree))) return "system";
  return null;
}

export const AVAILABLE_AREAS =
  "only /workspace, /tmp and /usr/local/bin are writable; /bin, /usr/bin, /etc, /dev and /proc/self are read-only";

/**
 * Resolves a path as the shell and its programs see the machine: like a Linux root where only the
 * stored roots (/workspace, /tmp, /usr/local/bin) and the read-only system directories exist.
 * `..` stops at `/` as on Linux. Anything else is refused with a sentence naming what exists.
 * The file tools keep using resolvePath: their boundary is /workspace.
 */
export function resolveMachinePath(cwd: string, input: string): string {
  checkInput(input);
  const parts: string[] = [];
  for (const part of (input.startsWith("/") ? input : `${cwd}/${input}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      parts.pop();
      continue;
    }
    if (longerThan(part, MAX_NAME_BYTES)) {
      deny("path-name-too-long", `A path component is longer than ${MAX_NAME_BYTES} bytes; use shorter names.`);
    }
    parts.push(part);
  }
  if (parts.length > MAX_PATH_DEPTH + 1) {
    deny("path-too-deep", `The path is nested deeper than ${MAX_PATH_DEPTH} directories; use a shallower path.`);
  }
  const path = `/${parts.join("/")}`;
  if (/^\/proc\/[^/]+\/environ$/.test(path)) {
    deny("proc-environ", "Refused: /proc/*/environ exposes a process's environment. Read one variable by name instead, e.g. `printenv PATH`.");
  }
  if (!machineArea(path)) {
    const shown = `/${parts.slice(0, 2).join("/")}`;
    deny("path-unavailable", `${shown} is not available in this sandbox; ${AVAILABLE_AREAS}.`);
  }
  return path;
}

/** Refuses changing a read-only system path (what /bin, /etc, /dev and /proc hold). */
export function checkMachineWrite(path: string): void {
  if (machineArea(path) === "system") {
    deny("path-read-only", `${path} is read-only in this sandbox; ${AVAILABLE_AREAS}.`);
  }
}
