/**
 * Whether a sed command line may use GNU's `e` command or `s///e` flag, which run commands
 * through the session (/dev/toolshed, see src/tools/shell/program-host.ts). Only those runs get
 * the device: a run that can wait for the session takes its own pooled instance of the toolbox
 * and a JSPI entry, a cost every other sed would pay for nothing.
 *
 * It errs towards yes: an `e` standing alone (after an address, `;`, `!`, a regex's closing
 * delimiter, or among s flags such as `/ge`), or a script file (`-f`) it cannot see. A sed
 * refused the device by a miss (a letter as delimiter: `sxaxbxe`) still says what to do
 * instead: pipe the commands to bash.
 */
export function sedMayExecute(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") continue;
    if (arg.startsWith("--")) {
      if (arg.startsWith("--file")) return true;
      if (arg.startsWith("--expression=") && standsAlone(arg.slice("--expression=".length))) return true;
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      // A cluster such as -nf or -ne; a script attached to -e (-es/x/y/e) follows the e.
      const cluster = /^-[nEsrzub]*(.)?(.*)$/s.exec(arg);
      if (cluster?.[1] === "f") return true;
      if (cluster?.[1] === "e" && standsAlone(cluster[2] ?? "")) return true;
      continue;
    }
    if (standsAlone(arg)) return true;
  }
  return false;
}

/** An `e` not inside a word: after a non-letter, among s flags (g p i I m M, digits, a last w). */
const standsAlone = (script: string): boolean => /(?:^|[^A-Za-z])[gpiImM0-9]*e[gpiImM0-9]*(?:w|(?![A-Za-z]))/.test(script);
