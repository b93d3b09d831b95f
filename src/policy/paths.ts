import { deny } from "./denied";
import { ROOT } from "../vfs/paths";

export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_DEPTH = 128;

const utf8 = new TextEncoder();
/** Whether `s` is longer than `limit` bytes in UTF-8 (at most 3 per UTF-16 unit: short strings need no encoding). */
const longerThan = (s: string, limit: number): boolean => s.length * 3 > limit && utf8.encode(s).length > limit;

/**
 * Resolves what an agent typed into an absolute path inside the workspace, or refuses.
 * Relative paths start at `cwd`; absolute ones must already lie in /workspace. `..` is
 * resolved lexically (the workspace has no symlinks, so that is exact) and may not climb
 * out. Percent-escapes are ordinary characters here: nothing is ever decoded.
 */
export function resolvePath(cwd: string, input: string): string {
  if (typeof input !== "string") deny("path-invalid", "The path must be a string.");
  if (input.includes("\0")) deny("path-nul", "Paths may not contain NUL bytes; remove them and retry.");
  if (input === "") deny("path-empty", "The path is empty; give a file or directory inside /workspace.");
  if (longerThan(input, MAX_PATH_BYTES)) {
    deny("path-too-long", `The path is longer than ${MAX_PATH_BYTES} bytes; use a shorter path.`);
  }
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
