import { ToolError } from "../../tools/result";
import { LIMITS } from "../../limits";

/** The Workers AI binding, as much of it as the agent loop uses. */
interface AiBinding {
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

const DEFAULT_TIMEOUT_MS = LIMITS.modelTimeoutMs;
/** Workers AI's default model when TOOLSHED_LLM_MODEL is unset and the binding is used. */
const DEFAULT_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** How long one provider call (chat or image) may take. */
function providerTimeoutMs(env: Env | undefined): number {
  const timeout = Number(env?.TOOLSHED_LLM_TIMEOUT_MS);
  return Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
}

/** What differs between the chat and the image provider settings. */
interface ProviderSettings {
  /** The model the operator named for this use, and the variable that names it. */
  model: string | undefined;
  modelVar: string;
  /** The Workers AI model when `AI` is bound and none is named. */
  defaultAiModel: string;
  /** The sentence that opens the error when nothing is configured. */
  unconfigured: string;
}

/**
 * The operator's provider settings for one use (chat or images): the `AI` binding when bound,
 * else `TOOLSHED_LLM_URL` with its key and the named model; a clear error when missing.
 */
export function providerConfig(env: Env | undefined, use: ProviderSettings): ModelConfig {
  const timeoutMs = providerTimeoutMs(env);
  if (env?.AI) return { ai: env.AI, model: use.model || use.defaultAiModel, timeoutMs };
  if (!env?.TOOLSHED_LLM_URL) {
    throw new ToolError(`${use.unconfigured}: the operator must set TOOLSHED_LLM_URL (an OpenAI-compatible base URL) and ${use.modelVar}, or bind Workers AI as AI.`);
  }
  if (!use.model) throw new ToolError(`${use.modelVar} is not set: the operator must name the model to use.`);
  return { url: env.TOOLSHED_LLM_URL.replace(/\/+$/, ""), apiKey: env.TOOLSHED_LLM_API_KEY, model: use.model, timeoutMs };
}

/** The operator's model settings for sub-agents. */
export function modelConfigFromEnv(env: Env | undefined): ModelConfig {
  return providerConfig(env, {
    model: env?.TOOLSHED_LLM_MODEL,
    modelVar: "TOOLSHED_LLM_MODEL",
    defaultAiModel: DEFAULT_AI_MODEL,
    unconfigured: "No model is configured for sub-agents",
  });
}
