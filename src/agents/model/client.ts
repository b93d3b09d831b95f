import { ToolError } from "../../tools/result";
import type { ModelConfig } from "./config";
import { postJson } from "./http";
import { parseReply } from "./reply";
import type { ChatMessage, ChatModel, ChatReply, FunctionTool } from "./types";
import { LIMITS } from "../../limits";

/** Largest provider answer read (a reply with tool calls is a few kilobytes). */
const MAX_REPLY_BYTES = LIMITS.modelReplyBytes;

/** OpenAI-compatible `POST {url}/chat/completions`, non-streaming, with tools. */
class HttpChatModel implements ChatModel {
  constructor(private readonly cfg: ModelConfig & { url: string }) {}

  async complete(messages: ChatMessage[], tools: FunctionTool[]): Promise<ChatReply> {
    const json = await postJson({
      url: `${this.cfg.url}/chat/completions`,
      apiKey: this.cfg.apiKey,
      body: { model: this.cfg.model, messages, ...(tools.length ? { tools, tool_choice: "auto" } : {}) },
      timeoutMs: this.cfg.timeoutMs,
      maxBytes: MAX_REPLY_BYTES,
      modelVar: "TOOLSHED_LLM_MODEL",
      stopped: "the sub-agent stopped",
    });
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
