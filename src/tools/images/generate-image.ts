import { z } from "zod";
import { generateImageBytes, imageConfigFromEnv } from "../../agents/model";
import { ToolError } from "../result";
import { defineTool } from "../types";
import { asPng } from "./png";
import { LIMITS } from "../../limits";

/** Where generated images go, whatever the session's working directory. */
const IMAGES_DIR = "/workspace/images";
const MAX_SIDE = LIMITS.imageSide;

/** `WxH`, each side a multiple of 16 from 16 to 1024; the message says what to send instead. */
const imageSize = z
  .string()
  .default("1024x1024")
  .transform((s, ctx) => {
    const m = /^(\d{1,5})x(\d{1,5})$/.exec(s.trim());
    const [w, h] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
    const ok = (n: number) => Number.isInteger(n) && n >= 16 && n <= MAX_SIDE && n % 16 === 0;
    if (!ok(w) || !ok(h)) {
      ctx.addIssue({
        code: "custom",
        message: `size '${s}' is not allowed: give "WxH" with each side a multiple of 16 between 16 and ${MAX_SIDE}, e.g. "1024x1024" or "768x512"`,
      });
      return z.NEVER;
    }
    return { width: w, height: h };
  });

export const generateImage = defineTool({
  name: "generate_image",
  description: "Generate an image from a text prompt. The PNG is saved to /workspace/images/<uuid>.png and sent to the user (the result carries its download link).",
  params: z.object({
    prompt: z.string().min(1).max(4000).describe("Text description of the image"),
    size: imageSize.describe('Dimensions as "WxH" (default "1024x1024", max 1024 per side, multiples of 16)'),
    steps: z.number().int().min(1).max(50).default(8).describe("Generation steps (default 8 for speed, use 14 for higher quality or text readability)"),
  }),
  // Its one write (the PNG, then the outbox entry) is synchronous and cannot interleave with
  // another call; the slow provider call must not hold the session's write queue.
  readOnly: true,
  async run(ctx, { prompt, size, steps }) {
    if (!ctx.outbox) throw new ToolError("generate_image is not available here: this session has no outbox.");
    const cfg = imageConfigFromEnv(ctx.workerEnv);
    const png = asPng(await generateImageBytes(cfg, { prompt, width: size.width, height: size.height, steps }));
    const path = `${IMAGES_DIR}/${crypto.randomUUID()}.png`;
    ctx.fs.writeFile(path, png.bytes, { createParents: true });
    const sent = await ctx.outbox.send(path, prompt.slice(0, 1024));
    const notes = [
      png.convertedFrom ? `converted from ${png.convertedFrom}` : "",
      png.width !== size.width || png.height !== size.height ? `the model made ${png.width}x${png.height}, not the ${size.width}x${size.height} asked for` : "",
    ].filter(Boolean);
    return {
      success: true,
      output: `Image saved to ${sent.path} (${png.width}x${png.height} PNG, ${png.bytes.length} bytes${notes.length ? `; ${notes.join("; ")}` : ""}) and sent to the user. Download link (valid until ${sent.expiresAt}): ${sent.url}`,
      path: sent.path,
      width: png.width,
      height: png.height,
      file: { ...sent },
    };
  },
});
