import { z } from "zod";
import { LIMITS, megabytes } from "../../limits";
import { SEND_MAX_FILE_BYTES } from "../../policy/limits";
import { ToolError } from "../result";
import { defineTool } from "../types";

const params = z.object({
  path: z.string().describe("Path to the file (relative to the working directory, or absolute within /workspace)"),
  caption: z.string().max(1024).optional().describe("Optional caption shown with the file"),
});

export const sendFile = defineTool({
  name: "send_file",
  description: `Send a file from the workspace to the user. Files are checked against the workspace boundary and the sensitive-file list; at most ${megabytes(LIMITS.sendFileBytes)} MB. The result carries a download link that works without an API key until it expires.`,
  params,
  readOnly: false,
  async run(ctx, args) {
    if (!ctx.outbox) throw new ToolError("send_file is not available here: this session has no outbox.");
    const path = ctx.fs.resolve(ctx.cwd, args.path);
    ctx.fs.rules.checkRead(path); // refused whether or not it exists
    const info = ctx.fs.mustStat(path);
    if (info.kind === "dir") throw new ToolError(`${args.path}: Is a directory; send its files one by one, or pack them first (tar, zip).`);
    if (info.size > SEND_MAX_FILE_BYTES) {
      throw new ToolError(
        `${args.path} is ${info.size} bytes; send_file takes at most ${SEND_MAX_FILE_BYTES} bytes (${megabytes(LIMITS.sendFileBytes)} MB). Compress or split it first.`,
      );
    }
    const sent = await ctx.outbox.send(path, args.caption);
    const caption = sent.caption ? ` (${sent.caption})` : "";
    return {
      success: true,
      output: `Sent ${sent.path}${caption}, ${sent.size} bytes. Download link (valid until ${sent.expiresAt}): ${sent.url}`,
      file: { ...sent },
    };
  },
});
