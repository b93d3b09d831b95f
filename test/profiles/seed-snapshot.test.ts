// Each profile against its seed page: tool names, parameter names, types, required-ness and
// the defaults, maxima and ranges (1-20) the page states. A missing, extra or renamed parameter fails.
import { describe, expect, it } from "vitest";
import { PROFILES, type Profile } from "../../src/profiles";
import { parametersOf } from "../../src/profiles/export";
import { CANONICAL } from "../../src/tools/registry";
import {
  readDarixNames,
  readDarixSpawnWorker,
  readLibertai,
  readSpacebot,
  readSpacebotNames,
  readWayland,
  seedsPresent,
  seedText,
  type SeedParam,
  type SeedTools,
} from "./seeds";

const LIBERTAI_ORDER = ["bash", "read_file", "write_file", "edit_file", "list_dir", "web_fetch", "web_search", "generate_image", "send_file", "spawn"];

// Without ../shared/seeds beside the clone these are skipped (test/outside-data.mjs says so once).
const cases: Array<{ profile: Profile; names: string[]; params: SeedTools; items?: SeedTools }> = !seedsPresent
  ? []
  : [
      {
        profile: PROFILES["spacebot-worker"],
        names: readSpacebotNames(seedText("000"), seedText("001")),
        params: readSpacebot(seedText("000")),
      },
      { profile: PROFILES["darix-worker"], names: readDarixNames(seedText("002")), params: readDarixSpawnWorker(seedText("002")) },
      { profile: PROFILES.libertai, names: LIBERTAI_ORDER, params: readLibertai(seedText("003"), LIBERTAI_ORDER) },
      {
        profile: PROFILES["wayland-core"],
        names: [...readWayland(seedText("004")).keys()],
        params: readWayland(seedText("004")),
        items: readWayland(seedText("004"), { items: true }),
      },
    ];

type Prop = { type?: string | string[]; default?: unknown; maximum?: number; minimum?: number };

const typeMatches = (seed: string, prop: Prop): boolean => prop.type === seed || (seed === "number" && prop.type === "integer");

if (!seedsPresent) it.skip("each profile against its seed page (needs ../shared/seeds/)", () => {});

describe.each(cases)("profile $profile.name against its seed page", ({ profile, names, params, items }) => {
  const served = profile.tools.map((t) => t.name);

  it("serves or lists as missing exactly the documented tools", () => {
    expect(names.length).toBeGreaterThan(3);
    expect([...served, ...profile.missing].sort()).toEqual([...names].sort());
    expect(served.filter((n) => profile.missing.includes(n))).toEqual([]);
  });

  it.each(profile.tools.filter((t) => params.has(t.name)).map((t) => [t.name, t] as const))("%s has the page's parameters", (name, tool) => {
    checkParams(name, parametersOf(tool) as ObjectSchema, params.get(name)!);
  });

  it.each(profile.tools.filter((t) => items?.has(t.name)).map((t) => [t.name, t] as const))("%s's task objects have the page's fields", (name, tool) => {
    const schema = parametersOf(tool) as { properties: { tasks: { items: ObjectSchema } } };
    checkParams(`${name}.tasks[]`, schema.properties.tasks.items, items!.get(name)!);
  });
});

type ObjectSchema = { properties: Record<string, Prop>; required?: string[] };

function checkParams(name: string, schema: ObjectSchema, seed: SeedParam[]): void {
  expect(Object.keys(schema.properties).sort()).toEqual(seed.map((p) => p.name).sort());
  for (const p of seed) {
    const prop = schema.properties[p.name]!;
    expect(typeMatches(p.type!, prop), `${name}.${p.name}: type ${p.type} vs ${JSON.stringify(prop.type)}`).toBe(true);
    expect((schema.required ?? []).includes(p.name), `${name}.${p.name} required`).toBe(p.required);
    const stated = p.default ?? /\bdefault[: ]+"?([\w[\]]+)/i.exec(p.description ?? "")?.[1];
    if (stated !== undefined) {
      const value = /^(\d+|\[.*\]|true|false)$/.test(stated) ? JSON.parse(stated) : stated;
      expect(prop.default, `${name}.${p.name} default`).toEqual(value);
    }
    const flag = /\b(true|false) \(default\)/.exec(p.description ?? "")?.[1];
    if (flag) expect(prop.default, `${name}.${p.name} default`).toBe(flag === "true");
    if (p.type !== "integer" && p.type !== "number") continue;
    const max = /\bmax(?:imum)? (\d+)/i.exec(p.description ?? "")?.[1];
    if (max) expect(prop.maximum, `${name}.${p.name} maximum`).toBe(Number(max));
    const range = /\b(\d+)-(\d+)\b/.exec(p.description ?? "");
    if (range) expect([prop.minimum, prop.maximum], `${name}.${p.name} range`).toEqual([Number(range[1]), Number(range[2])]);
  }
}

it("the canonical profile serves every tool under its own name and parameters", () => {
  const t = PROFILES.toolshed;
  expect(t.tools.map((x) => x.name).sort()).toEqual(Object.keys(CANONICAL).sort());
  for (const tool of t.tools) expect(tool.params).toBe(CANONICAL[tool.name as keyof typeof CANONICAL].params);
});
