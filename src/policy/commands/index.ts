/**
 * Command policy: the shell asks `checkCommand(argv)` for every simple command after
 * expansion, right before running it (builtins, pipeline stages, substitutions, functions).
 * Only what would run is judged, so text that merely mentions a rule passes.
 */
import type { Denial } from "../denied";
import { basename, resolveContext, type CommandContext } from "./paths";
import { COMMAND_RULES, OPTIONAL_RULES, type CommandRule } from "./rules";
import { unwrap } from "./wrappers";
import { LIMITS } from "../../limits";

export { COMMAND_RULES } from "./rules";
export { WRAPPERS } from "./wrappers";
export { splitCommandLine, REDIRECT } from "./cmdline";
export { checkFunctionDefinition } from "./forkbomb";
export { isBlockDevicePath, type CommandContext } from "./paths";

// Real wrapper chains are two or three deep; past this we refuse rather than recurse forever.
const MAX_WRAPPER_DEPTH = LIMITS.wrapperDepth;

function check(argv: readonly string[], ctx: ReturnType<typeof resolveContext>, rules: readonly CommandRule[], depth: number): Denial | null {
  if (argv.length === 0) return null;
  if (depth > MAX_WRAPPER_DEPTH) {
    return {
      rule: "wrapper-depth",
      reason: `Refused: commands wrapped more than ${MAX_WRAPPER_DEPTH} levels deep (env, nice, timeout, ...) are not checked further. Run the command with fewer wrappers.`,
    };
  }
  const cmd = { name: basename(argv[0]!), args: argv.slice(1), argv };
  for (const rule of rules) {
    if (rule.matches(cmd, ctx)) return { rule: rule.id, reason: rule.reason };
  }
  for (const inner of unwrap(argv, ctx)) {
    const denial = check(inner, ctx, rules, depth + 1);
    if (denial) return denial;
  }
  return null;
}

const ALL_RULES = [...COMMAND_RULES, ...OPTIONAL_RULES];

/** The rules to apply: the session's rule set when given, else every rule of COMMAND_RULES. */
/** The rules a profile's id set selects, worked out once per set (every command asks). */
const selected = new WeakMap<ReadonlySet<string>, readonly CommandRule[]>();
function selectRules(ids?: ReadonlySet<string>): readonly CommandRule[] {
  if (!ids) return COMMAND_RULES;
  let rules = selected.get(ids);
  if (!rules) selected.set(ids, (rules = ALL_RULES.filter((r) => ids.has(r.id))));
  return rules;
}

/**
 * Returns the first rule `argv` breaks (itself or any command it wraps), or null when it may run.
 * `ctx.home` is $HOME (default /workspace); `ctx.cwd` resolves relative paths (default /workspace);
 * `ctx.rules` names the rules the session's profile enforces.
 */
export function checkCommand(argv: string[], ctx?: CommandContext): Denial | null {
  return check(argv, resolveContext(ctx), selectRules(ctx?.rules), 0);
}

/** The rules a redirection target is judged by: the same path rules as a command's operands. */
const REDIRECT_RULES = new Set(["dotenv", "proc-environ", "run-secrets", "block-device-write"]);

/**
 * Judges a redirection's target (`> .env`, `< /proc/1/environ`, `> /dev/sda`) as the shell opens
 * it: a redirect reads or writes the file as surely as `cat` or `tee` would.
 */
export function checkRedirect(target: string, ctx?: CommandContext): Denial | null {
  const rctx = resolveContext(ctx);
  const cmd = { name: "redirect", args: [target], argv: ["redirect", target] };
  for (const rule of COMMAND_RULES) {
    if (REDIRECT_RULES.has(rule.id) && rule.matches(cmd, rctx)) return { rule: rule.id, reason: rule.reason };
  }
  return null;
}
