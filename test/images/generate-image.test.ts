// generate_image against the SCRIPTED model server's /v1/images/generations
// (test/agents/scripted-model.global.mjs), which builds a real PNG (or JPEG) of the asked size.
import { exports } from "cloudflare:workers";
import { decode as decodePng } from "fast-png";
import jpeg from "jpeg-js";
import { describe, expect, inject, it } from "vitest";
import { generateImageBytes, imageConfigFromEnv } from "../../src/agents/model";
import { asPng } from "../../src/tools/images/png";
import { ALICE, api, newSession, tool } from "../helpers";

const modelServer = inject("scriptedModel");
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function imageRequests(script: string): Promise<any[]> {
  const all = (await (await fetch(`${modelServer}/requests`)).json()) as any[];
  return all.filter((r) => r.endpoint === "images" && r.script === script);
}

/** Signature and IHDR read by hand, then a full decode. */
function checkPng(bytes: Uint8Array, width: number, height: number): void {
  expect([...bytes.subarray(0, 8)]).toEqual(SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe("IHDR");
  expect([view.getUint32(16), view.getUint32(20)]).toEqual([width, height]);
  const img = decodePng(bytes);
  expect([img.width, img.height]).toEqual([width, height]);
}

async function imagesIn(id: string): Promise<string[]> {
  const r = await tool(id, "list_dir", { path: "/workspace/images" });
  return r.success ? (r.entries ?? []).map((e: { name: string }) => e.name) : [];
}

describe("generate_image", () => {
  it("writes a decodable PNG of the asked size into images/ and the outbox link downloads it without the key", async () => {
    const id = await newSession();
    const r = await tool(id, "generate_image", { prompt: "a lighthouse at dusk", size: "512x256", steps: 4 });
    expect(r.success).toBe(true);
    expect(r.path).toMatch(/^images\/[0-9a-f-]{36}\.png$/);
    expect([r.width, r.height]).toEqual([512, 256]);
    expect(r.output).toContain(`Image saved to ${r.path} (512x256 PNG`);
    expect(r.output).toContain(r.file.url);

    const res = await exports.default.fetch(`http://toolshed.test/v1/sessions/${id}/files/${r.path}`, { headers: { authorization: `Bearer ${ALICE}` } });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    checkPng(bytes, 512, 256);

    const link = await exports.default.fetch(r.file.url);
    expect(link.status).toBe(200);
    expect(new Uint8Array(await link.arrayBuffer())).toEqual(bytes);
    expect(r.file).toMatchObject({ name: r.path.slice("images/".length), size: bytes.length, caption: "a lighthouse at dusk" });

    const [sent] = (await imageRequests("none")).filter((q) => q.body.prompt === "a lighthouse at dusk");
    expect(sent.authorized).toBe(true);
    expect(sent.body).toMatchObject({ model: "scripted-image-model", size: "512x256", steps: 4, n: 1, response_format: "b64_json" });
  });

  it("defaults to 1024x1024 and 8 steps", async () => {
    const id = await newSession();
    const r = await tool(id, "generate_image", { prompt: "default size please" });
    expect(r.success).toBe(true);
    expect([r.width, r.height]).toEqual([1024, 1024]);
    const sent = (await imageRequests("none")).find((q) => q.body.prompt === "default size please");
    expect(sent.body).toMatchObject({ size: "1024x1024", steps: 8 });
  });

  it("converts a JPEG answer (what FLUX on Workers AI sends) to a PNG", async () => {
    const id = await newSession();
    const r = await tool(id, "generate_image", { prompt: "[script:jpeg] a cat", size: "64x48" });
    expect(r.success).toBe(true);
    expect(r.output).toContain("converted from JPEG");
    const res = await exports.default.fetch(r.file.url);
    checkPng(new Uint8Array(await res.arrayBuffer()), 64, 48);
  });

  it("says when the model made another size than asked", async () => {
    const id = await newSession();
    const r = await tool(id, "generate_image", { prompt: "[script:wrongsize] x", size: "128x128" });
    expect(r.success).toBe(true);
    expect(r.output).toContain("the model made 64x64, not the 128x128 asked for");
  });

  const badSizes: [string, unknown][] = [
    ["1025x16", "1025x16"],
    ["1000x1000", "1000x1000"],
    ["2048x2048", "2048x2048"],
    ["0x16", "0x16"],
    ["a word", "large"],
    ["a missing side", "512x"],
    ["a number", 512],
  ];
  it.each(badSizes)("refuses the size %s with a clear message before calling the provider", async (_name, size) => {
    const id = await newSession();
    // A mark in the prompt: the test counts only its own requests, as other files run at once.
    const mark = crypto.randomUUID();
    const r = await api("POST", `/v1/sessions/${id}/tools/generate_image`, { body: { prompt: `x ${mark}`, size } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Invalid arguments for generate_image: size: /);
    if (typeof size === "string") expect(r.body.message).toContain(`size '${size}' is not allowed: give "WxH" with each side a multiple of 16 between 16 and 1024`);
    expect((await imageRequests("none")).filter((q) => JSON.stringify(q.body).includes(mark))).toEqual([]);
    expect(await imagesIn(id)).toEqual([]);
  });

  const failures: [string, string][] = [
    ["unauthorized", "refused the credentials (HTTP 401): the operator must check TOOLSHED_LLM_API_KEY"],
    ["ratelimited", "rate limiting requests (HTTP 429). Retry after 7 s."],
    ["malformed", "malformed reply (not JSON); no image was made"],
    ["wrongshape", "malformed image reply (no data[0].b64_json)"],
    ["hang", "did not answer within 4 s"],
    ["webp", "sent a WebP image instead of a PNG or JPEG"],
    ["damaged", "sent a damaged PNG"],
  ];
  it.each(failures)("a %s answer is a clear tool error, nothing saved, no key shown", async (script, message) => {
    const id = await newSession();
    const r = await tool(id, "generate_image", { prompt: `[script:${script}] x`, size: "64x64" });
    expect(r.success).toBe(false);
    expect(r.error).toContain(message);
    expect(JSON.stringify(r)).not.toContain("test-llm-key");
    expect(await imagesIn(id)).toEqual([]);
    expect((await api("GET", `/v1/sessions/${id}/outbox`)).body.files).toEqual([]);
  });

  it("libertai serves it under seed 003's name, parameters and result sentence", async () => {
    const id = await newSession(undefined, { profile: "libertai" });
    const r = await tool(id, "generate_image", { prompt: "a boat", size: "32x32" });
    expect(r.success).toBe(true);
    expect(r.output).toMatch(
      /^The generated image is saved to workspace\/images\/[0-9a-f-]{36}\.png and automatically sent to the user\. Download link \(valid until [^)]+\): http:\/\/toolshed\.test\//,
    );
  });
});

describe("image provider configuration and the Workers AI binding", () => {
  it("without a URL or AI binding the answer says what to configure", () => {
    expect(() => imageConfigFromEnv({} as Env)).toThrow(
      /Image generation is not configured: the operator must set TOOLSHED_LLM_URL .* and TOOLSHED_IMAGE_MODEL, or bind Workers AI as AI/,
    );
    expect(() => imageConfigFromEnv({ TOOLSHED_LLM_URL: "http://x/v1" } as Env)).toThrow("TOOLSHED_IMAGE_MODEL is not set");
  });

  // A stand-in for env.AI (no Workers AI offline), answering in the shapes the models document.
  it("takes FLUX's {image: base64 JPEG} and a stream of PNG bytes from the binding", async () => {
    const rgba = new Uint8Array(40 * 24 * 4).fill(90);
    const jpg = jpeg.encode({ data: rgba, width: 40, height: 24 }, 80).data;
    const seen: unknown[] = [];
    const flux = { run: async (model: string, input: unknown) => (seen.push({ model, input }), { image: btoa(String.fromCharCode(...jpg)) }) };
    const cfg = imageConfigFromEnv({ AI: flux } as unknown as Env);
    expect(cfg.model).toBe("@cf/black-forest-labs/flux-1-schnell");
    const png = asPng(await generateImageBytes(cfg, { prompt: "p", width: 40, height: 24, steps: 8 }));
    expect(png).toMatchObject({ width: 40, height: 24, convertedFrom: "JPEG" });
    expect(seen).toEqual([{ model: "@cf/black-forest-labs/flux-1-schnell", input: { prompt: "p", steps: 8, width: 40, height: 24 } }]);

    const fromJpeg = png.bytes;
    const stream = { run: async () => new Response(fromJpeg).body };
    const again = asPng(await generateImageBytes({ ...cfg, ai: stream }, { prompt: "p", width: 40, height: 24, steps: 8 }));
    expect(again).toMatchObject({ width: 40, height: 24 });
    expect(again.convertedFrom).toBeUndefined();

    const failing = { run: async () => Promise.reject(new Error("3040: Capacity temporarily exceeded, 429")) };
    await expect(generateImageBytes({ ...cfg, ai: failing }, { prompt: "p", width: 16, height: 16, steps: 1 })).rejects.toThrow("Workers AI is rate limiting requests");
  });
});
