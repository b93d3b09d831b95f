/**
 * Which rules a session enforces, as data each profile names (src/profiles/). The rules
 * themselves live in commands/ and env.ts; a rule set only picks among them, so a profile
 * can document its platform's rules without any check moving into a tool.
 */
import { COMMAND_RULES } from "./commands";
import { globToRegExp } from "../lib/glob";

export interface RuleSet {
  /** Command rules enforced (ids from COMMAND_RULES and OPTIONAL_RULES). */
  commandRules: readonly string[];
  /** Session variables whose names match one of these globs never reach a command. */
  scrubEnv: readonly string[];
  /** Whether shell commands may open network connections; off adds the `shell-network` rule. */
  shellNetwork: boolean;
}

const ALL_COMMAND_RULES = COMMAND_RULES.map((r) => r.id);

/**
 * Rules that judge a command's form rather than its effect, kept only where a platform documents
 * them: an environment dump protects nothing here (a session's environment holds no host
 * secret), and `dd if=` is harmless when neither side is a device (`dd if=/dev/zero of=f`
 * makes a test file); `block-device-write` still refuses a disk on either side.
 */
const FORM_ONLY_RULES = new Set(["env-dump", "dd-if"]);

/** The rules that protect something (the machine, the workspace boundary, secret files). */
export const PROTECTIVE: RuleSet = {
  commandRules: ALL_COMMAND_RULES.filter((id) => !FORM_ONLY_RULES.has(id)),
  scrubEnv: [],
  shellNetwork: true,
};

/** Every command rule, environment dumps and `dd if=` included (LibertAI's documented deny list). */
export const FULL_DENY_LIST: RuleSet = { ...PROTECTIVE, commandRules: ALL_COMMAND_RULES };

/** What the operator can change for every session (wrangler vars). */
export interface OperatorRules {
  /** Comma-separated rule ids added to every profile's set (e.g. `env-dump`). */
  TOOLSHED_EXTRA_RULES?: string;
  /** `1` lets the shell reach the network in profiles that turn it off. */
  TOOLSHED_SHELL_NETWORK?: string;
}

/** A rule set made concrete for one session. */
export interface SessionPolicy {
  commandRules: ReadonlySet<string>;
  /** The session's variables without the scrubbed names. */
  scrub(env: Readonly<Record<string, string>>): Record<string, string>;
}

export function sessionPolicy(set: RuleSet, operator: OperatorRules = {}): SessionPolicy {
  const ids = new Set(set.commandRules);
  for (const id of (operator.TOOLSHED_EXTRA_RULES ?? "").split(",")) if (id.trim()) ids.add(id.trim());
  if (!set.shellNetwork && operator.TOOLSHED_SHELL_NETWORK !== "1") ids.add("shell-network");
  const scrubbed = set.scrubEnv.map((g) => globToRegExp(g, { caseInsensitive: true }));
  return {
    commandRules: ids,
    scrub: (env) => Object.fromEntries(Object.entries(env).filter(([name]) => !scrubbed.some((re) => re.test(name)))),
  };
}
