import { z } from "zod";
import { GLOB_MAX_RESULTS } from "../../policy/limits";
import { relativeToRoot } from "../../vfs/paths";
import { defineTool } from "../types";
import { filesInScope } from "./search-scope";

const params = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/*.rs"'),
  path: z.string().optional().describe("Root directory for the search (defaults to the working directory)"),
});

export const glob = defineTool({
  name: "glob",
  description: "Find files by glob pattern (`**` spans directories). Newest first by modification time, at most 100.",
  params,
  readOnly: true,
  run(ctx, args) {
    const root = ctx.fs.resolve(ctx.cwd, args.path ?? ".");
    // Matched against the path below the root, as shells do: "*.ts" is top level, "**/*.ts" any depth.
    const pattern = args.pattern.replace(/^\.\//, "");
    const all = filesInScope(ctx.fs, root, pattern, false).sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
    const files = all.slice(0, GLOB_MAX_RESULTS).map((f) => relativeToRoot(f.path));
    let output = files.length ? files.join("\n") : "No files found.";
    if (all.length > files.length) output += `\n\n[Showing ${files.length} of ${all.length} matches, newest first. Narrow the pattern to see the rest.]`;
    return { success: true, output, files, total: all.length, truncated: all.length > files.length };
  },
});
