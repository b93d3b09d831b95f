/** The chat-completions wire format (OpenAI's), the subset an agent loop needs. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface FunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: unknown };
}

/** What one model turn produced: text, tool calls, or both. */
export interface ChatReply {
  content: string | null;
  toolCalls: ToolCall[];
}

export interface ChatModel {
  complete(messages: ChatMessage[], tools: FunctionTool[]): Promise<ChatReply>;
}
