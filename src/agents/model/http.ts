import { ToolError } from "../../tools/result";

/** One POST to the operator's OpenAI-compatible provider (chat completions, image generations). */
export interface ProviderRequest {
  url: string;
  apiKey?: string;
  body: unknown;
  timeoutMs: number;
  /** Largest answer read, in bytes. */
  maxBytes: number;
  /** The variable naming the model, for a 404 ("TOOLSHED_LLM_MODEL"). */
  modelVar: string;
  /** What stops when the provider fails, ends each sentence ("the sub-agent stopped"). */
  stopped: string;
}

/** What an HTTP failure means for the agent, without the provider's body (it may echo the key). */
function statusError(status: number, retryAfter: string | null, modelVar: string): ToolError {
  if (status === 401 || status === 403) {
    return new ToolError(`The model provider refused the credentials (HTTP ${status}): the operator must check TOOLSHED_LLM_API_KEY.`);
  }
  if (status === 429) {
    const wait = retryAfter && /^\d+$/.test(retryAfter) ? ` Retry after ${retryAfter} s.` : " Retry later.";
    return new ToolError(`The model provider is rate limiting requests (HTTP 429).${wait}`);
  }
  if (status === 404) return new ToolError(`The model provider answered 404: TOOLSHED_LLM_URL or ${modelVar} is wrong.`);
  return new ToolError(`The model provider failed (HTTP ${status}); retry later.`);
}

/** Posts JSON and returns the parsed JSON answer; every failure is a ToolError an agent can read. */
export async function postJson(req: ProviderRequest): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (req.apiKey) headers["authorization"] = `Bearer ${req.apiKey}`;
  let text: string;
  try {
    const res = await fetch(req.url, { method: "POST", headers, body: JSON.stringify(req.body), signal: AbortSignal.timeout(req.timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel();
      throw statusError(res.status, res.headers.get("retry-after"), req.modelVar);
    }
    const declared = Number(res.headers.get("content-length") ?? 0);
    if (declared > req.maxBytes) {
      await res.body?.cancel();
      throw new ToolError(`The model provider's reply is too large; ${req.stopped}.`);
    }
    text = await res.text();
    if (text.length > req.maxBytes) throw new ToolError(`The model provider's reply is too large; ${req.stopped}.`);
  } catch (e) {
    if (e instanceof ToolError) throw e;
    if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
      throw new ToolError(`The model provider did not answer within ${Math.round(req.timeoutMs / 1000)} s; retry later.`);
    }
    throw new ToolError("Could not reach the model provider (network error); retry later, or ask the operator to check TOOLSHED_LLM_URL.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolError(`The model provider sent a malformed reply (not JSON); ${req.stopped}. Retry later, or ask the operator to check TOOLSHED_LLM_URL.`);
  }
}
