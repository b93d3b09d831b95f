// Reads the seed pages (../shared/seeds/, the platforms' tool docs) into tool names and
// parameters. Each page has its own layout, so each has its own small reader.

// From a clone, shared/ sits beside the repository; from a worktree under wt/ one level higher.
const raw = import.meta.glob(["../../../shared/seeds/*.txt", "../../../../shared/seeds/*.txt"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** False in a clone without the seed pages beside it: the seed tests skip (test/outside-data.mjs). */
export const seedsPresent = Object.keys(raw).length > 0;

export function seedText(prefix: string): string {
  const hit = Object.entries(raw).find(([path]) => path.split("/").pop()!.startsWith(`${prefix}_`));
  if (!hit) throw new Error(`seed page ${prefix} not found next to the repository (../shared/seeds/)`);
  return hit[1];
}

export interface SeedParam {
  name: string;
  type?: string;
  required?: boolean;
  default?: string;
  description?: string;
}

export type SeedTools = Map<string, SeedParam[]>;

const TYPE = /^(string|integer|boolean|array|number|object)$/;

/**
 * Tools of page 000 whose heading line the page lost: their description opens them. Keyed by
 * the description's start.
 */
const SPACEBOT_LOST_HEADINGS: Record<string, string> = {
  "Search the web using Brave Search API.": "web_search",
  "Search email messages via IMAP.": "email_search",
};
/** The first result field of the tools whose results do not start at `success`. */
const SPACEBOT_FIRST_RESULT: Record<string, string> = { read_skill: "content", web_search: "results", email_search: "messages" };

/**
 * Spacebot (000): a tool name alone on a line, its description, then entries of
 * `name` / `type` / optional `required` or `default:X` / description. Parameters come first,
 * then the result fields (from `success`, or the tool's first result field above).
 */
export function readSpacebot(text: string): SeedTools {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const tools: SeedTools = new Map();
  let current: SeedParam[] | null = null;
  let tool = "";
  let inResults = false;
  const open = (name: string) => {
    tool = name;
    current = [];
    inResults = false;
    tools.set(name, current);
  };
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!;
    const lost = Object.entries(SPACEBOT_LOST_HEADINGS).find(([start]) => line.startsWith(start));
    if (lost) open(lost[1]);
    if (!/^[a-z_]+$/.test(line)) continue;
    if (TYPE.test(lines[i + 1]!)) {
      // An entry: name, type, maybe a marker, then its description (consumed here).
      const marker = lines[i + 2] ?? "";
      const hasMarker = marker === "required" || marker.startsWith("default:");
      i += hasMarker ? 3 : 2;
      if (!current) continue;
      if (line === "success" || line === SPACEBOT_FIRST_RESULT[tool]) inResults = true;
      if (inResults) continue;
      (current as SeedParam[]).push({
        name: line,
        type: lines[i - (hasMarker ? 2 : 1)],
        required: marker === "required",
        ...(marker.startsWith("default:") ? { default: marker.slice("default:".length).replace(/"/g, "") } : {}),
        description: lines[i],
      });
    } else if (/^[A-Z]/.test(lines[i + 1]!)) {
      open(line);
    }
  }
  return tools;
}

/** Darix (002): the `WorkerToolName` union lists the tool names; the page gives no parameters for them. */
export function readDarixNames(text: string): string[] {
  const union = text.slice(text.indexOf("type WorkerToolName"), text.indexOf("These are the same primitives"));
  return [...union.matchAll(/\|\s*"([a-z_]+)"/g)].map((m) => m[1]!);
}

/**
 * LibertAI (003): one `| Parameter | Type | Required | Description |` table per tool, in
 * page order. `names` are the tools in that order (two headings are missing from the page).
 */
export function readLibertai(text: string, names: readonly string[]): SeedTools {
  const tables: SeedParam[][] = [];
  let rows: SeedParam[] | null = null;
  for (const line of text.split("\n")) {
    if (/^\|\s*-+\s*\|/.test(line)) {
      rows = [];
      tables.push(rows);
      continue;
    }
    const m = /^\|?\s*([a-z_]+)\s*\|\s*([a-z]+)\s*\|\s*(yes|no)\s*\|([^|]*)\|/.exec(line);
    if (rows && m) rows.push({ name: m[1]!, type: m[2]!, required: m[3] === "yes", description: m[4]!.trim() });
    else rows = null;
  }
  if (tables.length !== names.length) throw new Error(`003: ${tables.length} parameter tables for ${names.length} tools`);
  return new Map(names.map((n, i) => [n, tables[i]!]));
}

/**
 * Wayland (004): the tool name alone on a line, then `name type required|optional description`
 * lines. `items: true` reads the fields of the tools' task objects (`task.prompt ...`) instead.
 */
export function readWayland(text: string, opts: { items?: boolean } = {}): SeedTools {
  const tools: SeedTools = new Map();
  let current: SeedParam[] | null = null;
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (/^[A-Z][A-Za-z]+$/.test(line)) {
      current = [];
      tools.set(line, current);
      continue;
    }
    const m = /^([a-z_.]+) (string|integer|boolean|array|number) (required|optional) (.*)$/.exec(line);
    if (!m || !current || m[1]!.startsWith("task.") !== Boolean(opts.items)) continue;
    current.push({ name: m[1]!.replace(/^task\./, ""), type: m[2]!, required: m[3] === "required", description: m[4]! });
  }
  for (const [name, params] of tools) if (params.length === 0) tools.delete(name);
  return tools;
}

/**
 * Darix (002): spawn_worker's fields, from its `Field Required Notes` table (rows run together:
 * `systemPromptYesSets persona...`), typed by the example call's values.
 */
export function readDarixSpawnWorker(text: string): SeedTools {
  const call = text.slice(text.indexOf("spawn_worker({"));
  const table = call.slice(call.indexOf("FieldRequiredNotes"), call.indexOf("The spawn uses"));
  const params: SeedParam[] = [];
  for (const m of table.matchAll(/^([a-z][A-Za-z]+)(Yes|No)(.*)$/gm)) {
    const value = new RegExp(`${m[1]}:\\s*(.)`).exec(call)?.[1];
    params.push({ name: m[1]!, type: value === "[" ? "array" : "string", required: m[2] === "Yes", description: m[3]!.trim() });
  }
  return new Map([["spawn_worker", params]]);
}

/** Spacebot's tool names: headings of 000, plus those only 001 still shows as headings. */
export function readSpacebotNames(p000: string, p001: string): string[] {
  const names = new Set(readSpacebot(p000).keys());
  const lines = p001.split("\n").map((l) => l.trim());
  for (const l of lines) if (/^[a-z_]+$/.test(l)) names.add(l);
  for (const m of p001.matchAll(/\.([a-z]+_[a-z_]+)\n/g)) names.add(m[1]!); // "...progress.read_skill"
  return [...names];
}
