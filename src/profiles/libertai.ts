import { z } from "zod";
import { grouped, LIMITS } from "../limits";
import { FULL_DENY_LIST } from "../policy/rule-sets";
import { SEND_MAX_FILE_BYTES } from "../policy/limits";
import { libertaiSpawn } from "./agents";
import { defineProfileTool, route, same, shellWithTimeout, type Profile, type ProfileTool } from "./types";
import { fetchUrlTool, searchTool } from "./web";

// Texts as LibertAI's tool reference (seed 003) gives them.
const PATH = "Absolute or workspace-relative path";

const bash = shellWithTimeout({
  name: "bash",
  description: `Execute a shell command and return stdout, stderr, and exit code. Output is truncated at ${grouped(LIMITS.toolOutputChars)} characters. Every command is checked against deny patterns before execution; blocked commands return an error without being executed.`,
  command: "The bash command to execute",
  timeout: { text: "Timeout in seconds (default 60, max 300)", default: 60, max: 300 },
});

const readFile = defineProfileTool({
  name: "read_file",
  description: `Read a file and return its contents with line numbers (<line_number>\\t<content> per line). Output is truncated at ${grouped(LIMITS.toolOutputChars)} characters.`,
  params: z.object({
    path: z.string().describe(PATH),
    offset: z.number().int().min(1).optional().describe("Line number to start from (1-based)"),
    limit: z.number().int().min(1).optional().describe("Maximum number of lines to read"),
  }),
  route: (a) => route("read_file", a),
});

const writeFile = defineProfileTool({
  name: "write_file",
  description: "Write content to a file, creating parent directories as needed.",
  params: z.object({ path: z.string().describe(PATH), content: z.string().describe("The content to write") }),
  route: (a) => route("write_file", a),
});

const editFile = defineProfileTool({
  name: "edit_file",
  description: "Find and replace an exact string in a file (first occurrence only). Returns an error if old_string is not found in the file.",
  params: z.object({
    path: z.string().describe(PATH),
    old_string: z.string().describe("The exact string to find"),
    new_string: z.string().describe("The replacement string"),
  }),
  route: (a) => route("edit_file", { ...a, first_only: true }),
});

const listDir = defineProfileTool({
  name: "list_dir",
  description: "List contents of a directory with type prefixes ([dir] and [file]), sorted with directories first.",
  params: z.object({ path: z.string().optional().describe("Directory path (defaults to workspace root)") }),
  route: (a) => route("list_dir", { path: a.path ?? "/workspace" }),
});

const webFetch = fetchUrlTool({
  name: "web_fetch",
  description:
    "Fetch a URL and return its text content. HTML content is automatically stripped of tags and decoded. JSON responses are pretty-printed. Output is truncated at 50,000 characters. Requests follow up to 5 redirects and time out after 30 seconds.",
  url: "URL to fetch (http or https)",
});

const webSearch = searchTool({
  name: "web_search",
  description: "Search the web using LibertAI Search. Returns titles, URLs, and snippets. Failed engines are noted in the output.",
  query: "The search query",
  count: { text: "Number of results, 1-10 (default 5)", max: 10, default: 5 },
});

const sendFile = defineProfileTool({
  name: "send_file",
  description: `Send a file from the workspace to the user. Files are validated against the workspace boundary and sensitive file list. Maximum file size is ${SEND_MAX_FILE_BYTES / 1024 / 1024} MB.`,
  params: z.object({
    path: z.string().describe("Path to the file (relative to workspace or absolute within workspace)"),
    caption: z.string().max(1024).optional().describe("Optional caption"),
  }),
  // "Relative to workspace", as the page says, whatever the session's cwd.
  route: (a) => route("send_file", { path: a.path.startsWith("/") ? a.path : `/workspace/${a.path}`, caption: a.caption }),
});

const generateImage: ProfileTool = {
  ...same("generate_image", { description: "Generate an image from a text prompt using LibertAI's image generation API." }),
  // The page's own sentence, with the link the user's client needs.
  toResult: (r) => {
    if (!r.success) return r;
    const file = r.file as { url: string; expiresAt: string };
    return {
      ...r,
      output: `The generated image is saved to workspace/${r.path} and automatically sent to the user. Download link (valid until ${file.expiresAt}): ${file.url}`,
    };
  },
};

export const libertai: Profile = {
  name: "libertai",
  seeds: ["003"],
  tools: [bash, readFile, writeFile, editFile, listDir, webFetch, webSearch, sendFile, generateImage, libertaiSpawn],
  missing: [],
  // LibertAI's bash deny patterns include environment dumps (env, printenv, set, export -p, declare -x).
  rules: FULL_DENY_LIST,
};
