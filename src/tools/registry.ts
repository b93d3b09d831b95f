import { z } from "zod";
import { editFile } from "./files/edit-file";
import { glob } from "./files/glob";
import { grep } from "./files/grep";
import { listDir } from "./files/list-dir";
import { readFile } from "./files/read-file";
import { readSkill } from "./files/read-skill";
import { sendFile } from "./files/send-file";
import { setStatus } from "./files/set-status";
import { writeFile } from "./files/write-file";
import { webSearch } from "./net/web-search";
import { bash } from "./shell/bash";
import { webFetch } from "./net/web-fetch";
import { exec } from "./shell/exec";
import type { Json, ToolContext, ToolDefinition } from "./types";

const ALL: ToolDefinition[] = [bash, exec, readFile, writeFile, editFile, listDir, grep, glob, setStatus, webFetch, webSearch, sendFile, readSkill] as ToolDefinition[];

export const TOOLS: ReadonlyMap<string, ToolDefinition> = new Map(ALL.map((t) => [t.name, t]));

export interface ToolDescription {
  name: string;
  description: string;
  /** JSON Schema of the parameters as a caller writes them (fields with defaults optional), derived from the zod definition. */
  parameters: Json;
}

/** Every tool; with a session's context, descriptions that depend on the session are computed for it. */
export function describeTools(ctx?: ToolContext): ToolDescription[] {
  return ALL.map((t) => ({ name: t.name, description: ctx && t.describe ? t.describe(ctx) : t.description, parameters: z.toJSONSchema(t.params, { io: "input" }) as Json }));
}

/** Zod issues as one sentence that names each offending field. */
export function formatValidationError(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`)
    .join("; ");
}
