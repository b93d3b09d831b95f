/**
 * The OpenAPI 3.1 document of the HTTP API, served at `GET /v1/openapi.json` without a key (it
 * holds no tenant data: the same document for every caller of a deployment). Built from the
 * zod shapes in ./shapes.ts and, for the tool calls, from the `toolshed` profile's tool
 * definitions through the same `parametersOf` that `GET /v1/tools` uses.
 */
import { z } from "zod";
import { PROFILE_NAMES, PROFILES } from "../profiles";
import { FORMATS, parametersOf } from "../profiles/export";
import { createCheckpointBody, forkBody, restoreBody, undoBody } from "./checkpoints";
import { COOKIE } from "./inspector-session";
import { json } from "./respond";
import { COMPONENTS, CreateSessionBody, LoginBody, type ComponentName } from "./shapes";

const OPENAPI_PATH = "/v1/openapi.json";

type Obj = Record<string, unknown>;

const ref = (name: ComponentName | `${string}Params`): Obj => ({ $ref: `#/components/schemas/${name}` });

/** A zod shape as a JSON Schema usable inside the document (no `$schema`/`$id` of its own). */
function schemaOf(shape: z.ZodType, io: "input" | "output"): Obj {
  const { $schema: _s, $id: _i, ...rest } = z.toJSONSchema(shape, { io, unrepresentable: "any" }) as Obj;
  return rest;
}

/** The named response shapes, nested ones as `$ref`s to each other. */
function componentSchemas(): Obj {
  const registry = z.registry<{ id: string }>();
  for (const [id, shape] of Object.entries(COMPONENTS)) registry.add(shape as z.ZodType, { id });
  const { schemas } = z.toJSONSchema(registry, { io: "output", uri: (id) => `#/components/schemas/${id}`, unrepresentable: "any" }) as { schemas: Record<string, Obj> };
  const out: Obj = {};
  for (const [id, s] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = s;
    out[id] = rest;
  }
  return out;
}

const content = (schema: Obj) => ({ "application/json": { schema } });
const answer = (description: string, name?: ComponentName): Obj => (name ? { description, content: content(ref(name)) } : { description });
const ERROR_TEXT: Record<string, string> = {
  "400": "Invalid arguments, malformed JSON or a bad path; the message names the field",
  "401": "No valid API key",
  "403": "Refused by the policy (`denied` names the rule)",
  "404": "No such session (or it belongs to another tenant), tool, task or file",
  "409": "A directory where a file was expected, or a non-empty directory",
  "410": "The link has expired",
  "413": "The body is over the limit (TOOLSHED_MAX_JSON_BYTES, or the upload limit)",
  "429": "Too many uploads to this session at once; retry after `Retry-After` seconds (no byte of the body was read)",
};
const errors = (...codes: number[]): Obj => Object.fromEntries(codes.map((c) => [String(c), answer(ERROR_TEXT[String(c)]!, "Error")]));

const sessionId: Obj = { name: "id", in: "path", required: true, description: "The session id (32 hex digits)", schema: { type: "string", pattern: "^[0-9a-f]{32}$" } };
const filePath: Obj = {
  name: "path",
  in: "path",
  required: true,
  description: "The file's path under the session's cwd, may contain `/`; each segment is percent-decoded once, then taken literally (`%5C` for a backslash)",
  schema: { type: "string" },
};
const limit = (max: number, def: number): Obj => ({ name: "limit", in: "query", description: `How many, 1-${max} (clamped)`, schema: { type: "integer", default: def } });
const checkpointParam: Obj = { name: "cp", in: "path", required: true, description: "A checkpoint id, as listed", schema: { type: "integer", minimum: 1 } };
const formatParam: Obj = { name: "format", in: "query", schema: { type: "string", enum: [...FORMATS], default: "jsonschema" } };

const PUBLIC: Obj[] = [];
/** Reads also take the inspector's cookie (from the Worker's own origin). */
const READ_SECURITY: Obj[] = [{ apiKey: [] }, { inspectorCookie: [] }];

