// A SCRIPTED model (no real model can run offline): a Node HTTP server on 127.0.0.1 speaking
// OpenAI's chat-completions wire format (POST /v1/chat/completions, tool_calls, role "tool"
// answers). What it answers is a script picked by a marker in the conversation's user message,
// `[script:NAME]`, and advanced by how many tool results the conversation already holds:
//   files         read_file + bash, then write_file, then a final report quoting every tool result
//   loop          a read_file call every turn (never a report)
//   unauthorized  HTTP 401 whose body echoes the key (the client must not pass it on)
//   ratelimited   HTTP 429 with Retry-After: 7
//   malformed     HTTP 200 with a body that is not JSON
//   wrongshape    HTTP 200 JSON without choices
//   slow          a final report after 1.5 s
//   hang          no answer at all (the client's timeout ends it)
//   background    bash `echo bg >> trace.txt`, then a report quoting the bash result
//   gated         bash `echo step1 >> trace.txt`, then holds its answer until the test opens the
//                 gate named by `[gate:NAME]` (POST /gates/NAME), then reports `RESUMED`
//   echo          a final report quoting the user message (workflow tests follow the input passed on)
// POST /v1/images/generations answers `{data: [{b64_json}]}` with a REAL PNG built here with
// node:zlib at the requested size (a gradient, so the image data is not all one value), unless
// the prompt names a script: unauthorized, ratelimited, malformed, hang (as above), wrongshape
// (`{data: []}`), jpeg (a real JPEG from jpeg-js), webp (a WebP header), damaged (a PNG signature
// and garbage), wrongsize (a 64x64 PNG whatever was asked).
// A request without `Authorization: Bearer test-llm-key` gets 401. GET /requests lists what came in.
// POST /gates/NAME opens a gate (and answers the requests held behind it).
// Runs in Node (plain JavaScript: the project's TypeScript is typed for workerd only).
import { createServer } from "node:http";
import { crc32, deflateSync } from "node:zlib";
import jpeg from "jpeg-js";

export const SCRIPTED_MODEL_KEY = "test-llm-key";

/** @type {{script: string, authorized: boolean, body: any}[]} */
const seen = [];
/** Opened gates, and the answers held behind closed ones. */
const opened = new Set();
/** @type {Map<string, (() => void)[]>} */
const held = new Map();

/** @param {import("vitest/node").TestProject} project */
export default async function setup(project) {
  /** @type {Set<import("node:http").ServerResponse>} */
  const hanging = new Set();
  const server = createServer((req, res) => {
    if (req.url === "/v1/chat/completions" || req.url === "/v1/images/generations") hanging.add(res);
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  project.provide("scriptedModel", `http://127.0.0.1:${port}`);
  return async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve()));
  };
}

