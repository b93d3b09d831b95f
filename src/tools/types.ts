import type { z } from "zod";
import type { NetContext } from "../net/context";
import type { Denial } from "../policy/denied";
import type { BrowserHost } from "./browser/host";
import type { OutputSink, RunShellResult } from "../shell";
import type { SessionPolicy } from "../policy/rule-sets";
import type { SubAgentHost } from "../agents/host";
import type { DeferredTools } from "../mcp/client/deferred";
import type { GuardedFs } from "../policy/guarded-fs";
import type { SentFile } from "../vfs/outbox";
import type { ToolResult } from "./result";

// The result types live in the leaf ./result, which agents and MCP code import without the tools.
export type { Json, ToolResult } from "./result";

/** What a tool sees of its session. */
/**
 * A command line run by the session's own shell (policy, programs, limits), for programs that
 * shell out (node's child_process, npm scripts); handed to host commands by the shell's runner.
 */
export type Subshell = (
  script: string,
  opts: { cwd: string; env: Record<string, string>; stdin?: Uint8Array; limits: { timeoutMs: number; maxOutputBytes: number } },
) => Promise<RunShellResult>;

export interface ToolContext {
  sessionId: string;
  fs: GuardedFs;
  /** The session's working directory (absolute, inside /workspace). */
  cwd: string;
  /** The session's environment variables (already filtered by the policy). */
  env: Record<string, string>;
  setStatus(status: string): void;
  /**
   * The Worker's bindings and operator variables, for tools that reach operator-configured
   * services (search providers). Never shown to the agent. Absent in contexts built by tests.
   */
  workerEnv?: Env;
  /** The session's outbox: `send` copies a file (absolute path, already judged by the policy) for the user. */
  outbox?: { send(path: string, caption?: string): Promise<SentFile> };
  /** The session's network door (URL policy and resolver); operator defaults when absent. */
  net?: NetContext;
  /** The session's profile's rule set; without it every command rule applies. */
  policy?: SessionPolicy;
  /** Records a policy refusal that happened deep inside a run (e.g. a WASI program's open). */
  reportDenial?(denial: Denial): void;
  /** The session's one browser (src/tools/browser/); absent in contexts built by tests. */
  browser?: BrowserHost;
  /** Set for a streamed call: the shell tools hand it their output as it is produced. */
  output?: OutputSink;
  /** The session's dispatch as sub-agents use it (delegate); absent in contexts built by tests. */
  agents?: SubAgentHost;
  /** The remote MCP servers attached to the session and their tools (tool_search); absent in contexts built by tests. */
  deferred?: DeferredTools;
  /** The session's checkpoints (src/checkpoints/); absent in contexts built by tests. */
  checkpoints?: { create(label?: string): { id: number; label: string | null; files: number; size: number } };
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /**
   * The description as one session sees it, when it depends on the session (e.g. its skills).
   * `base` replaces the tool's own opening text, for a profile that documents the tool in its words.
   */
  describe?(ctx: ToolContext, base?: string): string;
  params: S;
  /** State-changing tools run one at a time per session; read-only ones may overlap. */
  readOnly: boolean;
  run(ctx: ToolContext, args: z.infer<S>): ToolResult | Promise<ToolResult>;
}

export const defineTool = <S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> => def;
