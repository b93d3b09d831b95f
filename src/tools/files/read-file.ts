import { z } from "zod";
import { grouped, LIMITS } from "../../limits";
import { MAX_OUTPUT_CHARS, truncateMiddle } from "../../policy/output";
import { defineTool } from "../types";
import { formatLineNumber, hexSummary, linesOf, looksBinary } from "./text";

const params = z.object({
  path: z.string().describe("Absolute (inside /workspace) or workspace-relative path of the file"),
  offset: z.number().int().min(1).optional().describe("Line number to start reading from (1-based)"),
  limit: z.number().int().min(1).optional().describe("Maximum number of lines to read"),
  line_numbers: z.boolean().optional().describe("Prefix each line with its number, cat -n style (default true)"),
});

export const readFile = defineTool({
  name: "read_file",
  description: `Read a file and return its contents with line numbers (cat -n style: \`<n>\\t<line>\`). Use offset and limit for large files. Binary files are shown as a hex summary. Output is capped at ${grouped(LIMITS.toolOutputChars)} characters.`,
  params,
  readOnly: true,
  run(ctx, args) {
    const path = ctx.fs.resolve(ctx.cwd, args.path);
    ctx.fs.rules.checkRead(path); // refused whether or not it exists
    const info = ctx.fs.mustStat(path);
    if (info.kind === "dir") return { success: false, error: `${args.path}: Is a directory; use list_dir to see its entries.` };
    const head = ctx.fs.read(path, 0, 8192);
    if (looksBinary(head)) return { success: true, output: hexSummary(head, info.size), binary: true, size: info.size };

    const first = args.offset ?? 1;
    const last = args.limit === undefined ? Infinity : first + args.limit - 1;
    // Keep the head and a rolling tail so a huge file never sits whole in memory.
    const headLines: string[] = [];
    let headChars = 0;
    const tailLines: string[] = [];
    let tailChars = 0;
    let omitted = 0;
    let n = 0;
    for (const line of linesOf(ctx.fs.chunks(path))) {
      n++;
      if (n < first) continue;
      if (n > last) break;
      const text = args.line_numbers === false ? line : formatLineNumber(n, line);
      if (headChars < MAX_OUTPUT_CHARS) {
        headLines.push(text);
        headChars += text.length + 1;
        continue;
      }
      tailLines.push(text);
      tailChars += text.length + 1;
      while (tailChars > MAX_OUTPUT_CHARS && tailLines.length > 1) {
        tailChars -= tailLines.shift()!.length + 1;
        omitted++;
      }
    }
    if (n < first && info.size > 0) {
      return { success: false, error: `offset ${first} is past the end of the file (${n} lines).` };
    }
    const omittedNote = omitted > 0 ? [`... [${omitted} lines omitted] ...`] : [];
    const output = truncateMiddle([...headLines, ...omittedNote, ...tailLines].join("\n"));
    return { success: true, output, size: info.size };
  },
});
