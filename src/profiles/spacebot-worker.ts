import { z } from "zod";
import { PROTECTIVE } from "../policy/rule-sets";
import type { ToolResult } from "../tools/types";
import { defineProfileTool, route, same, type Profile } from "./types";
import { searchTool } from "./web";

// Texts as Spacebot's worker tool pages (seeds 000/001) give them.

const shell = defineProfileTool({
  name: "shell",
  description: "Execute shell commands within the sandboxed workspace environment.",
  params: z.object({
    command: z.string().min(1).describe("The shell command to execute. Runs with sh -c on Unix or cmd /C on Windows."),
    working_dir: z.string().optional().describe("Optional working directory where the command should run. Must be within the workspace boundary."),
    timeout_seconds: z.number().int().min(1).max(300).default(60).describe("Maximum time to wait for the command to complete (1-300 seconds)"),
  }),
  route: (a) => route("bash", { command: a.command, working_dir: a.working_dir, timeout_seconds: a.timeout_seconds }),
});

const ENTRY_TYPES: Record<string, string> = { file: "file", directory: "directory" };

const file = defineProfileTool({
  name: "file",
  description: "Read, write, or list files within the workspace directory. All paths are restricted to the workspace boundary.",
  params: z
    .object({
      operation: z.enum(["read", "write", "list"]).describe('The file operation: "read", "write", or "list"'),
      path: z
        .string()
        .describe("The file or directory path. Relative paths are resolved from the workspace root. Absolute paths are accepted only if they fall within the workspace."),
      content: z.string().optional().describe("Content to write to the file (required for write operation)"),
      create_dirs: z.boolean().default(true).describe("For write operations: create parent directories if they don’t exist"),
    })
    .refine((a) => a.operation !== "write" || a.content !== undefined, {
      message: 'content is required for the "write" operation; pass the full text to write',
      path: ["content"],
    }),
  // Relative paths start at the workspace root, as the page says, whatever the session's cwd.
  route: (a) => {
    const path = a.path.startsWith("/") ? a.path : `/workspace/${a.path}`;
    if (a.operation === "read") return route("read_file", { path, line_numbers: false });
    if (a.operation === "list") return route("list_dir", { path });
    return route("write_file", { path, content: a.content ?? "", create_dirs: a.create_dirs });
  },
  toResult: (r, a): ToolResult => {
    const base = { success: r.success, operation: a.operation, path: a.path, ...(r.error ? { error: r.error } : {}), ...(r.denied ? { denied: r.denied } : {}) };
    if (!r.success) return base;
    if (a.operation === "read") return { ...base, content: r.output ?? "", output: r.output };
    if (a.operation === "list") {
      const entries = (r["entries"] as Array<{ name: string; type: string; size: number }>).map((e) => ({
        name: e.name,
        entry_type: ENTRY_TYPES[e.type] ?? "other",
        size: e.size,
      }));
      return { ...base, entries, output: r.output };
    }
    return { ...base, output: r.output };
  },
});

const exec = defineProfileTool({
  name: "exec",
  description: "Run subprocesses with full control over arguments and environment variables. Sandboxed to the workspace directory.",
  params: z.object({
    program: z.string().min(1).describe("The program or binary to execute (e.g., “cargo”, “python”, “node”)"),
    args: z.array(z.string()).default([]).describe("Arguments to pass to the program (array of strings)"),
    working_dir: z.string().optional().describe("Optional working directory for the execution. Must be within the workspace."),
    env: z
      .array(z.object({ key: z.string(), value: z.string() }))
      .default([])
      .describe(
        "Environment variables to set. Each entry has key and value fields.Blocked variables (for security): LD_PRELOAD, LD_LIBRARY_PATH, DYLD_INSERT_LIBRARIES, DYLD_LIBRARY_PATH, PYTHONPATH, PYTHONSTARTUP, NODE_OPTIONS, RUBYOPT, PERL5OPT, PERL5LIB, BASH_ENV, ENV",
      ),
    timeout_seconds: z.number().int().min(1).max(300).default(60).describe("Maximum time to wait (1-300 seconds)"),
  }),
  route: (a) => route("exec", a),
});

const setStatus = defineProfileTool({
  name: "set_status",
  description: "Update your worker status to give the channel visibility into your progress. Status appears in the channel’s status block.",
  params: z.object({
    status: z.string().describe("A concise status message describing your current progress (1-2 sentences). Maximum 256 characters."),
  }),
  route: (a) => route("set_status", a),
});

// The page's own text; the session's skills are listed after it, as in the canonical tool.
const readSkill = same("read_skill", {
  description: "Read the full content of an installed skill. Useful for accessing skill instructions, examples, and bundled resources.",
});

const webSearch = searchTool({
  name: "web_search",
  description: "Search the web using Brave Search API. Returns relevant results with titles, URLs, and descriptions.",
  query: "The search query",
  count: { text: "Number of results to return (1-20)", max: 20, default: 5 },
  freshness: 'Time filter: "day", "week", "month", "year"',
  country: { text: "Country code for localized results (e.g., “us”, “uk”, “de”)", default: "us" },
});

const emailSearch = same("email_search", {
  description: "Search email messages via IMAP. Returns matching messages with headers and content.",
});

export const spacebotWorker: Profile = {
  name: "spacebot-worker",
  seeds: ["000", "001"],
  tools: [shell, file, exec, same("browser"), setStatus, readSkill, webSearch, emailSearch],
  missing: [],
  // The exec blocklist the page documents (LD_PRELOAD, ..., BASH_ENV, ENV) is src/policy/env.ts,
  // which every profile applies; env dumps are not on Spacebot's list.
  rules: PROTECTIVE,
};
