/**
 * WASI programs start in "/" (wasi-libc's initial working directory); the session's cwd reaches
 * them only as $PWD. The toolbox changes to $PWD itself; CPython and the SQLite shell do not, so
 * their command lines are adapted here: Python's script operand is made absolute (CPython makes
 * it absolute before anything runs, and the sitecustomize in stdlib-fs.ts changes to $PWD after),
 * and the SQLite shell gets its database operand absolute and a first `.cd` to the cwd.
 */

const join = (cwd: string, p: string) => (p.startsWith("/") ? p : `${cwd.replace(/\/$/, "")}/${p}`);

/** CPython options that take the next argument (when nothing follows them in the same word). */
const PY_WITH_ARG = new Set(["W", "X"]);

/** `args` are the arguments after argv[0]. */
export function pythonArgs(args: string[], cwd: string): string[] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      if (i + 1 < args.length && args[i + 1] !== "-") return [...args.slice(0, i + 1), join(cwd, args[i + 1]!), ...args.slice(i + 2)];
      return args;
    }
    if (a === "-" || !a.startsWith("-")) {
      if (a === "-") return args;
      return [...args.slice(0, i), join(cwd, a), ...args.slice(i + 1)];
    }
    if (a.startsWith("--")) continue; // --version, --help, --check-hash-based-pycs=... (takes "=")
    for (let k = 1; k < a.length; k++) {
      const ch = a[k]!;
      if (ch === "c" || ch === "m") return args; // the rest is the command or the module's
      if (PY_WITH_ARG.has(ch)) {
        if (k === a.length - 1) i++;
        break;
      }
    }
  }
  return args;
}

/** SQLite shell options that take the next argument. */
const SQLITE_WITH_ARG = new Set(["-cmd", "-init", "-separator", "-newline", "-nullvalue", "-vfs", "-mmap", "-maxsize", "-pagecache", "-lookaside", "-heap"]);

const sqlQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export function sqliteArgs(args: string[], cwd: string): string[] {
  const out = ["-cmd", `.cd ${sqlQuote(cwd)}`];
  let dbSeen = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const opt = a.startsWith("--") ? a.slice(1) : a;
    if (!dbSeen && opt.startsWith("-") && opt.length > 1) {
      out.push(a);
      if (SQLITE_WITH_ARG.has(opt) && i + 1 < args.length) out.push(args[++i]!);
      continue;
    }
    if (!dbSeen) {
      dbSeen = true;
      // ":memory:", "" (a temporary database) and URIs stay as they are.
      out.push(a === "" || a === ":memory:" || a.startsWith("file:") ? a : join(cwd, a));
      continue;
    }
    out.push(a);
  }
  return out;
}
