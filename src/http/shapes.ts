/**
 * The HTTP API's request and response shapes, as zod. The router validates requests with the
 * request shapes, and src/http/openapi.ts derives the OpenAPI document from all of them (the
 * tools' parameters come from the tools' own zod definitions), so the document cannot drift
 * from what the server checks. test/http/openapi.test.ts validates real responses against the
 * document and checks at compile time that the response shapes equal the TypeScript types the
 * session object returns. Leaf file: it imports zod and the profile and format names only.
 */
import { z } from "zod";
import { PROFILE_NAMES } from "../profiles";
import { FORMATS } from "../profiles/export";

// ---- requests -------------------------------------------------------------------------------

export const CreateSessionBody = z.object({
  profile: z
    .string()
    .optional()
    .describe(`Which platform's tool set the session serves: ${PROFILE_NAMES.join(", ")}`),
  tools: z.array(z.string()).optional().describe("A subset of the profile's tools; the session never gains another"),
  cwd: z.string().optional().describe("Working directory inside /workspace (default /workspace)"),
  env: z.record(z.string(), z.string()).optional().describe("Variables every command of the session starts with"),
  url_rules: z
    .object({
      allow: z.array(z.string().min(1).max(253)).max(100).optional().describe("Host globs this session may fetch (narrows the operator's allow list)"),
      deny: z.array(z.string().min(1).max(253)).max(100).optional().describe("Host globs this session may not fetch (added to the operator's deny list)"),
    })
    .optional()
    .describe("The session's own URL rules for every network tool; they can only narrow the operator's"),
  mcp_servers: z
    .array(z.string().min(1).max(64))
    .max(20)
    .optional()
    .describe("Remote MCP servers to attach, among those the operator configured; their tools are deferred (found with tool_search)"),
});

export const ToolsQuery = z.object({
  profile: z.enum(PROFILE_NAMES).default("toolshed").describe("Whose tool set"),
  format: z
    .enum(FORMATS)
    .default("jsonschema")
    .describe("jsonschema, openai (Chat Completions function tools, strict where possible), anthropic, or mcp (tools/list entries)"),
});

export const LoginBody = z.object({ key: z.string().min(1).max(1000).describe("An API key of the tenant to inspect") });

// ---- responses ------------------------------------------------------------------------------

const Denial = z.object({
  rule: z.string().describe("The policy rule that refused, e.g. url.metadata, path-unavailable"),
  reason: z.string().describe("A sentence saying why and what to do instead"),
});

const ErrorBody = z.object({
  error: z
    .string()
    .describe(
      "A stable code: unauthorized, invalid_arguments, malformed_json, body_too_large, session_not_found, tool_not_found, task_not_found, not_found, denied, invalid_path, ENOENT, EISDIR, ...",
    ),
  message: z.string().describe("What went wrong, in words a model understands"),
  denied: Denial.optional().describe("Present when the policy refused"),
});

const isoTime = z.string().describe("ISO 8601 time");

export const SessionInfo = z.object({
  id: z.string().describe("128 random bits as 32 hex digits"),
  profile: z.string(),
  tools: z.array(z.string()).describe("The tools the session serves, for good"),
  mcpServers: z.array(z.string()).describe("Remote MCP servers attached at creation"),
  cwd: z.string(),
  status: z.string().describe("Text the agent set with set_status"),
  createdAt: isoTime,
  lastUsedAt: isoTime,
  usage: z.object({
    bytes: z.number(),
    files: z.number(),
    maxBytes: z.number(),
    maxFiles: z.number(),
    toolCalls: z.number(),
  }),
});

const SessionList = z.object({ sessions: z.array(SessionInfo).describe("Newest first") });

const SessionDeleted = z.object({ deleted: z.literal(true) });

const schemaObject = z.record(z.string(), z.unknown()).describe("JSON Schema (draft 2020-12) of the parameters");

const ExportedTool = z.union([
  z.object({ name: z.string(), description: z.string(), parameters: schemaObject }).describe("format=jsonschema"),
  z.object({ name: z.string(), description: z.string(), input_schema: schemaObject }).describe("format=anthropic"),
  z.object({ name: z.string(), description: z.string(), inputSchema: schemaObject }).describe("format=mcp"),
  z
    .object({
      type: z.literal("function"),
      function: z.object({ name: z.string(), description: z.string(), parameters: schemaObject, strict: z.boolean() }),
    })
    .describe("format=openai"),
]);

const ProfileTools = z.object({ profile: z.enum(PROFILE_NAMES), format: z.enum(FORMATS), tools: z.array(ExportedTool) });

const SessionToolList = z.object({ format: z.enum(FORMATS), tools: z.array(ExportedTool) });

