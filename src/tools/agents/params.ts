import { z } from "zod";
import { DEFAULT_MAX_TURNS, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MAX_TURNS } from "../../agents/run";

/** Parameters delegate and spawn share. */
export const subAgentTools = z.array(z.string().min(1)).min(1).describe("Names of this session's tools the sub-agent may use (exactly these).");

export const maxTurns = z
  .number()
  .int()
  .min(1)
  .max(MAX_TURNS)
  .default(DEFAULT_MAX_TURNS)
  .describe(`Most model turns the sub-agent gets (default ${DEFAULT_MAX_TURNS}, at most ${MAX_TURNS}).`);

export const timeoutSeconds = z
  .number()
  .int()
  .min(1)
  .max(MAX_TIMEOUT_SECONDS)
  .default(DEFAULT_TIMEOUT_SECONDS)
  .describe(`Wall-clock timeout of the sub-agent in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}).`);
