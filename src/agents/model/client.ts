import { ToolError } from "../../tools/errors";
import type { ModelConfig } from "./config";
import { parseReply } from "./reply";
import type { ChatMessage, ChatModel, ChatReply, FunctionTool } from "./types";

/** Largest provider answer read (a reply with tool calls is a few kilobytes). */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** What an HTTP failure means for the agent, without the provider's body (it may echo the key). */
function statusError(status: number, retryAfter: string | null): ToolError {
  if (status === 401 || status === 403) {
    return new ToolError(`The model provider refused the credentials (HTTP ${status}): the operator must check TOOLSHED_LLM_API_KEY.`);
  }
  if (status === 429) {
    const wait = retryAfter && /^\d+$/.test(retryAfter) ? ` Retry after ${retryAfter} s.` : " Retry later.";
    return new ToolError(`The model provider is rate limiting requests (HTTP 429).${wait}`);
  }
  if (status === 404) return new ToolError("The model provider answered 404: TOOLSHED_LLM_URL or TOOLSHED_LLM_MODEL is wrong.");
  return new ToolError(`The model provider failed (HTTP ${status}); retry later.`);
}

/** OpenAI-compatible `POST {url}/chat/completions`, non-streaming, with tools. */
class HttpChatModel implements ChatModel {
  constructor(private readonly cfg: ModelConfig & { url: string }) {}

  async complete(messages: ChatMessage[], tools: FunctionTool[]): Promise<ChatReply> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.cfg.apiKey) headers["authorization"] = `Bearer ${this.cfg.apiKey}`;
    const body = JSON.stringify({ model: this.cfg.model, messages, ...(tools.length ? { tools, tool_choice: "auto" } : {}) });
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.cfg.url}/chat/completions`, { method: "POST", headers, body, signal: AbortSignal.timeout(this.cfg.timeoutMs) });
      if (!res.ok) {
        await res.body?.cancel();
        throw statusError(res.status, res.headers.get("retry-after"));
      }
      const declared = Number(res.headers.get("content-length") ?? 0);
      if (declared > MAX_REPLY_BYTES) {
        await res.body?.cancel();
        throw new ToolError("The model provider's reply is too large; the sub-agent stopped.");
      }
      text = await res.text();
    } catch (e) {
      if (e instanceof ToolError) throw e;
      if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
        throw new ToolError(`The model provider did not answer within ${Math.round(this.cfg.timeoutMs / 1000)} s; retry later.`);
      }
      throw new ToolError("Could not reach the model provider (network error); retry later, or ask the operator to check TOOLSHED_LLM_URL.");
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ToolError("The model provider sent a malformed reply (not JSON); the sub-agent stopped. Retry later, or ask the operator to check TOOLSHED_LLM_URL.");
    }
    return parseReply(json);
  }
}

/** Workers AI through its binding: `env.AI.run(model, {messages, tools})`. */
class WorkersAiModel implements ChatModel {
  constructor(private readonly cfg: ModelConfig & { ai: NonNullable<ModelConfig["ai"]> }) {}

  async complete(messages: ChatMessage[], tools: FunctionTool[]): Promise<ChatReply> {
    let out: unknown;
    try {
      out = await this.cfg.ai.run(this.cfg.model, { messages, ...(tools.length ? { tools } : {}) });
    } catch (e) {
      const msg = e instanceof Error ? e.message : "";
      if (/429|rate/i.test(msg)) throw new ToolError("Workers AI is rate limiting requests; retry later.");
      throw new ToolError(`Workers AI failed to run ${this.cfg.model}; check TOOLSHED_LLM_MODEL names a model that supports tool calling.`);
    }
    return parseReply(out);
  }
}

export function chatModel(cfg: ModelConfig): ChatModel {
  if (cfg.ai) return new WorkersAiModel({ ...cfg, ai: cfg.ai });
  return new HttpChatModel({ ...cfg, url: cfg.url! });
}
