import { z } from "zod";
import { LIMITS } from "../limits";
import { PROTECTIVE } from "../policy/rule-sets";
import { waylandDelegate, waylandSpawn } from "./agents";
import { defineProfileTool, route, same, shellWithTimeout, type Profile } from "./types";

// Texts as Wayland Core's built-in tool schemas (seed 004) give them.

const absolute = (what: string) =>
  z
    .string()
    .refine((p) => p.startsWith("/"), { message: "must be an absolute path, e.g. /workspace/src/main.rs" })
    .describe(what);

const read = defineProfileTool({
  name: "Read",
  description:
    "Read file contents with line numbers (cat -n style). Binary files are detected automatically and returned as a hex summary. Repeated reads of an unchanged file within a session are deduplicated. When offset and limit are both omitted the full file is returned, subject to the session output cap.",
  params: z.object({
    file_path: absolute("Absolute path to read."),
    offset: z.number().int().min(1).optional().describe("Line number to start reading from (1-based)."),
    limit: z.number().int().min(1).optional().describe("Maximum number of lines to return."),
  }),
  route: (a) => route("read_file", { path: a.file_path, offset: a.offset, limit: a.limit }),
});

const write = defineProfileTool({
  name: "Write",
  description: "Write content to a file atomically. Parent directories are created automatically.",
  params: z.object({
    file_path: absolute("Absolute destination path."),
    content: z.string().describe("Full file contents to write."),
  }),
  route: (a) => route("write_file", { path: a.file_path, content: a.content }),
});

const edit = defineProfileTool({
  name: "Edit",
  description:
    "Replace an exact string in a file. When replace_all is false (the default), the match must appear exactly once; a non-unique match is an error and more context is needed. Whitespace and indentation must match exactly.",
  params: z.object({
    file_path: absolute("Absolute path to the file to edit."),
    old_string: z.string().describe("The text to replace. Must match exactly."),
    new_string: z.string().describe("The replacement text."),
    replace_all: z.boolean().default(false).describe("Replace every occurrence. Default false (unique match required)."),
  }),
  route: (a) => route("edit_file", { path: a.file_path, old_string: a.old_string, new_string: a.new_string, replace_all: a.replace_all }),
});

const bash = shellWithTimeout({
  name: "Bash",
  description:
    "Run a shell command inside the sandbox. Returns exit code, stdout, and stderr. Session variables matching *_API_KEY, *_TOKEN, *_SECRET and WAYLAND_VAULT_* are scrubbed before the command starts. Network is denied by default.",
  command: "The shell command to run.",
  timeout: { text: "Timeout in seconds. Default 120, maximum 600.", default: 120, max: 600 },
});

const grep = defineProfileTool({
  name: "Grep",
  description: `Search file contents with a regular expression. Results are capped at ${LIMITS.grepLines} lines. Concurrency-safe.`,
  params: z.object({
    pattern: z.string().min(1).describe("Regular expression to search for."),
    path: z.string().optional().describe("Directory or file to search. Defaults to working directory."),
    glob: z.string().optional().describe('File glob filter, e.g. "*.rs".'),
    case_insensitive: z.boolean().default(false).describe("Case-insensitive match. Default false."),
  }),
  route: (a) => route("grep", a),
});

const glob = defineProfileTool({
  name: "Glob",
  description: `Find files by glob pattern. Results are sorted newest-first by modification time, capped at ${LIMITS.globResults} files. Concurrency-safe.`,
  params: z.object({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.rs" or "src/**/*.ts".'),
    path: z.string().optional().describe("Root directory for the search. Defaults to working directory."),
  }),
  route: (a) => route("glob", a),
});

const webFetch = defineProfileTool({
  name: "WebFetch",
  description:
    "Fetch a URL and return its content. Plain HTTP GET with readability extraction for HTML pages. SSRF-safe: private IP ranges, loopback, cloud metadata endpoints, and non-http/https schemes are rejected before the request is sent. Prefer WebFetch for read-only URL reads.",
  params: z.object({
    url: z.string().min(1).describe("Absolute http:// or https:// URL to fetch."),
    readable: z
      .boolean()
      .default(true)
      .describe("When true (default), HTML is run through a readability extractor. When false, the raw body is returned verbatim (use for JSON/plain text)."),
    timeout_ms: z.number().int().min(1).max(90_000).default(30_000).describe("Wall-clock timeout in milliseconds. Default 30000, maximum 90000."),
  }),
  route: (a) => route("web_fetch", a),
});

const toolSearch = same("tool_search", {
  name: "ToolSearch",
  description:
    "Load full schemas for deferred tools so the model can call them. MCP server tools are registered by name only (deferred); ToolSearch fetches their full parameter schemas on demand. Match is case-insensitive substring on both name and description. No exact-name syntax. No result cap: all matches are returned. Concurrency-safe.",
});

const workflow = same("workflow", {
  name: "Workflow",
  description:
    "Run an inline ForgeFlow workflow defined in RON format: Workflow(name, steps) with Agent, Pipeline and Parallel steps. A size and depth guard on the RON input is applied before parse. " +
    'Agent(name, prompt, tools: ["Read", ...], max_turns?) runs one sub-agent with exactly those tools; Pipeline([...]) passes each step\'s output to the next; Parallel([...]) runs steps side by side on the same input.',
});

export const waylandCore: Profile = {
  name: "wayland-core",
  seeds: ["004"],
  tools: [read, write, edit, bash, grep, glob, webFetch, toolSearch, waylandDelegate, waylandSpawn, workflow],
  missing: [],
  rules: { ...PROTECTIVE, scrubEnv: ["*_API_KEY", "*_TOKEN", "*_SECRET", "WAYLAND_VAULT_*"], shellNetwork: false },
  dedupReads: true,
};
