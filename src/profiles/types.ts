import { z } from "zod";
import type { RuleSet } from "../policy/rule-sets";
import { CANONICAL } from "../tools/registry";
import type { ToolContext, ToolResult } from "../tools/types";

export type CanonicalName = keyof typeof CANONICAL;
export type CanonicalArgs<K extends CanonicalName> = z.output<(typeof CANONICAL)[K]["params"]>;

/** Which canonical tool runs a call, with which arguments. */
export type Route = { [K in CanonicalName]: { tool: K; args: CanonicalArgs<K> } }[CanonicalName];

export const route = <K extends CanonicalName>(tool: K, args: CanonicalArgs<K>): Route => ({ tool, args }) as Route;

/**
 * One tool as a platform documents it: its name, parameters and texts, mapped onto the one
 * implementation in src/tools/ (never a copy of it).
 */
export interface ProfileTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: S;
  /** The description as one session sees it, when it depends on the session (read_skill's skills). */
  describe?(ctx: ToolContext): string;
  /**
   * The canonical call that does the work. `served`: the names of the tools the session serves
   * (for a tool whose platform gives sub-agents the session's tools without listing them).
   */
  route(args: z.output<S>, served: readonly string[]): Route;
  /** The canonical tool it runs, where a rule depends on it (which tools a sub-agent may get). */
  canonical?: CanonicalName;
  /** The canonical result in the platform's shape (default: unchanged). */
  toResult?(result: ToolResult, args: z.output<S>): ToolResult;
}

export const defineProfileTool = <S extends z.ZodType>(t: ProfileTool<S>): ProfileTool => t as unknown as ProfileTool;

export interface Profile {
  name: string;
  /** Which seed page (../shared/seeds/) documents the platform; empty for the canonical profile. */
  seeds: readonly string[];
  tools: readonly ProfileTool[];
  /** Tools the platform documents that Toolshed does not implement yet; never served. */
  missing: readonly string[];
  rules: RuleSet;
  /** `edit` of a file not read (or written) in this session is refused with a message to read it first. */
  readBeforeEdit?: boolean;
  /** A repeated read of an unchanged file (same range) answers with a short note instead of the content. */
  dedupReads?: boolean;
}

/**
 * A canonical tool served as it is (its parameters and result), optionally under another name
 * or description: a tool a platform shares with Toolshed is this one line in its profile.
 */
export function same<K extends CanonicalName>(tool: K, texts: { name?: string; description?: string } = {}): ProfileTool {
  const def = CANONICAL[tool];
  return {
    name: texts.name ?? tool,
    description: texts.description ?? def.description,
    ...(def.describe ? { describe: (ctx: ToolContext) => def.describe!(ctx, texts.description) } : {}),
    params: def.params,
    canonical: tool,
    route: (args) => route(tool, args as CanonicalArgs<K>),
  };
}

/**
 * A platform's shell tool of the common `{command, timeout}` form, mapped onto `bash`; the
 * platforms differ only in texts, default and maximum.
 */
export function shellWithTimeout(spec: { name: string; description: string; command: string; timeout: { text: string; default: number; max: number } }): ProfileTool {
  return defineProfileTool({
    name: spec.name,
    description: spec.description,
    params: z.object({
      command: z.string().min(1).describe(spec.command),
      timeout: z.number().int().min(1).max(spec.timeout.max).default(spec.timeout.default).describe(spec.timeout.text),
    }),
    route: (a) => route("bash", { command: a.command, timeout_seconds: a.timeout }),
  });
}
