import { z } from "zod";
import { LIMITS } from "../../limits";
import { GREP_MAX_FILE_BYTES, GREP_MAX_LINES } from "../../policy/limits";
import { truncateMiddle } from "../../policy/output";
import { relativeToRoot } from "../../vfs/paths";
import { ToolError } from "../result";
import { defineTool } from "../types";
import { filesInScope } from "./search-scope";
import { linesOf, looksBinary } from "./text";

const params = z.object({
  pattern: z.string().min(1).describe("Regular expression (JavaScript syntax) to search for"),
  path: z.string().optional().describe("File or directory to search (defaults to the working directory)"),
  glob: z.string().optional().describe('File glob filter, e.g. "*.ts" or "src/**/*.rs"'),
  case_insensitive: z.boolean().optional().describe("Case-insensitive match (default false)"),
});

export const grep = defineTool({
  name: "grep",
  description: `Search file contents with a regular expression. Prints \`path:line:text\`, at most ${LIMITS.grepLines} lines; binary and protected files are skipped.`,
  params,
  readOnly: true,
  run(ctx, args) {
    let re: RegExp;
    try {
      re = new RegExp(args.pattern, args.case_insensitive ? "i" : "");
    } catch (e) {
      throw new ToolError(`Invalid regular expression ${JSON.stringify(args.pattern)}: ${(e as Error).message}`);
    }
    const root = ctx.fs.resolve(ctx.cwd, args.path ?? ".");
    const lines: string[] = [];
    let matches = 0;
    let filesWithMatches = 0;
    const skipped: string[] = [];
    for (const file of filesInScope(ctx.fs, root, args.glob)) {
      if (ctx.fs.rules.isSensitive(file.path)) continue;
      const rel = relativeToRoot(file.path);
      if (file.size > GREP_MAX_FILE_BYTES) {
        skipped.push(`${rel} (larger than ${GREP_MAX_FILE_BYTES} bytes)`);
        continue;
      }
      if (file.size === 0 || looksBinary(ctx.fs.read(file.path, 0, 8192))) continue;
      let n = 0;
      let found = false;
      for (const line of linesOf(ctx.fs.chunks(file.path))) {
        n++;
        if (!re.test(line)) continue;
        found = true;
        matches++;
        if (lines.length < GREP_MAX_LINES) lines.push(`${rel}:${n}:${line}`);
      }
      if (found) filesWithMatches++;
    }
    let output = lines.length ? lines.join("\n") : "No matches found.";
    const truncated = matches > lines.length;
    if (truncated)
      output += `\n\n[Results capped at ${GREP_MAX_LINES} lines; ${matches - lines.length} more matching lines not shown. Narrow the pattern, path or glob.]`;
    if (skipped.length) output += `\n[Skipped: ${skipped.join(", ")}]`;
    return { success: true, output: truncateMiddle(output), matches, files: filesWithMatches, truncated };
  },
});
