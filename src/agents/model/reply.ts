import { z } from "zod";
import { ToolError } from "../../tools/result";
import type { ChatReply, ToolCall } from "./types";

const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string().min(1), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) }),
});

const completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish(), tool_calls: z.array(toolCall).nullish() }) })).min(1),
});

// Workers AI's native answer for models run through the binding without the OpenAI shape.
const workersAi = z.object({
  response: z.string().nullish(),
  tool_calls: z.array(z.object({ name: z.string().min(1), arguments: z.unknown() })).nullish(),
});

const asText = (args: string | unknown): string => (typeof args === "string" ? args : JSON.stringify(args ?? {}));

/** A provider's answer as one turn; anything else is a clear error, never a crash. */
export function parseReply(body: unknown): ChatReply {
  const openai = completion.safeParse(body);
  if (openai.success) {
    const msg = openai.data.choices[0]!.message;
    const toolCalls: ToolCall[] = (msg.tool_calls ?? []).map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.function.name, arguments: asText(c.function.arguments) },
    }));
    return { content: msg.content ?? null, toolCalls };
  }
  const native = workersAi.safeParse(body);
  if (native.success && (native.data.response != null || native.data.tool_calls)) {
    const toolCalls: ToolCall[] = (native.data.tool_calls ?? []).map((c, i) => ({
      id: `call_${i}_${crypto.randomUUID().slice(0, 8)}`,
      type: "function",
      function: { name: c.name, arguments: asText(c.arguments) },
    }));
    return { content: native.data.response ?? null, toolCalls };
  }
  throw new ToolError(
    "The model provider sent a malformed reply (no choices[0].message); the sub-agent stopped. Retry later, or ask the operator to check TOOLSHED_LLM_URL.",
  );
}
