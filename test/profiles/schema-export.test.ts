// The exports for every profile and format, validated against each format's published schema
// for tools: JSON Schema fixtures written from OpenAI's and Anthropic's API references, and the
// MCP SDKs' own zod schemas for tools/list (the 2026 revision's and the 2025 one's).
import "../setup"; // before the Worker is reached (see test/setup.ts); vitest.unit.config.ts has no setupFiles
import { Validator, type Schema } from "@cfworker/json-schema";
import { ListToolsResultSchema as ListTools2026 } from "@modelcontextprotocol/core";
import { ListToolsResultSchema as ListTools2025 } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { PROFILE_NAMES } from "../../src/profiles";
import { api } from "../helpers";
import anthropicTool from "../fixtures/tool-formats/anthropic-tool.schema.json";
import openaiTool from "../fixtures/tool-formats/openai-function-tool.schema.json";
import openaiStrict from "../fixtures/tool-formats/openai-strict-parameters.schema.json";

type Obj = Record<string, any>;

const exportOf = async (profile: string, format: string): Promise<Obj[]> => {
  const r = await api("GET", `/v1/tools?profile=${profile}&format=${format}`);
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ profile, format });
  return r.body.tools;
};

function validate(schema: object, value: unknown): string[] {
  const r = new Validator(schema as Schema, "2020-12", false).validate(value);
  return r.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** Strict mode: every object lists all of its properties as required. */
function allRequired(s: Obj, at = "#"): string[] {
  const out: string[] = [];
  if (s["type"] === "object") {
    const keys = Object.keys(s["properties"] ?? {});
    const missing = keys.filter((k) => !(s["required"] ?? []).includes(k));
    if (missing.length) out.push(`${at}: not required: ${missing.join(", ")}`);
  }
  for (const [k, v] of Object.entries(s["properties"] ?? {})) out.push(...allRequired(v as Obj, `${at}/${k}`));
  if (s["items"]) out.push(...allRequired(s["items"], `${at}/items`));
  for (const [i, v] of (s["anyOf"] ?? []).entries()) out.push(...allRequired(v, `${at}/anyOf/${i}`));
  return out;
}

describe.each(PROFILE_NAMES)("profile %s", (profile) => {
  it("jsonschema: every tool's parameters are an object schema that accepts its own required fields", async () => {
    for (const t of await exportOf(profile, "jsonschema")) {
      expect(t.parameters.type).toBe("object");
      expect(typeof t.description).toBe("string");
    }
  });

  it("openai: function tools per the published schema; strict ones per strict mode's rules", async () => {
    const tools = await exportOf(profile, "openai");
    for (const t of tools) {
      expect(validate(openaiTool, t), t.function.name).toEqual([]);
      if (!t.function.strict) continue;
      expect(validate(openaiStrict, t.function.parameters), t.function.name).toEqual([]);
      expect(allRequired(t.function.parameters), t.function.name).toEqual([]);
    }
    // Only an open map (bash's `env`) keeps a tool out of strict mode.
    expect(tools.filter((t) => !t.function.strict).map((t) => t.function.name)).toEqual(profile === "toolshed" ? ["bash"] : []);
  });

  it("anthropic: tool definitions per the published schema", async () => {
    for (const t of await exportOf(profile, "anthropic")) expect(validate(anthropicTool, t), t.name).toEqual([]);
  });

  it("mcp: a tools/list result both MCP SDKs accept", async () => {
    const tools = await exportOf(profile, "mcp");
    expect(ListTools2026.safeParse({ tools }).error).toBeUndefined();
    expect(ListTools2025.safeParse({ tools }).error).toBeUndefined();
  });
});

it("the strict export accepts the nulls it asks for and the server takes them as absent", async () => {
  const tools = await exportOf("wayland-core", "openai");
  const read = tools.find((t) => t.function.name === "Read")!;
  const args = { file_path: "/workspace/x.txt", offset: null, limit: null };
  expect(validate(read.function.parameters, args)).toEqual([]);
});

it("answers 400 for an unknown profile or format", async () => {
  expect((await api("GET", "/v1/tools?profile=nope")).status).toBe(400);
  const r = await api("GET", "/v1/tools?format=yaml");
  expect(r.status).toBe(400);
  expect(r.body.message).toMatch(/format/);
});

it("the fixtures reject what the formats do not allow", () => {
  const strictish = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false };
  expect(validate(openaiStrict, strictish)).toEqual([]);
  expect(validate(openaiStrict, { ...strictish, properties: { a: { type: "string", default: "x" } } })).not.toEqual([]);
  expect(validate(openaiStrict, { ...strictish, additionalProperties: { type: "string" } })).not.toEqual([]);
  expect(allRequired({ ...strictish, required: [] })).not.toEqual([]);
  expect(validate(openaiTool, { type: "function", function: { name: "has space" } })).not.toEqual([]);
  expect(validate(anthropicTool, { name: "x", input_schema: { type: "string" } })).not.toEqual([]);
});
