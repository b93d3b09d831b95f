import { z } from "zod";
import { defineTool } from "../types";
import { isProgram, sessionPrograms } from "./programs";
import { DEFAULT_TIMEOUT_SECONDS, runInSession } from "./run";
import { LIMITS } from "../../limits";

const params = z.object({
  program: z.string().min(1).describe('The program to run (e.g. "grep", "jq")'),
  args: z.array(z.string()).default([]).describe("Arguments, passed as they are (no shell parsing)"),
  working_dir: z.string().optional().describe("Working directory, inside the workspace"),
  env: z
    .array(z.object({ key: z.string(), value: z.string() }))
    .default([])
    .describe("Environment variables to set. Blocked: LD_PRELOAD, LD_LIBRARY_PATH, DYLD_*, PYTHONPATH, NODE_OPTIONS, BASH_ENV, ENV and the like"),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.shellMaxTimeoutSeconds)
    .optional()
    .describe(`Maximum time (1-${LIMITS.shellMaxTimeoutSeconds} seconds, default ${DEFAULT_TIMEOUT_SECONDS})`),
});

/** Single-quotes a word for the shell, so argv reaches the program exactly as given. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export const exec = defineTool({
  name: "exec",
  description: "Run a program with exact arguments and environment variables, without shell parsing. Sandboxed to the workspace.",
  params,
  readOnly: false,
  run(ctx, args) {
    // Quoting every word makes the shell run exactly this argv, with the same rules and limits as bash.
    const script = [args.program, ...args.args].map(quote).join(" ");
    return runInSession(
      ctx,
      sessionPrograms,
      {
        script,
        workingDir: args.working_dir,
        timeoutSeconds: args.timeout_seconds,
        env: Object.fromEntries(args.env.map((e) => [e.key, e.value])),
      },
      isProgram,
    );
  },
});
