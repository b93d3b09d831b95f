import { z } from "zod";
import { LIMITS } from "../../limits";
import { MAX_STATUS_CHARS } from "../../policy/limits";
import { defineTool } from "../types";

const params = z.object({
  status: z.string().describe(`A concise status message (1-2 sentences). Maximum ${LIMITS.statusChars} characters; longer text is truncated.`),
});

export const setStatus = defineTool({
  name: "set_status",
  description: "Update the session's status text, shown in the session's info, to report progress.",
  params,
  readOnly: false,
  run(ctx, args) {
    const status = [...args.status].slice(0, MAX_STATUS_CHARS).join("");
    ctx.setStatus(status);
    return { success: true, output: `Status set: ${status}`, worker_id: ctx.sessionId, status, truncated: status !== args.status };
  },
});
