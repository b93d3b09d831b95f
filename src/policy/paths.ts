import { type Denial, PolicyDenied, deny } from "./denied";
import { VfsError } from "../vfs/errors";
import { ROOT, STORED_ROOTS, isWithin } from "../vfs/paths";
import { LIMITS } from "../limits";

const MAX_PATH_BYTES = LIMITS.pathBytes;
const MAX_NAME_BYTES = LIMITS.nameBytes;
const MAX_PATH_DEPTH = LIMITS.pathDepth;

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

/** Linux's limit on links followed while resolving one path (past it: ELOOP). */
export const MAX_LINK_HOPS = LIMITS.linkHops;

/**
 * How a resolver sees symbolic links: `linkAt` gives the target text stored at an absolute path,
 * or undefined when no link is there. `followLast` false resolves the last component as lstat does.
 */
export interface LinkView {
  linkAt(path: string): string | undefined;
  followLast: boolean;
}

/**
 * The physical path `path` (absolute, "." and ".." allowed) names, walked component by component
 * as the kernel does: a link's target replaces it (relative targets start in the link's
 * directory), and a ".." after a link climbs from where the link led, not from the link's name.
 */
export function followLinks(path: string, links: LinkView): string {
  const parts: string[] = [];
  const pending = path.split("/").reverse();
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      parts.pop();
      continue;
    }
    parts.push(part);
    // A trailing slash ("link/") still follows, as on Linux.
    if (pending.length === 0 && !links.followLast) break;
    const target = links.linkAt(`/${parts.join("/")}`);
    if (target === undefined) continue;
    if (++hops > MAX_LINK_HOPS) throw new VfsError("ELOOP", path);
    parts.pop();
    if (target.startsWith("/")) parts.length = 0;
    for (const t of target.split("/").reverse()) pending.push(t);
  }
  return `/${parts.join("/")}`;
}

/**
 * Resolves what an agent typed into an absolute path inside the workspace, or refuses.
 * Relative paths start at `cwd`; absolute ones must already lie in /workspace. `..` is
 * resolved lexically and may not climb out. With `links`, symbolic links are then followed and
 * the place they lead to must be inside /workspace too: a file tool never reaches /tmp, /etc or
 * anything else through a link. Percent-escapes are ordinary characters here: nothing is ever decoded.
 */
