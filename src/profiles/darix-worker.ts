import { z } from "zod";
import { PROTECTIVE } from "../policy/rule-sets";
import { darixSpawnWorker } from "./agents";
import { defineProfileTool, route, shellWithTimeout, type Profile } from "./types";
import { fetchUrlTool, searchTool } from "./web";

// Darix's worker page (seed 002) names the seven primitives but documents only spawn_worker's
// parameters; the file, shell, search and fetch tools take the conventional names below, and
// answer with the canonical results (the page gives no result shapes either).

const bash = shellWithTimeout({
  name: "bash",
  description: "Run a bash command in the worker's working directory and return its exit code, stdout and stderr.",
  command: "The bash command to run",
  timeout: { text: "Timeout in seconds (default 60, max 300)", default: 60, max: 300 },
});

const read = defineProfileTool({
  name: "read",
  description: "Read a file with line numbers. A file must be read before it can be edited.",
  params: z.object({
    path: z.string().describe("Path of the file, relative to the working directory or absolute"),
    offset: z.number().int().min(1).optional().describe("Line number to start from (1-based)"),
    limit: z.number().int().min(1).optional().describe("Maximum number of lines to read"),
  }),
  route: (a) => route("read_file", a),
});

const write = defineProfileTool({
  name: "write",
  description: "Write a file (creating parent directories), replacing any previous content.",
  params: z.object({
    path: z.string().describe("Path of the file, relative to the working directory or absolute"),
    content: z.string().describe("The full content to write"),
  }),
  route: (a) => route("write_file", a),
});

const edit = defineProfileTool({
  name: "edit",
  description: "Replace an exact, unique string in a file. The file must have been read (with read) in this run first; otherwise the edit is refused.",
  params: z.object({
    path: z.string().describe("Path of the file, relative to the working directory or absolute"),
    old_string: z.string().describe("The exact text to replace; it must occur once"),
    new_string: z.string().describe("The replacement text"),
  }),
  route: (a) => route("edit_file", a),
});

const braveSearch = searchTool({
  name: "brave_search",
  description: "Search the web. Returns results with title, url, description and, when known, published_time; engines that failed are named in the output.",
  query: "The search query",
  count: { text: "Number of results to return (1-20, default 5)", max: 20, default: 5 },
});

const fetchUrl = fetchUrlTool({
  name: "fetch_url",
  description: "Fetch an http(s) URL and return its content: HTML as readable Markdown, JSON pretty-printed, text as is. Output is truncated at 50,000 characters.",
  url: "The http:// or https:// URL to fetch",
});

export const darixWorker: Profile = {
  name: "darix-worker",
  seeds: ["002"],
  tools: [bash, read, write, edit, braveSearch, fetchUrl, darixSpawnWorker],
  missing: [],
  rules: PROTECTIVE,
  readBeforeEdit: true,
};