export const ToolCallRecord = z.object({
  id: z.number(),
  tool: z.string(),
  started: z.number().describe("Milliseconds since the epoch"),
  durationMs: z.number(),
  outcome: z.enum(["ok", "error", "denied"]),
  denied: Denial.optional(),
  detail: z.string().optional().describe("The error, cut at 500 characters"),
  task: z.string().optional().describe("The sub-agent that made the call"),
  checkpoint: z.number().optional().describe("The checkpoint taken before the call (calls that change files)"),
});

const CallLog = z.object({ calls: z.array(ToolCallRecord).describe("Newest first") });

export const Task = z.object({
  task: z.string(),
  label: z.string(),
  status: z.enum(["running", "done", "failed", "timeout"]),
  report: z.string().nullable(),
  tools: z.array(z.string()),
  turns: z.number(),
  tool_calls: z.number(),
  created_at: isoTime,
  deadline_at: isoTime,
  finished_at: isoTime.nullable(),
});

const TaskList = z.object({ tasks: z.array(Task).describe("Newest first") });

export const SentFile = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string().describe("Where it came from, relative to /workspace"),
  size: z.number(),
  caption: z.string().optional(),
  createdAt: isoTime,
  expiresAt: isoTime,
  url: z.string().describe("The signed download link; it needs no API key"),
});

const Outbox = z.object({ files: z.array(SentFile).describe("Newest first") });

export const DirEntry = z.object({
  name: z.string(),
  path: z.string().describe("Absolute, under /workspace"),
  kind: z.string(),
  size: z.number(),
  modified: isoTime,
});

const Tree = z.object({ path: z.string(), entries: z.array(DirEntry).describe("Directories first") });

const Uploaded = z.object({ path: z.string(), size: z.number() });

const FileDeleted = z.object({ deleted: z.string().describe("The path removed") });

const Consistency = z.object({ problems: z.array(z.string()).describe("Empty when the workspace tables are sound"), pendingUploads: z.number() });

const LoggedIn = z.object({ tenant: z.string(), expiresAt: isoTime });

const LoggedOut = z.object({ loggedOut: z.literal(true) });

/** Every tool's envelope; tools add their own fields. */
const ToolResult = z.looseObject({
  success: z.boolean(),
  output: z.string().optional().describe("Text for the model, at most 30,000 characters"),
  error: z.string().optional().describe("What went wrong and what to do"),
  denied: Denial.optional().describe("Present exactly when the policy refused the call"),
  pending_messages: z.array(Task).optional().describe("Background tasks of this caller that finished since its last call, delivered once"),
});

/** bash and exec. */
const ShellResult = ToolResult.extend({
  exit_code: z.number(),
  stdout: z.string(),
  stderr: z.string(),
  summary: z.string(),
  duration_ms: z.number(),
  limit: z.string().optional().describe("Which limit ended the run (timeout, steps, output, memory, ...)"),
});

const Checkpoint = z.object({
  id: z.number(),
  label: z.string().nullable(),
  created_at: isoTime,
  kind: z.enum(["manual", "auto", "restore"]),
  files: z.number().describe("Files, directories and links in its tree"),
  size: z.number().describe("Logical size of its files"),
  bytes: z.number().describe("Stored bytes only this checkpoint holds: what deleting it frees"),
});

const CheckpointList = z.looseObject({
  checkpoints: z.array(Checkpoint).describe("Newest first"),
  history: z.looseObject({ bytes: z.number(), max_bytes: z.number().nullable(), freed_bytes: z.number() }),
});

const CheckpointDeleted = z.object({ deleted: z.number(), freed_bytes: z.number() });

const Restored = z.looseObject({
  restored: z.number().nullable().describe("The checkpoint the workspace (or the paths) went back to"),
  changed: z.number(),
  undo: Checkpoint.nullable().describe("The checkpoint taken first: restore it to undo this"),
});

const WorkspaceDiff = z
  .looseObject({ from: z.number(), to: z.union([z.number(), z.literal("now")]) })
  .describe("Changed paths and a unified diff as `git diff --no-index` prints it");

const Forked = SessionInfo.extend({ forked_from: z.object({ session: z.string(), checkpoint: z.number() }) });

/** Named shapes, as they appear in the OpenAPI document's components. */
export const COMPONENTS = {
  Denial,
  Error: ErrorBody,
  SessionInfo,
  SessionList,
  SessionDeleted,
  ExportedTool,
  ProfileTools,
  SessionToolList,
  ToolCallRecord,
  CallLog,
  Task,
  TaskList,
  SentFile,
  Outbox,
  DirEntry,
  Tree,
  Uploaded,
  FileDeleted,
  Consistency,
  LoggedIn,
  LoggedOut,
  ToolResult,
  ShellResult,
  Checkpoint,
  CheckpointList,
  CheckpointDeleted,
  Restored,
  WorkspaceDiff,
  Forked,
} as const;

export type ComponentName = keyof typeof COMPONENTS;
