/**
 * Environment-variable policy. Two jobs:
 *  - refuse variables that change how programs load or start (LD_PRELOAD, NODE_OPTIONS, ...)
 *    or smuggle shell functions, whenever a name enters a session's or a program's
 *    environment (API-provided env, `export`, `env NAME=v cmd`, `declare -x`);
 *  - recognise host secrets by name so they are scrubbed before a session environment is built.
 * Shell-local variables that are never exported (`IFS=, read a b`) are not environment and
 * are not the caller's business to check here.
 */
import type { Denial } from "./denied";

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface EnvRule {
  id: string;
  /** Matches the variable name. */
  test(name: string): boolean;
  reason(name: string): string;
}

const exact =
  (...names: string[]) =>
  (name: string): boolean =>
    names.includes(name);

const ENV_RULES: readonly EnvRule[] = [
  {
    id: "env-loader-hook",
    test: (n) => n.startsWith("LD_") || n.startsWith("DYLD_"),
    reason: (n) =>
      `Refused: ${n} changes how the dynamic loader finds and injects libraries. Do not set LD_* or DYLD_* variables; link or configure the program directly instead.`,
  },
  {
    id: "env-interpreter-hook",
    test: exact(
      "PYTHONPATH",
      "PYTHONSTARTUP",
      "PYTHONHOME",
      "PYTHONINSPECT",
      "PYTHONUSERBASE",
      "NODE_OPTIONS",
      "NODE_PATH",
      "RUBYOPT",
      "RUBYLIB",
      "PERL5OPT",
      "PERL5LIB",
      "PERLLIB",
      "PERL5DB",
      "JAVA_TOOL_OPTIONS",
      "_JAVA_OPTIONS",
      "JDK_JAVA_OPTIONS",
    ),
    reason: (n) =>
      `Refused: ${n} makes an interpreter load extra code or options at startup. Pass options or module paths on the command line of the one program that needs them.`,
  },
  {
    id: "env-shell-hook",
    test: exact("BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "IFS", "PROMPT_COMMAND", "BASH_XTRACEFD", "GLOBIGNORE", "CDPATH"),
    reason: (n) =>
      `Refused: ${n} changes how a shell starts or splits words and can run code in every shell started with it. Set shell options inside your script instead.`,
  },
  {
    id: "env-exported-function",
    test: (n) => n.startsWith("BASH_FUNC_") || n.endsWith("%%"),
    reason: (n) => `Refused: ${n} is an exported shell function, which runs code in every bash started with it. Define the function inside your script instead.`,
  },
];

/**
 * Whether `name` may be set in an environment. Invalid names get their own rule so the
 * agent learns the name is malformed rather than forbidden.
 */
export function checkEnvName(name: string): Denial | null {
  if (!VALID_NAME.test(name)) {
    // Show the name JSON-quoted so control characters and empty names stay visible; cap its length.
    const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    const family = ENV_RULES.find((r) => r.id === "env-exported-function")!;
    if (family.test(name)) return { rule: family.id, reason: family.reason(shown) };
    return {
      rule: "env-invalid-name",
      reason: `Refused: ${shown} is not a valid environment variable name; use letters, digits and underscores, not starting with a digit (e.g. MY_VAR).`,
    };
  }
  const rule = ENV_RULES.find((r) => r.test(name));
  return rule ? { rule: rule.id, reason: rule.reason(name) } : null;
}

/** Name and value: a value starting with `() {` is a function definition bash would import. */
export function checkEnvAssignment(name: string, value: string): Denial | null {
  const byName = checkEnvName(name);
  if (byName) return byName;
  if (/^\(\)\s*\{/.test(value)) {
    return {
      rule: "env-exported-function",
      reason: `Refused: the value of ${name} starts with '() {', the form of an exported shell function that bash would run. Store the text differently, e.g. without the leading '()'.`,
    };
  }
  if (value.includes("\0")) {
    return { rule: "env-value-nul", reason: `Refused: the value of ${name} contains a NUL byte, which environment values cannot hold. Remove it.` };
  }
  return null;
}

const SECRET_EXACT = new Set(["API_KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIALS", "PRIVATE_KEY", "ACCESS_KEY"]);
const SECRET_SUFFIX = /_(KEY|API_?KEY|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|ACCESS_KEY_ID|PRIVATE_KEY|CREDENTIALS|AUTH|PASS|SESSION_KEY)$/;

/**
 * Names that look like credentials (`*_API_KEY`, `*_TOKEN`, `*_SECRET*`, `*PASSWORD*`) or
 * belong to the platform itself (`TOOLSHED_*`). Case-insensitive: `github_token` is one too.
 */
export function isSecretLikeName(name: string): boolean {
  const n = name.toUpperCase();
  return SECRET_EXACT.has(n) || SECRET_SUFFIX.test(n) || n.includes("SECRET") || n.includes("PASSWORD") || n.includes("PASSWD") || n.startsWith("TOOLSHED_");
}

export interface FilteredEnv {
  env: Record<string, string>;
  /** Names left out and the rule that removed each (names only; values never leave here). */
  dropped: Array<{ name: string; rule: string }>;
}

/**
 * Keeps only variables that may enter a session environment: drops secret-like names
 * (rule `env-secret`) and anything `checkEnvAssignment` refuses.
 */
export function filterEnv(env: Readonly<Record<string, string>>): FilteredEnv {
  const out: Record<string, string> = {};
  const dropped: FilteredEnv["dropped"] = [];
  for (const [name, value] of Object.entries(env)) {
    const denial = isSecretLikeName(name) ? { rule: "env-secret" } : checkEnvAssignment(name, value);
    if (denial) dropped.push({ name: VALID_NAME.test(name) ? name : JSON.stringify(name), rule: denial.rule });
    else out[name] = value;
  }
  return { env: out, dropped };
}
