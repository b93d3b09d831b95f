import { z } from "zod";
import { relativeToRoot } from "../../vfs/paths";
import { truncateMiddle } from "../../policy/output";
import { defineTool } from "../types";

const params = z.object({
  path: z.string().optional().describe("Directory path (defaults to the working directory)"),
});

export const listDir = defineTool({
  name: "list_dir",
  description: "List a directory: entries with name, type (file, directory) and size, directories first.",
  params,
  readOnly: true,
  run(ctx, args) {
    const path = ctx.fs.resolve(ctx.cwd, args.path ?? ".");
    const nodes = ctx.fs.readdir(path);
    const entries = nodes
      .map((n) => ({ name: n.path.slice(n.path.lastIndexOf("/") + 1), type: n.kind === "dir" ? "directory" : "file", size: n.size }))
      .sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === "directory" ? -1 : 1));
    const lines = entries.map((e) => (e.type === "directory" ? `[dir]  ${e.name}/` : `[file] ${e.name} (${e.size} bytes)`));
    const output = lines.length ? lines.join("\n") : `(empty directory: ${relativeToRoot(path)})`;
    return { success: true, output: truncateMiddle(output), path: relativeToRoot(path), entries };
  },
});
