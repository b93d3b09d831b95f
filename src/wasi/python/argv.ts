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

/**
 * What CPython's core start (scripts/python/snapshot-entry.c, before the main phase) reads
 * besides PYTHON* variables: the locale, which sets the C locale and its coercion to C.UTF-8.
 */
const CORE_LOCALE_VARS = ["LC_ALL", "LC_CTYPE", "LANG"] as const;

/**
 * What the kept interpreter's initialization may see of a python run's environment (`args` after
 * argv[0], adapted): its locale variables, and nothing else of the session; null when its start
 * must be Debian's own: an interpreter option (-I, -E, -S, -X, -u, -O, ...) or a PYTHON* variable
 * can change the core start itself, and --version/--help print before it. What remains is a
 * script, `-c CMD`, `-m MOD`, `-` or no argument (the script on stdin), each with their
 * arguments, which reach the interpreter only in the main phase.
 */
export function pythonSnapshotEnv(args: readonly string[], env: Readonly<Record<string, string>>): string[] | null {
  if (Object.keys(env).some((k) => k.startsWith("PYTHON"))) return null;
  const first = args[0];
  if (first !== undefined && first !== "-" && first.startsWith("-") && !((first === "-c" || first === "-m") && args.length > 1)) return null;
  return CORE_LOCALE_VARS.filter((k) => env[k] !== undefined).map((k) => `${k}=${env[k]}`);
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
