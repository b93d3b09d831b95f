import { z } from "zod";
import { MAX_LABEL_CHARS } from "../../checkpoints/limits";
import { defineTool } from "../types";

const params = z.object({
  label: z.string().max(MAX_LABEL_CHARS).optional().describe("A short name for this point, e.g. 'before refactor'"),
});

/**
 * Toolshed's own profile only: the agent marks a point it may want to come back to. Going back
 * (restore, undo, diff, fork) is for the people and programs driving the session (HTTP, RPC,
 * inspector), who see the whole timeline.
 */
export const checkpoint = defineTool({
  name: "checkpoint",
  description:
    "Save a checkpoint of the workspace (every file, mode, link and time) under an optional label. It costs almost nothing: file contents are shared, not copied. The session's owner can restore it, diff against it or fork a new session from it.",
  params,
  readOnly: false,
  run(ctx, args) {
    if (!ctx.checkpoints) return { success: false, error: "Checkpoints are not available in this context." };
    const c = ctx.checkpoints.create(args.label);
    const label = c.label ? ` '${c.label}'` : "";
    return {
      success: true,
      output: `Checkpoint ${c.id}${label} saved (${c.files} files and folders, ${c.size} bytes).`,
      checkpoint: c.id,
      label: c.label,
      files: c.files,
    };
  },
});
