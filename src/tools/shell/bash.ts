import { z } from "zod";
import { defineTool } from "../types";
import { isProgram, sessionPrograms } from "./programs";
import { DEFAULT_TIMEOUT_SECONDS, runInSession } from "./run";
import { grouped, LIMITS } from "../../limits";

const params = z.object({
  command: z.string().min(1).describe("The bash command to execute (runs like `sh -c`)"),
  working_dir: z.string().optional().describe("Working directory, inside the workspace (default: the session's)"),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.shellMaxTimeoutSeconds)
    .optional()
    .describe(`Maximum time for the command (1-${LIMITS.shellMaxTimeoutSeconds} seconds, default ${DEFAULT_TIMEOUT_SECONDS})`),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables for this command"),
});

export const bash = defineTool({
  name: "bash",
  description: `Execute a shell command in the sandboxed workspace with a bash-compatible interpreter and WASI coreutils. Files persist between calls; shell state (variables, cwd) does not. Output is truncated at ${grouped(LIMITS.toolOutputChars)} characters.`,
  params,
  readOnly: false,
  run: (ctx, args) =>
    runInSession(
      ctx,
      sessionPrograms,
      {
        script: args.command,
        workingDir: args.working_dir,
        timeoutSeconds: args.timeout_seconds,
        env: args.env,
      },
      isProgram,
    ),
});
