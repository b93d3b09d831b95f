export { chatModel } from "./client";
export { modelConfigFromEnv } from "./config";
export { generateImageBytes, imageConfigFromEnv } from "./images";
export type { ChatMessage, ChatModel, FunctionTool, ToolCall } from "./types";
