import { z } from "zod";
import { ToolError } from "../../tools/result";
import { providerConfig, type ModelConfig } from "./config";
import { postJson } from "./http";
import { LIMITS } from "../../limits";

/** The image provider's settings: the chat model's shape (`/images/generations` is appended to `url`). */
export type ImageConfig = ModelConfig;

export interface ImageRequest {
  prompt: string;
  width: number;
  height: number;
  steps: number;
}

/** Workers AI's default image model when TOOLSHED_IMAGE_MODEL is unset and the binding is used. */
const DEFAULT_AI_IMAGE_MODEL = "@cf/black-forest-labs/flux-1-schnell";
/** Largest provider answer read: a 1024x1024 PNG, base64-encoded, with room to spare. */
const MAX_IMAGE_REPLY_BYTES = LIMITS.imageReplyBytes;
const STOPPED = "no image was made";

/** The operator's image settings (same base URL and key as the chat model); a clear error when none. */
export function imageConfigFromEnv(env: Env | undefined): ImageConfig {
  return providerConfig(env, {
    model: env?.TOOLSHED_IMAGE_MODEL,
    modelVar: "TOOLSHED_IMAGE_MODEL",
    defaultAiModel: DEFAULT_AI_IMAGE_MODEL,
    unconfigured: "Image generation is not configured",
  });
}

const malformed = (what: string) =>
  new ToolError(`The model provider sent a malformed image reply (${what}); ${STOPPED}. Retry later, or ask the operator to check TOOLSHED_IMAGE_MODEL.`);

function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/^data:[^,]*,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length === 0) throw malformed("the image is not base64");
  const bin = atob(clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const openAiImages = z.object({ data: z.array(z.object({ b64_json: z.string() })).min(1) });
const workersAiImage = z.object({ image: z.string() });

/** Workers AI answers with `{image: base64}` (FLUX) or the bytes themselves (Stable Diffusion models). */
async function bytesOfAiAnswer(out: unknown): Promise<Uint8Array> {
  const b64 = workersAiImage.safeParse(out);
  if (b64.success) return fromBase64(b64.data.image);
  if (out instanceof Uint8Array) return out;
  if (out instanceof ArrayBuffer) return new Uint8Array(out);
  if (out instanceof ReadableStream) return new Uint8Array(await new Response(out).arrayBuffer());
  throw malformed("no image in the answer");
}

/** Asks the provider for one image; returns its bytes as sent (PNG or another format, checked by the caller). */
export async function generateImageBytes(cfg: ImageConfig, req: ImageRequest): Promise<Uint8Array> {
  if (cfg.ai) {
    let out: unknown;
    try {
      out = await cfg.ai.run(cfg.model, { prompt: req.prompt, steps: req.steps, width: req.width, height: req.height });
    } catch (e) {
      const msg = e instanceof Error ? e.message : "";
      if (/429|rate/i.test(msg)) throw new ToolError("Workers AI is rate limiting requests; retry later.");
      throw new ToolError(`Workers AI failed to run ${cfg.model}; check TOOLSHED_IMAGE_MODEL names a text-to-image model.`);
    }
    return bytesOfAiAnswer(out);
  }
  const json = await postJson({
    url: `${cfg.url}/images/generations`,
    apiKey: cfg.apiKey,
    // `steps` is not in OpenAI's own API; OpenAI-compatible image servers (diffusion models) read it.
    body: { model: cfg.model, prompt: req.prompt, n: 1, size: `${req.width}x${req.height}`, response_format: "b64_json", steps: req.steps },
    timeoutMs: cfg.timeoutMs,
    maxBytes: MAX_IMAGE_REPLY_BYTES,
    modelVar: "TOOLSHED_IMAGE_MODEL",
    stopped: STOPPED,
  });
  const parsed = openAiImages.safeParse(json);
  if (!parsed.success) throw malformed("no data[0].b64_json");
  return fromBase64(parsed.data.data[0]!.b64_json);
}
