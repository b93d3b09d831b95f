import { z } from "zod";
import { relativeToRoot } from "../../vfs/paths";
import { ToolError } from "../result";
import { defineTool } from "../types";

const params = z.object({
  path: z.string().describe("Absolute (inside /workspace) or workspace-relative path of the file"),
  old_string: z.string().describe("The exact text to replace; whitespace and indentation must match"),
  new_string: z.string().describe("The replacement text"),
  replace_all: z.boolean().optional().describe("Replace every occurrence (default false: the match must be unique)"),
  first_only: z.boolean().optional().describe("Replace only the first occurrence, even when there are several (default false)"),
});

/** Counts non-overlapping occurrences, as a replacement would consume them. */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

export const editFile = defineTool({
  name: "edit_file",
  description: "Replace an exact string in a file. The match must be unique unless replace_all is true; add surrounding context to old_string to make it unique.",
  params,
  readOnly: false,
  run(ctx, args) {
    const path = ctx.fs.resolve(ctx.cwd, args.path);
    const rel = relativeToRoot(path);
    if (args.old_string === "") throw new ToolError("old_string is empty; give the exact text to replace.");
    if (args.old_string === args.new_string) throw new ToolError("old_string and new_string are identical; nothing to change.");
    ctx.fs.rules.checkMutate(path, "edited");
    const text = new TextDecoder().decode(ctx.fs.readFile(path));
    const at = occurrences(text, args.old_string);
    if (at.length === 0) throw new ToolError(`old_string not found in ${rel}. Read the file and copy the text exactly, including whitespace.`);
    if (args.first_only) at.splice(1);
    else if (at.length > 1 && !args.replace_all) {
      throw new ToolError(`old_string found ${at.length} times in ${rel}; add more surrounding context to make it unique, or set replace_all to true.`);
    }
    // Splice by index: String.replace would interpret "$&" and friends in new_string.
    let out = "";
    let from = 0;
    for (const i of at) {
      out += text.slice(from, i) + args.new_string;
      from = i + args.old_string.length;
    }
    out += text.slice(from);
    ctx.fs.writeFile(path, out);
    const n = at.length;
    return { success: true, output: `Replaced ${n} occurrence${n === 1 ? "" : "s"} in ${rel}`, replacements: n };
  },
});
