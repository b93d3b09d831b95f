// The option tables of `set -o` and `shopt`, shared by the shell and its builtins.
export const SET_O = [
  "allexport",
  "braceexpand",
  "errexit",
  "errtrace",
  "functrace",
  "hashall",
  "histexpand",
  "history",
  "ignoreeof",
  "interactive-comments",
  "keyword",
  "monitor",
  "noclobber",
  "noexec",
  "noglob",
  "nolog",
  "notify",
  "nounset",
  "onecmd",
  "physical",
  "pipefail",
  "posix",
  "privileged",
  "verbose",
  "vi",
  "emacs",
  "xtrace",
];
// bash 5.2's shopt table, in its own (listing) order
export const SHOPTS = [
  "autocd",
  "assoc_expand_once",
  "cdable_vars",
  "cdspell",
  "checkhash",
  "checkjobs",
  "checkwinsize",
  "cmdhist",
  "compat31",
  "compat32",
  "compat40",
  "compat41",
  "compat42",
  "compat43",
  "compat44",
  "complete_fullquote",
  "direxpand",
  "dirspell",
  "dotglob",
  "execfail",
  "expand_aliases",
  "extdebug",
  "extglob",
  "extquote",
  "failglob",
  "force_fignore",
  "globasciiranges",
  "globskipdots",
  "globstar",
  "gnu_errfmt",
  "histappend",
  "histreedit",
  "histverify",
  "hostcomplete",
  "huponexit",
  "inherit_errexit",
  "interactive_comments",
  "lastpipe",
  "lithist",
  "localvar_inherit",
  "localvar_unset",
  "login_shell",
  "mailwarn",
  "no_empty_cmd_completion",
  "nocaseglob",
  "nocasematch",
  "noexpand_translation",
  "nullglob",
  "patsub_replacement",
  "progcomp",
  "progcomp_alias",
  "promptvars",
  "restricted_shell",
  "shift_verbose",
  "sourcepath",
  "varredir_close",
  "xpg_echo",
];
/** Shell options bash 5.2 turns on by default in a non-interactive shell. */
export const SHOPTS_ON = [
  "checkwinsize",
  "cmdhist",
  "complete_fullquote",
  "extquote",
  "force_fignore",
  "globasciiranges",
  "globskipdots",
  "hostcomplete",
  "interactive_comments",
  "patsub_replacement",
  "progcomp",
  "promptvars",
  "sourcepath",
];
/** `$-` letters in bash's order, with the `set -o` option each one stands for. */
export const FLAG_LETTERS: [string, string][] = [
  ["a", "allexport"],
  ["b", "notify"],
  ["e", "errexit"],
  ["f", "noglob"],
  ["h", "hashall"],
  ["k", "keyword"],
  ["m", "monitor"],
  ["n", "noexec"],
  ["p", "privileged"],
  ["t", "onecmd"],
  ["u", "nounset"],
  ["v", "verbose"],
  ["x", "xtrace"],
  ["B", "braceexpand"],
  ["C", "noclobber"],
  ["E", "errtrace"],
  ["H", "histexpand"],
  ["P", "physical"],
  ["T", "functrace"],
];

const LETTER_OPTS: Record<string, string> = Object.fromEntries(FLAG_LETTERS);

/** Sets a `set -o` option by name (or by its letter); false when there is none. */
export function setOption(sh: { opts: Record<string, boolean> }, name: string, on: boolean, letter = false): boolean {
  const o = letter ? LETTER_OPTS[name] : name;
  if (!o || !(o in sh.opts)) return false;
  sh.opts[o] = on;
  // the two line-editing modes exclude each other
  if (on && (o === "vi" || o === "emacs")) sh.opts[o === "vi" ? "emacs" : "vi"] = false;
  return true;
}

/** The file mode creation mask (umask), kept with the builtins' state. */
const DEFAULT_MASK = 0o022;
export function getUmask(sh: { builtinState: Map<string, unknown> }): number {
  const m = sh.builtinState.get("umask");
  return typeof m === "number" ? m : DEFAULT_MASK;
}
