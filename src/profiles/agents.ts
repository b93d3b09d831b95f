import { z } from "zod";
import { DEFAULT_MAX_TURNS, DEFAULT_TIMEOUT_SECONDS, defaultSubAgentTools, MAX_RUNNING_SUBAGENTS, MAX_TIMEOUT_SECONDS, MAX_TURNS } from "../agents/run";
import { defineProfileTool, route } from "./types";

// The platforms' sub-agent tools (seeds 002, 003, 004), mapped onto `spawn` (background) and
// `delegate` (synchronous). Kept apart from the profile files: each profile lists its tool here
// by one line.

/** Darix's worker tool names (002's `WorkerToolName`). */
const DARIX_WORKER_TOOLS = ["bash", "read", "write", "edit", "brave_search", "fetch_url", "spawn_worker"] as const;

/**
 * Darix's spawn_worker (002): background. "The spawner wakes when the worker finishes its run and
 * receives the worker's response in the wake message": the call returns the task id, and the
 * response arrives as a pending message on the spawner's next tool call.
 */
export const darixSpawnWorker = defineProfileTool({
  name: "spawn_worker",
  description:
    "Spawn a worker: a generic, sandboxed subagent. You provide its system prompt and pick the subset of tools it has access to (tools are the worker's permission set; pick the smallest subset it needs). The worker runs in the background; when it finishes its run you receive its response in a wake message (a pending message in the result of your next tool call).",
  params: z.object({
    systemPrompt: z.string().min(1).describe("The worker's system prompt. Brief it like a colleague: file paths, line numbers, deliverable."),
    tools: z
      .array(z.enum(DARIX_WORKER_TOOLS))
      .min(1)
      .describe("Non-empty subset of valid tool names: bash, read, write, edit, brave_search, fetch_url, spawn_worker. Unknown names throw at parse time."),
    initialMessage: z.string().min(1).describe("First user message. Without this the worker idles — nothing kicks it off."),
  }),
  canonical: "spawn",
  route: (a) =>
    route("spawn", {
      task: a.initialMessage,
      tools: a.tools,
      persona: a.systemPrompt,
      label: undefined,
      timeout: DEFAULT_TIMEOUT_SECONDS,
      max_turns: DEFAULT_MAX_TURNS,
    }),
});

/**
 * LibertAI's spawn (003): background, with the session's tools except spawn ("not available to
 * subagents"), at most 15 tool iterations.
 */
export const libertaiSpawn = defineProfileTool({
  name: "spawn",
  description: "Spawn a background subagent to work on a task asynchronously. Not available to subagents (prevents recursive spawning).",
  params: z.object({
    task: z.string().min(1).describe("Task description for the subagent"),
    label: z.string().min(1).max(200).optional().describe("Short label for the task (defaults to first 50 chars of task)"),
    persona: z.string().min(1).optional().describe("System prompt override for the subagent"),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_SECONDS)
      .default(DEFAULT_TIMEOUT_SECONDS)
      .describe(`Wall-clock timeout in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS})`),
  }),
  canonical: "spawn",
  route: (a, served) =>
    route("spawn", {
      task: a.task,
      tools: defaultSubAgentTools(served, ["spawn"]),
      label: a.label, // spawn's default is LibertAI's: the task's first 50 characters
      persona: a.persona,
      timeout: a.timeout,
      max_turns: DEFAULT_MAX_TURNS,
    }),
});

/**
 * What a Wayland sub-agent given no toolsets does not get: the tools that run sub-agents, and
 * ToolSearch (sub-agents are given no deferred tools, so it would find nothing). It gets the rest.
 */
const WAYLAND_AGENT_TOOLS = ["Delegate", "Spawn", "Workflow", "ToolSearch"];

/** Wayland's `{tasks: [...]}` parameters: 1 to 5 task objects. */
const waylandTasks = <T extends z.ZodRawShape>(fields: T) =>
  z.object({ tasks: z.array(z.object(fields)).min(1).max(MAX_RUNNING_SUBAGENTS).describe("One or more task objects.") });

/** Wayland's task objects as delegate tasks. */
const waylandRoute = (tasks: { prompt: string; toolsets?: string[]; max_turns?: number }[], served: readonly string[]) =>
  route("delegate", {
    tasks: tasks.map((t) => ({
      prompt: t.prompt,
      tools: t.toolsets ?? defaultSubAgentTools(served, WAYLAND_AGENT_TOOLS),
      max_turns: t.max_turns ?? DEFAULT_MAX_TURNS,
      timeout: DEFAULT_TIMEOUT_SECONDS,
    })),
  });

/** Wayland Core's Delegate (004): synchronous, structured JSON output per task. */
export const waylandDelegate = defineProfileTool({
  name: "Delegate",
  description:
    "Structured single-task or batch sub-agent delegation. Up to 5 tasks per call. Returns structured JSON output per task. Sub-agents share the parent's provider and config.",
  params: waylandTasks({
    prompt: z.string().min(1).describe("The task description for the sub-agent."),
    toolsets: z.array(z.string().min(1)).min(1).optional().describe("Allowlist of tool names available to this sub-agent."),
    max_turns: z.number().int().min(1).max(MAX_TURNS).default(MAX_TURNS).describe(`Turn cap for this task. Default ${MAX_TURNS}.`),
  }),
  canonical: "delegate",
  route: (a, served) => waylandRoute(a.tasks, served),
});

/**
 * Wayland Core's Spawn (004): fan-out of up to 5 sub-agents that the caller waits for (their
 * output goes to the caller), so synchronous; each gets the session's tools but the agent tools.
 * Toolshed has no registry of named agents: `agent` is refused with a clear message.
 */
export const waylandSpawn = defineProfileTool({
  name: "Spawn",
  description: "Multi-agent fan-out with registry-resolved named agents. Up to the topology cap (default 5).",
  params: waylandTasks({
    agent: z
      .string()
      .optional()
      .refine((v) => v === undefined, {
        message: "named agents are not supported: Toolshed has no agent registry; leave agent out (the sub-agent then gets the session's tools)",
      })
      .describe('Named agent from the agent registry (e.g. "debugger").'),
    prompt: z.string().min(1).describe("Task prompt."),
  }),
  canonical: "delegate",
  route: (a, served) => waylandRoute(a.tasks, served),
});
