import { z } from "zod";
import { relativeToRoot } from "../../vfs/paths";
import { defineTool } from "../types";

const params = z.object({
  path: z.string().describe("Absolute (inside /workspace) or workspace-relative path of the file"),
  content: z.string().describe("The full content to write"),
  create_dirs: z.boolean().optional().describe("Create missing parent directories (default true)"),
});

export const writeFile = defineTool({
  name: "write_file",
  description:
    "Write content to a file atomically (readers see the old or the new content, never half), creating parent directories as needed (unless create_dirs is false).",
  params,
  readOnly: false,
  run(ctx, args) {
    const path = ctx.fs.resolve(ctx.cwd, args.path);
    const info = ctx.fs.writeFile(path, args.content, { createParents: args.create_dirs ?? true });
    return { success: true, output: `Wrote ${info.size} bytes to ${relativeToRoot(path)}`, path: relativeToRoot(path), size: info.size };
  },
});