export function resolvePath(cwd: string, input: string, links?: LinkView): string {
  checkInput(input);
  const absolute = input.startsWith("/");
  if (absolute && input !== ROOT && !input.startsWith(`${ROOT}/`)) {
    deny("path-outside-workspace", `'${input}' is outside the workspace; only paths inside ${ROOT} (or relative to the working directory) are allowed.`);
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
  const lexical = parts.length === 0 ? ROOT : `${ROOT}/${parts.join("/")}`;
  if (!links) return lexical;
  const real = followLinks(absolute ? input : `${cwd}/${input}`, links);
  if (!isWithin(real, ROOT)) {
    deny(
      "symlink-outside-workspace",
      `'${input}' goes through a symbolic link to '${real}', outside the workspace; file tools only reach ${ROOT}. Use the bash tool to work with files elsewhere.`,
    );
  }
  return real;
}

/**
 * The read-only directories the shell and its programs see besides the stored ones: listings of
 * the commands, a small /etc, /dev and /proc/self. What they hold is src/vfs/system-tree.ts.
 */
const SYSTEM_DIRS: readonly string[] = ["/", "/bin", "/usr", "/usr/bin", "/usr/local", "/etc", "/dev", "/dev/fd", "/proc", "/proc/self", "/var"];
/** Trees whose every path is the system tree's to answer (present or not). */
// /usr is read-only and holds only what the system tree lists: programs look for their files
// there (python3 probes /usr/lib/python311.zip, /usr/pyvenv.cfg), which answers "no such file".
// "/:memory:": the SQLite shell checks whether its default database name exists as a file (from /).
const SYSTEM_TREES = ["/bin", "/usr", "/etc", "/dev", "/proc", "/:memory:"];

export type MachineArea = "stored" | "system";

/** Which part of the shell's view a normalized absolute path lies in, or null when it is not available. */
export function machineArea(path: string): MachineArea | null {
  if (STORED_ROOTS.some((root) => isWithin(path, root))) return "stored";
  if (SYSTEM_DIRS.includes(path) || SYSTEM_TREES.some((tree) => isWithin(path, tree))) return "system";
  return null;
}

const AVAILABLE_AREAS = "only /workspace, /tmp, /var/tmp and /usr/local/bin are writable; /bin, /usr/bin, /etc, /dev and /proc/self are read-only";

/**
 * Resolves a path as the shell and its programs see the machine: like a Linux root where only the
 * stored roots (/workspace, /tmp, /usr/local/bin) and the read-only system directories exist.
 * `..` stops at `/` as on Linux. Anything else is refused with a sentence naming what exists.
 * The file tools keep using resolvePath: their boundary is /workspace.
 */
export function resolveMachinePath(cwd: string, input: string, links?: LinkView): string {
  checkInput(input);
  const parts: string[] = [];
  const raw = input.startsWith("/") ? input : `${cwd}/${input}`;
  for (const part of raw.split("/")) {
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
  const lexical = `/${parts.join("/")}`;
  const path = links ? followLinks(raw, links) : lexical;
  if (/^\/proc\/[^/]+\/environ$/.test(path)) {
    deny("proc-environ", "Refused: /proc/*/environ exposes a process's environment. Read one variable by name instead, e.g. `printenv PATH`.");
  }
  if (!machineArea(path)) {
    const shown = path.split("/").slice(0, 3).join("/");
    const via = path === lexical ? "" : `'${input}' is a symbolic link (or goes through one) to ${path}, and `;
    const denial = { rule: "path-unavailable", reason: `${via}${shown} is not available in this sandbox; ${AVAILABLE_AREAS}.` };
    if (!mayExistOnDebian(path)) throw new AbsentPath(path, parentExists(path) ? denial : null);
    throw new PolicyDenied(denial);
  }
  return path;
}

/**
 * Directories a Debian 12 box has that the machine view does not show (besides what
 * machineArea answers for). A path in or below them may exist on Debian, so it keeps its refusal;
 * the children of the KNOWN_EMPTY ones are known (none), so /home/NAME is absent as on a fresh Debian.
 */
const DEBIAN_DIRS: readonly string[] = ["/boot", "/home", "/lib", "/lib64", "/media", "/mnt", "/opt", "/root", "/run", "/sbin", "/srv", "/sys"].concat(
  ["backups", "cache", "lib", "local", "lock", "log", "mail", "opt", "run", "spool"].map((d) => `/var/${d}`),
);
/** Debian directories that are empty on a fresh Debian 12: what would be in them is absent. */
const KNOWN_EMPTY = ["/home", "/media", "/mnt", "/opt", "/srv"];

/** Whether `path` (outside the machine view) may exist on Debian: a Debian directory or inside one. */
const mayExistOnDebian = (path: string): boolean => DEBIAN_DIRS.some((d) => path === d || (isWithin(path, d) && !KNOWN_EMPTY.includes(d)));

/**
 * A path outside the machine view that a Debian box does not have either (`/nonexistent`,
 * `/opt2/x`): looking it up finds nothing, ENOENT, as on Debian, with no refusal to report. When
 * its directory does exist (on Debian or here: `/nope`, `/home/x`), creating it is still refused:
 * `denial` says why, and the doors that create (WASI's open with O_CREAT, mkdir, links) report it.
 * Nothing is ever written outside the machine view's writable areas either way.
 */
export class AbsentPath extends VfsError {
  constructor(
    path: string,
    readonly denial: Denial | null,
  ) {
    super("ENOENT", path);
  }
}

/**
 * What a door reports when resolving `path` failed with `e`: a name Debian lacks is ENOENT to a
 * lookup, but when the call would create it (`creating`) where its directory exists, the
 * refusal AbsentPath carries. Every door that creates asks this, so the rule lives here once.
 */
export function resolveFailure(e: unknown, creating: boolean): unknown {
  return creating && e instanceof AbsentPath && e.denial ? new PolicyDenied(e.denial) : e;
}

/** Whether the directory `path` would be created in exists, here or on Debian. */
function parentExists(path: string): boolean {
  const parent = path.slice(0, path.lastIndexOf("/")) || "/";
  return machineArea(parent) !== null || mayExistOnDebian(parent);
}

/** Refuses changing a read-only system path (what /bin, /etc, /dev and /proc hold). */
export function checkMachineWrite(path: string): void {
  if (machineArea(path) === "system") {
    deny("path-read-only", `${path} is read-only in this sandbox; ${AVAILABLE_AREAS}.`);
  }
}
