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
// A request without `Authorization: Bearer test-llm-key` gets 401. GET /requests lists what came in.
// POST /gates/NAME opens a gate (and answers the requests held behind it).
// Runs in Node (plain JavaScript: the project's TypeScript is typed for workerd only).
import { createServer } from "node:http";

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
    if (req.url === "/v1/chat/completions") hanging.add(res);
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

function handle(req, res, text) {
  if (req.method === "GET" && req.url === "/requests") return send(res, 200, seen);
  const gate = /^\/gates\/([a-z0-9-]+)$/.exec(req.url ?? "");
  if (req.method === "POST" && gate) {
    opened.add(gate[1]);
    for (const release of held.get(gate[1]) ?? []) release();
    held.delete(gate[1]);
    return send(res, 200, { opened: gate[1] });
  }
  if (req.method !== "POST" || req.url !== "/v1/chat/completions") return send(res, 404, { error: { message: "not found" } });
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return send(res, 400, { error: { message: "invalid JSON body" } });
  }
  const user = body.messages?.find((m) => m.role === "user")?.content ?? "";
  const script = /\[script:([a-z]+)\]/.exec(user)?.[1] ?? "none";
  const authorized = req.headers.authorization === `Bearer ${SCRIPTED_MODEL_KEY}`;
  seen.push({ script, authorized, body });
  if (seen.length > 200) seen.shift();
  if (!authorized || script === "unauthorized") {
    return send(res, 401, { error: { message: `Incorrect API key provided: ${SCRIPTED_MODEL_KEY}`, type: "invalid_request_error" } });
  }
  const results = body.messages.filter((m) => m.role === "tool");
  switch (script) {
    case "ratelimited":
      return send(res, 429, { error: { message: "Rate limit reached" } }, { "retry-after": "7" });
    case "malformed":
      return send(res, 200, "this is not JSON {");
    case "wrongshape":
      return send(res, 200, { object: "chat.completion", choices: [] });
    case "hang":
      return;
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
