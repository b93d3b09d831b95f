/**
 * Glob patterns to regular expressions, for path globs ("src/**\/*.ts", "*.{js,ts}") as the
 * glob and grep tools and the operator's sensitive-file globs use them. `*` and `?` stay
 * within one path segment, `**` spans segments, `[...]` and `{a,b}` work as in shells.
 */
export function globToRegExp(glob: string, opts: { caseInsensitive?: boolean } = {}): RegExp {
  let re = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        i++;
        if (glob[i + 1] === "/" && atSegmentStart) {
          i++;
          re += "(?:[^/]*(?:/|$))*";
        } else {
          re += ".*";
        }
      } else {
        re += "[^/]*";
      }
    } else if (c === "?") {
      re += "[^/]";
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        re += "\\[";
      } else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      braceDepth++;
      re += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      re += ")";
    } else if (c === "," && braceDepth > 0) {
      re += "|";
    } else if (c === "\\" && i + 1 < glob.length) {
      re += escapeRegExp(glob[++i]!);
    } else {
      re += escapeRegExp(c);
    }
  }
  while (braceDepth-- > 0) re += ")";
  return new RegExp(`^${re}$`, opts.caseInsensitive ? "i" : "");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
