/**
 * A profile's tools in each client's format, all derived from the same zod definitions:
 * plain JSON Schema, OpenAI function tools (strict where the parameters allow it), Anthropic
 * tool definitions and MCP `tools/list` entries.
 */
import { z } from "zod";
import type { Json } from "../tools/types";
import type { ProfileTool } from "./types";

export const FORMATS = ["jsonschema", "openai", "anthropic", "mcp"] as const;
export type Format = (typeof FORMATS)[number];

type Schema = { [key: string]: Json };

/** The parameters as JSON Schema, as a client sends them (defaults make a field optional). */
export function parametersOf(tool: ProfileTool): Schema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.params, { io: "input" }) as Schema;
  return schema;
}

// Keywords OpenAI's strict mode accepts besides the structural ones; others are dropped from
// the strict copy (the server still enforces them when the call arrives).
const STRICT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);

const isObject = (v: Json | undefined): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

function nullable(s: Schema): Schema {
  if (Array.isArray(s["anyOf"])) return { ...s, anyOf: [...s["anyOf"], { type: "null" }] };
  if (typeof s["type"] === "string") {
    const out: Schema = { ...s, type: [s["type"], "null"] };
    if (Array.isArray(s["enum"])) out["enum"] = [...s["enum"], null];
    return out;
  }
  return { anyOf: [s, { type: "null" }] };
}

/**
 * The strict-mode form of a schema: every object closed (`additionalProperties: false`) with
 * all properties required, the optional ones nullable. Null when the schema cannot be strict
 * (an open map such as bash's `env`).
 */
function strictSchema(s: Schema): Schema | null {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) if (STRICT_KEYWORDS.has(k)) out[k] = v;
  if (isObject(s["items"])) {
    const items = strictSchema(s["items"]);
    if (!items) return null;
    out["items"] = items;
  }
  if (Array.isArray(s["anyOf"])) {
    const alts = s["anyOf"].map((a) => (isObject(a) ? strictSchema(a) : null));
    if (alts.some((a) => a === null)) return null;
    out["anyOf"] = alts as Schema[];
  }
  if (s["type"] !== "object") return out;
  if (isObject(s["additionalProperties"]) || s["additionalProperties"] === true) return null;
  const props = isObject(s["properties"]) ? s["properties"] : {};
  const required = new Set(Array.isArray(s["required"]) ? s["required"] : []);
  const strictProps: Schema = {};
  for (const [name, prop] of Object.entries(props)) {
    if (!isObject(prop)) return null;
    const p = strictSchema(prop);
    if (!p) return null;
    strictProps[name] = required.has(name) ? p : nullable(p);
  }
  return { ...out, properties: strictProps, required: Object.keys(props), additionalProperties: false };
}

export function exportTools(tools: readonly ProfileTool[], format: Format): Json[] {
  return tools.map((t): Json => {
    const parameters = parametersOf(t);
    switch (format) {
      case "jsonschema":
        return { name: t.name, description: t.description, parameters };
      case "anthropic":
        return { name: t.name, description: t.description, input_schema: parameters };
      case "mcp":
        return { name: t.name, description: t.description, inputSchema: parameters };
      case "openai": {
        const strict = strictSchema(parameters);
        return { type: "function", function: { name: t.name, description: t.description, parameters: strict ?? parameters, strict: strict !== null } };
      }
    }
  });
}

/**
 * Arguments with null-valued fields removed: OpenAI's strict mode makes the model send `null`
 * for an optional parameter it does not use, which means "not given" here.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
