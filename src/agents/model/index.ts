export { chatModel } from "./client";
export { modelConfigFromEnv, type AiBinding, type ModelConfig } from "./config";
export { generateImageBytes, imageConfigFromEnv, type ImageConfig, type ImageRequest } from "./images";
export type { ChatMessage, ChatModel, ChatReply, FunctionTool, ToolCall } from "./types";