function send(res, status, body, headers = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

let callCounter = 0;
const call = (name, args) => ({ id: `call_${++callCounter}`, type: "function", function: { name, arguments: JSON.stringify(args) } });

function completion(message) {
  return {
    id: `chatcmpl-${callCounter}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "scripted-model",
    choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function image(res, body, script) {
  const [width, height] = String(body.size ?? "")
    .split("x")
    .map(Number);
  if (!width || !height) return send(res, 400, { error: { message: "size must be WxH" } });
  switch (script) {
    case "jpeg":
      return b64(res, makeJpeg(width, height));
    case "webp":
      return b64(res, Buffer.concat([Buffer.from("RIFF\0\0\0\0WEBPVP8 ", "latin1"), Buffer.alloc(32)]));
    case "damaged":
      return b64(res, Buffer.concat([makePng(width, height).subarray(0, 40), Buffer.alloc(64, 7)]));
    case "wrongsize":
      return b64(res, makePng(64, 64));
    default:
      return b64(res, makePng(width, height));
  }
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real RGB PNG of width x height: a gradient, each scanline with filter type 0. */
export function makePng(width, height) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method variants, no interlace
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], row + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

function makeJpeg(width, height) {
  const data = Buffer.alloc(width * height * 4, 200);
  return jpeg.encode({ data, width, height }, 80).data;
}

const b64 = (res, bytes) => send(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: Buffer.from(bytes).toString("base64") }] });

function handle(req, res, text) {
  if (req.method === "GET" && req.url === "/requests") return send(res, 200, seen);
  const gate = /^\/gates\/([a-z0-9-]+)$/.exec(req.url ?? "");
  if (req.method === "POST" && gate) {
    opened.add(gate[1]);
    for (const release of held.get(gate[1]) ?? []) release();
    held.delete(gate[1]);
    return send(res, 200, { opened: gate[1] });
  }
  const images = req.url === "/v1/images/generations";
  if (req.method !== "POST" || (req.url !== "/v1/chat/completions" && !images)) return send(res, 404, { error: { message: "not found" } });
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return send(res, 400, { error: { message: "invalid JSON body" } });
  }
  const user = images ? String(body.prompt ?? "") : (body.messages?.find((m) => m.role === "user")?.content ?? "");
  const script = /\[script:([a-z]+)\]/.exec(user)?.[1] ?? "none";
  const authorized = req.headers.authorization === `Bearer ${SCRIPTED_MODEL_KEY}`;
  seen.push({ script, authorized, body, endpoint: images ? "images" : "chat" });
  if (seen.length > 200) seen.shift();
  if (!authorized || script === "unauthorized") {
    return send(res, 401, { error: { message: `Incorrect API key provided: ${SCRIPTED_MODEL_KEY}`, type: "invalid_request_error" } });
  }
  switch (script) {
    case "ratelimited":
      return send(res, 429, { error: { message: "Rate limit reached" } }, { "retry-after": "7" });
    case "malformed":
      return send(res, 200, "this is not JSON {");
    case "wrongshape":
      return send(res, 200, images ? { created: 0, data: [] } : { object: "chat.completion", choices: [] });
    case "hang":
      return;
  }
  if (images) return image(res, body, script);
  const results = body.messages.filter((m) => m.role === "tool");
  switch (script) {
    case "echo":
      return send(res, 200, completion({ content: `ECHO: ${user}` }));
    case "slow":
      return setTimeout(() => send(res, 200, completion({ content: "slow report" })), 1500);
    case "loop":
      return send(res, 200, completion({ tool_calls: [call("read_file", { path: "notes.txt" })] }));
    case "files":
      if (results.length === 0) {
        return send(res, 200, completion({ tool_calls: [call("read_file", { path: "notes.txt" }), call("bash", { command: "wc -l < notes.txt; echo ran-in-bash" })] }));
      }
      if (results.length === 2) return send(res, 200, completion({ tool_calls: [call("write_file", { path: "forbidden.txt", content: "x" })] }));
      return send(res, 200, completion({ content: `REPORT ${JSON.stringify(results.map((m) => JSON.parse(m.content)))}` }));
    case "background":
      if (results.length === 0) return send(res, 200, completion({ tool_calls: [call("bash", { command: "echo bg >> trace.txt; echo bash-ran" })] }));
      return send(res, 200, completion({ content: `BG REPORT ${results[0].content.includes("bash-ran") ? "bash ran" : "bash did not run"}` }));
    case "gated": {
      if (results.length === 0) return send(res, 200, completion({ tool_calls: [call("bash", { command: "echo step1 >> trace.txt" })] }));
      const name = /\[gate:([a-z0-9-]+)\]/.exec(user)?.[1] ?? "";
      const answer = () => send(res, 200, completion({ content: `RESUMED after ${results.length} tool result(s)` }));
      if (opened.has(name)) return answer();
      held.set(name, [...(held.get(name) ?? []), answer]);
      return;
    }
    default:
      return send(res, 200, completion({ content: `no script in the prompt (${script})` }));
  }
}
