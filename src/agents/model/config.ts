import { ToolError } from "../../tools/errors";

/** The Workers AI binding, as much of it as the agent loop uses. */
export interface AiBinding {
  run(model: string, input: unknown): Promise<unknown>;
}

export interface ModelConfig {
  /** Chat-completions base URL (`/chat/completions` is appended); unused when the AI binding is bound. */
  url?: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  ai?: AiBinding;
}

const DEFAULT_TIMEOUT_MS = 120_000;
/** Workers AI's default model when TOOLSHED_LLM_MODEL is unset and the binding is used. */
const DEFAULT_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** How long one provider call (chat or image) may take. */
export function providerTimeoutMs(env: Env | undefined): number {
  const timeout = Number(env?.TOOLSHED_LLM_TIMEOUT_MS);
  return Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
}

/** The operator's model settings; a clear error when none is configured. */
export function modelConfigFromEnv(env: Env | undefined): ModelConfig {
  const timeoutMs = providerTimeoutMs(env);
  if (env?.AI) return { ai: env.AI, model: env.TOOLSHED_LLM_MODEL || DEFAULT_AI_MODEL, timeoutMs };
  if (!env?.TOOLSHED_LLM_URL) {
    throw new ToolError(
      "No model is configured for sub-agents: the operator must set TOOLSHED_LLM_URL (an OpenAI-compatible chat-completions base URL) and TOOLSHED_LLM_MODEL, or bind Workers AI as AI.",
    );
  }
  if (!env.TOOLSHED_LLM_MODEL) throw new ToolError("TOOLSHED_LLM_MODEL is not set: the operator must name the model sub-agents use.");
  return { url: env.TOOLSHED_LLM_URL.replace(/\/+$/, ""), apiKey: env.TOOLSHED_LLM_API_KEY, model: env.TOOLSHED_LLM_MODEL, timeoutMs };
}
