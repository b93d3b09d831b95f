import { PolicyDenied } from "../../../policy/denied";
import { isVfsError } from "../../../vfs/errors";
import type { HostCommandIo } from "./index";
import { applyMode, modeString } from "./mode";

const HELP = `Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help             display this help and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
`;

const octal = (m: number) => m.toString(8).padStart(4, "0");

/** chmod, over the session's files as the shell sees them (modes live in the workspace rows). */
export const chmod = async ({ argv, cwd, umask, fs, out, err, denied }: HostCommandIo): Promise<number> => {
  let recursive = false;
  let verbose = false;
  let changes = false;
  let quiet = false;
  let reference: string | undefined;
  const operands: string[] = [];
  let opts = true;
  for (const a of argv.slice(1)) {
    if (opts && a === "--") opts = false;
    else if (opts && a === "--help") return out(HELP).then(() => 0);
    else if (opts && a.startsWith("--reference=")) reference = a.slice(12);
    else if (opts && ["--recursive", "--verbose", "--changes", "--silent", "--quiet"].includes(a)) {
      recursive ||= a === "--recursive";
      verbose ||= a === "--verbose";
      changes ||= a === "--changes";
      quiet ||= a === "--silent" || a === "--quiet";
    } else if (opts && a.startsWith("--")) {
      await err(`chmod: unrecognized option '${a}'\nTry 'chmod --help' for more information.\n`);
      return 1;
    } else if (opts && /^-[RvcfHLP]+$/.test(a)) {
      recursive ||= a.includes("R");
      verbose ||= a.includes("v");
      changes ||= a.includes("c");
      quiet ||= a.includes("f");
    } else operands.push(a);
  }
  let spec: string | undefined;
  if (reference === undefined) spec = operands.shift();
  if ((spec === undefined && reference === undefined) || operands.length === 0) {
    await err(
      spec === undefined
        ? "chmod: missing operand\nTry 'chmod --help' for more information.\n"
        : `chmod: missing operand after '${spec}'\nTry 'chmod --help' for more information.\n`,
    );
    return 1;
  }
  /** Says why a path failed; false ends nothing (chmod goes on with the next file). */
  const failed = async (e: unknown, what: string, name: string): Promise<void> => {
    if (e instanceof PolicyDenied) denied(e.denial);
    const why = e instanceof PolicyDenied ? e.denial.reason : isVfsError(e) ? e.description : String(e);
    if (!quiet) await err(`chmod: ${what} '${name}': ${why}\n`);
  };
  let refMode: number | undefined;
  if (reference !== undefined) {
    try {
      refMode = fs.mustStat(fs.resolve(cwd, reference)).mode;
    } catch (e) {
      await failed(e, "failed to get attributes of", reference);
      return 1;
    }
  }
  let status = 0;
  const change = async (path: string, shown: string): Promise<void> => {
    const info = fs.mustStat(path);
    const next = refMode ?? applyMode(spec!, info.mode, info.kind === "dir", umask);
    if (next === null) throw new Error("invalid mode");
    if (next !== info.mode) fs.setMode(path, next);
    const kind = info.kind === "dir" ? "d" : "-";
    if (verbose || (changes && next !== info.mode)) {
      await out(
        next === info.mode
          ? `mode of '${shown}' retained as ${octal(next)} (${kind}${modeString(next)})\n`
          : `mode of '${shown}' changed from ${octal(info.mode)} (${kind}${modeString(info.mode)}) to ${octal(next)} (${kind}${modeString(next)})\n`,
      );
    }
  };
  if (spec !== undefined && applyMode(spec, 0, false, umask) === null) {
    // GNU's quote() under the session's C.UTF-8 locale: curly quotes.
    await err(`chmod: invalid mode: \u2018${spec}\u2019\nTry 'chmod --help' for more information.\n`);
    return 1;
  }
  for (const name of operands) {
    let path: string;
    try {
      path = fs.resolve(cwd, name);
      fs.mustStat(path);
    } catch (e) {
      await failed(e, "cannot access", name);
      status = 1;
      continue;
    }
    try {
      await change(path, name);
      if (recursive && fs.stat(path)?.kind === "dir") {
        for (const node of fs.walk(path)) await change(node.path, name + node.path.slice(path.length));
      }
    } catch (e) {
      await failed(e, "changing permissions of", name);
      status = 1;
    }
  }
  return status;
};
