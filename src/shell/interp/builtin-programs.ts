/** Builtins Debian also has as programs in /usr/bin (coreutils' `[`, test, echo, printf, true,
 * false, pwd; procps' kill): where no program of the name runs here, the builtin stands in for the
 * file, so `xargs test -d`, `env pwd`, `find -exec test ...` and `/usr/bin/[` run as on Debian. */
export const BUILTIN_PROGRAMS: ReadonlySet<string> = new Set(["[", "test", "echo", "printf", "true", "false", "pwd", "kill"]);
