export { chatModel } from "./client";
export { modelConfigFromEnv, type AiBinding, type ModelConfig } from "./config";
export type { ChatMessage, ChatModel, ChatReply, FunctionTool, ToolCall } from "./types";