const SSE_TEXT =
  "With `Accept: text/event-stream` the same call answers Server-Sent Events, each `data:` one line of JSON: `start` {tool, started_at}; `stdout`/`stderr` {data} as the shell writes (at most 1 MiB per call); `status` {status}; then `result` (exactly the plain call's answer) or `error` {error, message}.";

function toolOperation(name: string, description: string, params: ComponentName | `${string}Params`, result: ComponentName): Obj {
  return {
    operationId: `call_${name}`,
    tags: ["tools"],
    summary: `Run ${name} in the session`,
    description: `${description}\n\nThe \`toolshed\` profile's parameters; other profiles' tools: \`GET /v1/tools?profile=\`. ${SSE_TEXT}`,
    parameters: [sessionId],
    requestBody: { required: true, content: content(ref(params)) },
    responses: {
      "200": {
        description: "The tool's result, also when the tool failed (`success: false`)",
        content: { ...content(ref(result)), "text/event-stream": { schema: { type: "string" } } },
      },
      ...errors(400, 401, 404, 413),
    },
  };
}

function paths(): Obj {
  const p: Record<string, Obj> = {
    [OPENAPI_PATH]: {
      get: {
        operationId: "openapi",
        tags: ["meta"],
        summary: "This document",
        security: PUBLIC,
        responses: { "200": { description: "OpenAPI 3.1", content: content({ type: "object" }) } },
      },
    },
    "/v1/tools": {
      get: {
        operationId: "listProfileTools",
        tags: ["tools"],
        summary: "A profile's tools, derived from their zod definitions, in one client's format",
        parameters: [{ name: "profile", in: "query", schema: { type: "string", enum: [...PROFILE_NAMES], default: "toolshed" } }, formatParam],
        responses: { "200": answer("The tools", "ProfileTools"), ...errors(400, 401) },
      },
    },
    "/v1/sessions": {
      get: {
        operationId: "listSessions",
        tags: ["sessions"],
        summary: "The tenant's sessions, newest first",
        security: READ_SECURITY,
        parameters: [limit(200, 50)],
        responses: { "200": answer("The sessions", "SessionList"), ...errors(401) },
      },
      post: {
        operationId: "createSession",
        tags: ["sessions"],
        summary: "Create a session: a workspace, a profile's tools, a cwd, an environment",
        requestBody: { required: false, content: content(schemaOf(CreateSessionBody, "input")) },
        responses: { "201": answer("Created (also in `location`)", "SessionInfo"), ...errors(400, 401, 413) },
      },
    },
    "/v1/sessions/{id}": {
      parameters: [sessionId],
      get: {
        operationId: "getSession",
        tags: ["sessions"],
        summary: "Profile, tools, cwd, status, usage and times",
        security: READ_SECURITY,
        responses: { "200": answer("The session", "SessionInfo"), ...errors(401, 404) },
      },
      delete: {
        operationId: "deleteSession",
        tags: ["sessions"],
        summary: "Erase the workspace and the log",
        responses: { "200": answer("Deleted", "SessionDeleted"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/tools": {
      parameters: [sessionId],
      get: {
        operationId: "listSessionTools",
        tags: ["tools"],
        summary: "The session's own tools (its profile narrowed to its `tools`), descriptions computed for it",
        security: READ_SECURITY,
        parameters: [formatParam],
        responses: { "200": answer("The tools", "SessionToolList"), ...errors(400, 401, 404) },
      },
    },
    "/v1/sessions/{id}/tools/{name}": {
      parameters: [
        sessionId,
        {
          name: "name",
          in: "path",
          required: true,
          description: "A tool the session serves (its profile's names), or a deferred `mcp__<server>__<tool>`",
          schema: { type: "string" },
        },
      ],
      post: {
        operationId: "callTool",
        tags: ["tools"],
        summary: "Run one of the session's tools",
        description: `Arguments are checked against the tool's parameters (\`GET /v1/sessions/{id}/tools\`); a \`null\` argument counts as absent. ${SSE_TEXT}`,
        requestBody: { required: true, content: content({ type: "object" }) },
        responses: {
          "200": {
            description: "The tool's result, also when the tool failed",
            content: { ...content(ref("ToolResult")), "text/event-stream": { schema: { type: "string" } } },
          },
          ...errors(400, 401, 404, 413),
        },
      },
    },
    "/v1/sessions/{id}/log": {
      parameters: [sessionId],
      get: {
        operationId: "getLog",
        tags: ["sessions"],
        summary: "The tool-call log, newest first, with policy denials",
        security: READ_SECURITY,
        parameters: [limit(1000, 100)],
        responses: { "200": answer("The calls", "CallLog"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/tasks": {
      parameters: [sessionId],
      get: {
        operationId: "listTasks",
        tags: ["agents"],
        summary: "Background sub-agents (spawn), newest first",
        security: READ_SECURITY,
        responses: { "200": answer("The tasks", "TaskList"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/tasks/{task}": {
      parameters: [sessionId, { name: "task", in: "path", required: true, schema: { type: "string" } }],
      get: {
        operationId: "getTask",
        tags: ["agents"],
        summary: "One background task",
        security: READ_SECURITY,
        responses: { "200": answer("The task", "Task"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/outbox": {
      parameters: [sessionId],
      get: {
        operationId: "listOutbox",
        tags: ["files"],
        summary: "Files send_file sent that have not expired, each with its signed link",
        security: READ_SECURITY,
        responses: { "200": answer("The files", "Outbox"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/outbox/{file}/{name}": {
      parameters: [
        sessionId,
        { name: "file", in: "path", required: true, schema: { type: "string", pattern: "^[0-9a-f]{24}$" } },
        { name: "name", in: "path", required: true, schema: { type: "string" } },
      ],
      get: {
        operationId: "downloadSent",
        tags: ["files"],
        summary: "A sent file's bytes as they were when sent; the signed link is the credential",
        security: PUBLIC,
        parameters: ["tenant", "expires", "sig"].map((name) => ({ name, in: "query", required: true, schema: { type: "string" } })),
        responses: {
          "200": {
            description: "The bytes (`content-disposition: attachment`)",
            content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
          },
          "403": answer("The link was altered or signed with another key (`invalid_link`)", "Error"),
          ...errors(404, 410),
        },
      },
    },
    "/v1/sessions/{id}/tree": {
      parameters: [sessionId],
      get: {
        operationId: "getTree",
        tags: ["files"],
        summary: "One directory of the workspace, directories first (not a tool call: nothing is logged but refusals)",
        security: READ_SECURITY,
        parameters: [{ name: "path", in: "query", schema: { type: "string", default: "/workspace" } }],
        responses: { "200": answer("The directory", "Tree"), ...errors(401, 403, 404, 409) },
      },
    },
    "/v1/sessions/{id}/files/{path}": {
      parameters: [sessionId, filePath],
      get: {
        operationId: "downloadFile",
        tags: ["files"],
        summary: "The raw bytes, streamed",
        security: READ_SECURITY,
        responses: {
          "200": {
            description: "The bytes (`content-length` set)",
            content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
          },
          ...errors(400, 401, 403, 404, 409),
        },
      },
      put: {
        operationId: "uploadFile",
        tags: ["files"],
        summary: "Stream the body into the file (parents created); the new content appears only when the whole body has arrived",
        requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } } },
        responses: { "201": answer("Stored", "Uploaded"), ...errors(400, 401, 403, 404, 409, 413, 429) },
      },
      delete: {
        operationId: "deleteFile",
        tags: ["files"],
        summary: "Remove a file, or a directory (`recursive=1` when not empty)",
        parameters: [{ name: "recursive", in: "query", schema: { type: "string", enum: ["1"] } }],
        responses: { "200": answer("Removed", "FileDeleted"), ...errors(400, 401, 403, 404, 409) },
      },
    },
    "/v1/sessions/{id}/mcp": {
      parameters: [sessionId],
      post: {
        operationId: "mcp",
        tags: ["mcp"],
        summary: "The session's MCP server (Streamable HTTP; revisions 2026-07-28 and 2025, stateless)",
        description:
          "JSON-RPC 2.0: tools/list gives the session's tools with the same schemas as `format=mcp`, tools/call runs them like the HTTP API (log, policy, limits) and answers `structuredContent` equal to the HTTP result. GET and DELETE answer 405.",
        requestBody: {
          required: true,
          content: content({ type: "object", properties: { jsonrpc: { const: "2.0" }, method: { type: "string" } }, required: ["jsonrpc", "method"] }),
        },
        responses: {
          "200": {
            description: "A JSON-RPC answer (JSON or Server-Sent Events)",
            content: { ...content({ type: "object" }), "text/event-stream": { schema: { type: "string" } } },
          },
          "202": { description: "A notification was accepted" },
          ...errors(401, 404, 413),
        },
      },
    },
    "/v1/sessions/{id}/terminal": {
      parameters: [sessionId],
      get: {
        operationId: "terminal",
        tags: ["sessions"],
        summary: "WebSocket upgrade to the session's live terminal",
        description:
          'Client sends `{"type": "run", "command": "..."}` (one line, at most 16,384 characters); the server sends `replay` once, then `output` {stream, data}, `exit` {exit_code, success} and `error` {message}. Each line runs as a call of the session\'s shell tool.',
        security: READ_SECURITY,
        parameters: [{ name: "Upgrade", in: "header", required: true, schema: { const: "websocket" } }],
        responses: { "101": { description: "Switching protocols" }, "426": answer("Not a WebSocket upgrade", "Error"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/consistency": {
      parameters: [sessionId],
      get: {
        operationId: "consistency",
        tags: ["operations"],
        summary: "Operator only: the workspace tables' invariants, checked inside the session; 404 unless TOOLSHED_CONSISTENCY_CHECK=1",
        responses: { "200": answer("The problems found (none when sound)", "Consistency"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/checkpoints": {
      parameters: [sessionId],
      get: {
        operationId: "listCheckpoints",
        tags: ["checkpoints"],
        summary: "The workspace's checkpoints and how much history they hold",
        security: READ_SECURITY,
        responses: { "200": answer("The checkpoints", "CheckpointList"), ...errors(401, 404) },
      },
      post: {
        operationId: "createCheckpoint",
        tags: ["checkpoints"],
        summary: "Record the workspace's tree now (copy-on-write: no file content is copied)",
        requestBody: { required: false, content: content(schemaOf(createCheckpointBody, "input")) },
        responses: { "201": answer("Created", "Checkpoint"), ...errors(400, 401, 404, 413) },
      },
    },
    "/v1/sessions/{id}/checkpoints/{cp}": {
      parameters: [sessionId, checkpointParam],
      delete: {
        operationId: "deleteCheckpoint",
        tags: ["checkpoints"],
        summary: "Forget a checkpoint, freeing what only it held",
        responses: { "200": answer("Deleted", "CheckpointDeleted"), ...errors(401, 404) },
      },
    },
    "/v1/sessions/{id}/checkpoints/{cp}/restore": {
      parameters: [sessionId, checkpointParam],
      post: {
        operationId: "restoreCheckpoint",
        tags: ["checkpoints"],
        summary: "Put the workspace (or the paths) back as the checkpoint has it, in one transaction; a checkpoint taken first makes it undoable",
        requestBody: { required: false, content: content(schemaOf(restoreBody, "input")) },
        responses: { "200": answer("Restored", "Restored"), ...errors(400, 401, 403, 404, 409, 413) },
      },
    },
    "/v1/sessions/{id}/diff": {
      parameters: [sessionId],
      get: {
        operationId: "diffCheckpoints",
        tags: ["checkpoints"],
        summary: "What changed between two checkpoints, or a checkpoint and now",
        security: READ_SECURITY,
        parameters: [
          { name: "from", in: "query", required: true, schema: { type: "integer", minimum: 1 } },
          { name: "to", in: "query", schema: { oneOf: [{ type: "integer", minimum: 1 }, { const: "now" }], default: "now" } },
        ],
        responses: { "200": answer("The changes", "WorkspaceDiff"), ...errors(400, 401, 404) },
      },
    },
    "/v1/sessions/{id}/undo": {
      parameters: [sessionId],
      post: {
        operationId: "undoCalls",
        tags: ["checkpoints"],
        summary: "Undo the last N file-changing calls: restore the checkpoint taken before the Nth",
        requestBody: { required: true, content: content(schemaOf(undoBody, "input")) },
        responses: { "200": answer("Restored (or nothing to undo)", "Restored"), ...errors(400, 401, 404, 413) },
      },
    },
    "/v1/sessions/{id}/fork": {
      parameters: [sessionId],
      post: {
        operationId: "forkSession",
        tags: ["checkpoints"],
        summary: "A new session of the same tenant whose workspace is a checkpoint of this one",
        requestBody: { required: false, content: content(schemaOf(forkBody, "input")) },
        responses: { "201": answer("Created (also in `location`)", "Forked"), ...errors(400, 401, 404, 413) },
      },
    },
    "/inspect/login": {
      post: {
        operationId: "inspectorLogin",
        tags: ["inspector"],
        summary: "Exchange an API key for the inspector's cookie (one hour, HttpOnly, SameSite=Strict)",
        security: PUBLIC,
        requestBody: { required: true, content: content(schemaOf(LoginBody, "input")) },
        responses: { "200": answer("Logged in; the cookie is in `set-cookie`", "LoggedIn"), ...errors(400, 401), "403": answer("Posted from another origin", "Error") },
      },
    },
    "/inspect/logout": {
      post: {
        operationId: "inspectorLogout",
        tags: ["inspector"],
        summary: "Clear the inspector's cookie",
        security: PUBLIC,
        responses: { "200": answer("Logged out", "LoggedOut") },
      },
    },
  };
  for (const tool of PROFILES.toolshed.tools) {
    const shell = tool.name === "bash" || tool.name === "exec";
    p[`/v1/sessions/{id}/tools/${tool.name}`] = { post: toolOperation(tool.name, tool.description, `${tool.name}Params`, shell ? "ShellResult" : "ToolResult") };
  }
  return p;
}

function buildDocument(): Obj {
  const schemas = componentSchemas();
  for (const tool of PROFILES.toolshed.tools) schemas[`${tool.name}Params`] = parametersOf(tool);
  return {
    openapi: "3.1.1",
    info: {
      title: "Toolshed",
      version: "v1",
      summary: "A sandboxed tool runtime for AI agents on Cloudflare Workers",
      description:
        "Each session owns a workspace (files in SQLite), a cwd, an environment and a tool-call log, and serves one platform's tool set. Authenticate with `Authorization: Bearer <API key>`; the key decides the tenant, and a session is 404 to every other tenant.",
    },
    security: [{ apiKey: [] }],
    tags: ["sessions", "tools", "files", "checkpoints", "agents", "mcp", "inspector", "operations", "meta"].map((name) => ({ name })),
    paths: paths(),
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key of TOOLSHED_API_KEYS (`tenant=key` pairs); the key decides the tenant" },
        inspectorCookie: {
          type: "apiKey",
          in: "cookie",
          name: COOKIE,
          description: "The inspector's signed cookie (POST /inspect/login); reads and the terminal only, from the Worker's own origin",
        },
      },
      schemas,
    },
  };
}

let cached: Obj | null = null;

/** The document; `origin` (the API's public origin) becomes its server when known. */
function openApiDocument(origin?: string): Obj {
  cached ??= buildDocument();
  return origin ? { ...cached, servers: [{ url: origin }] } : cached;
}

/** `GET /v1/openapi.json`, served without a key; null for every other request. */
export function openApiResponse(request: Request, env: Env): Response | null {
  const url = new URL(request.url);
  if (url.pathname !== OPENAPI_PATH) return null;
  if (request.method !== "GET" && request.method !== "HEAD") return json({ error: "method_not_allowed", message: `${OPENAPI_PATH} accepts GET only.` }, 405);
  const origin = (env.TOOLSHED_PUBLIC_URL || url.origin).replace(/\/+$/, "");
  return json(openApiDocument(origin), 200, { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" });
}
