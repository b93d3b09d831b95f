import { RonError, type Pos, type RonValue } from "./ron";

/** A workflow as it runs: the document's steps, checked against the session's tools. */
export type Step =
  | { kind: "Agent"; name: string; prompt: string; tools: string[]; maxTurns: number; at: Pos }
  | { kind: "Pipeline" | "Parallel"; name: string; steps: Step[]; at: Pos };

export interface Workflow {
  name: string;
  /** Run in order, each step's output passed to the next, as a Pipeline. */
  root: Step;
  agents: number;
  /** Most sub-agents running at once: what the workflow takes of the session's slots. */
  width: number;
}

export interface PlanLimits {
  maxAgents: number;
  maxWidth: number;
  maxTurns: number;
  defaultTurns: number;
}

const FIELDS: Record<string, string[]> = {
  Workflow: ["name", "steps"],
  Agent: ["name", "prompt", "tools", "max_turns"],
  Pipeline: ["name", "steps"],
  Parallel: ["name", "steps"],
};

const describe = (v: RonValue): string => {
  switch (v.kind) {
    case "struct":
    case "tuple":
      return v.name ? `${v.name}(...)` : "a tuple";
    case "unit":
      return v.name ?? "()";
    case "list":
      return "a list";
    case "map":
      return "a map";
    default:
      return `a ${v.kind}`;
  }
};

/** Turns the parsed document into steps; every mistake names its line and column. */
export function planWorkflow(doc: RonValue, refuse: (tool: string) => string | null, limits: PlanLimits): Workflow {
  const names = new Set<string>();
  let agents = 0;

  const fieldsOf = (v: RonValue, kind: string): Map<string, { value: RonValue; at: Pos }> => {
    if (v.kind !== "struct") throw new RonError(v.at, `${kind} takes named fields: ${kind}(${FIELDS[kind]!.map((f) => `${f}: ...`).join(", ")})`);
    for (const [field, { at }] of v.fields) {
      if (!FIELDS[kind]!.includes(field)) throw new RonError(at, `${kind} has no field '${field}'; its fields are ${FIELDS[kind]!.join(", ")}`);
    }
    return v.fields;
  };
  const required = (fields: Map<string, { value: RonValue }>, field: string, kind: string, at: Pos): RonValue => {
    const f = fields.get(field);
    if (!f) throw new RonError(at, `${kind} needs the field '${field}'`);
    return f.value;
  };
  const optional = (fields: Map<string, { value: RonValue }>, field: string): RonValue | undefined => {
    const v = fields.get(field)?.value;
    if (!v || (v.kind === "unit" && v.name === "None")) return undefined;
    if (v.kind === "tuple" && v.name === "Some" && v.items.length === 1) return v.items[0];
    return v;
  };
  const text = (v: RonValue, what: string): string => {
    if (v.kind !== "string") throw new RonError(v.at, `${what} must be a string in double quotes, found ${describe(v)}`);
    return v.value;
  };
  const stepName = (v: RonValue | undefined, fallback: string, at: Pos): string => {
    const name = v ? text(v, "a step's name").trim() : fallback;
    if (!/^[\w.-]{1,64}$/.test(name)) throw new RonError(v?.at ?? at, `the name '${name}' must be 1 to 64 letters, digits, '_', '-' or '.'`);
    if (names.has(name)) throw new RonError(v?.at ?? at, `the step name '${name}' is used twice; names must be unique`);
    names.add(name);
    return name;
  };

  const agent = (v: RonValue): Step => {
    const fields = fieldsOf(v, "Agent");
    const name = stepName(required(fields, "name", "Agent", v.at), "", v.at);
    const prompt = text(required(fields, "prompt", "Agent", v.at), `Agent '${name}': prompt`);
    if (!prompt.trim()) throw new RonError(fields.get("prompt")!.value.at, `Agent '${name}': the prompt is empty`);
    const list = required(fields, "tools", "Agent", v.at);
    if (list.kind !== "list" || list.items.length === 0)
      throw new RonError(list.at, `Agent '${name}': tools must be a non-empty list of tool names, e.g. ["read_file", "bash"]`);
    const tools = list.items.map((t) => {
      const tool = text(t, `Agent '${name}': a tool name`);
      const refused = refuse(tool);
      if (refused) throw new RonError(t.at, `Agent '${name}': ${refused}`);
      return tool;
    });
    const turns = optional(fields, "max_turns");
    let maxTurns = limits.defaultTurns;
    if (turns) {
      if (turns.kind !== "number" || !Number.isInteger(turns.value) || turns.value < 1 || turns.value > limits.maxTurns) {
        throw new RonError(turns.at, `Agent '${name}': max_turns must be a whole number from 1 to ${limits.maxTurns}`);
      }
      maxTurns = turns.value;
    }
    if (++agents > limits.maxAgents) throw new RonError(v.at, `the workflow has more than ${limits.maxAgents} Agent steps; split it`);
    return { kind: "Agent", name, prompt, tools: [...new Set(tools)], maxTurns, at: v.at };
  };

  const group = (v: RonValue, kind: "Pipeline" | "Parallel", index: number): Step => {
    // `Pipeline([...])` is short for `Pipeline(steps: [...])`.
    let list: RonValue;
    let name: RonValue | undefined;
    if (v.kind === "tuple" && v.items.length === 1) list = v.items[0]!;
    else {
      const fields = fieldsOf(v, kind);
      list = required(fields, "steps", kind, v.at);
      name = optional(fields, "name");
    }
    return { kind, name: stepName(name, `${kind.toLowerCase()}-${index}`, v.at), steps: steps(list, kind), at: v.at };
  };

  let groups = 0;
  const step = (v: RonValue): Step => {
    const kind = v.kind === "struct" || v.kind === "tuple" || v.kind === "unit" ? v.name : null;
    if (kind === "Agent") return agent(v);
    if (kind === "Pipeline" || kind === "Parallel") return group(v, kind, ++groups);
    throw new RonError(v.at, `expected a step (Agent(...), Pipeline(...) or Parallel(...)), found ${describe(v)}`);
  };
  const steps = (list: RonValue, owner: string): Step[] => {
    if (list.kind !== "list" || list.items.length === 0) throw new RonError(list.at, `${owner}: steps must be a non-empty list [...] of steps`);
    return list.items.map(step);
  };

  if (doc.kind !== "struct" || doc.name !== "Workflow") {
    throw new RonError(doc.at, `a workflow document is Workflow(name: "...", steps: [...]), found ${describe(doc)}`);
  }
  const fields = fieldsOf(doc, "Workflow");
  const nameValue = required(fields, "name", "Workflow", doc.at);
  const name = text(nameValue, "the workflow's name").trim();
  if (!name) throw new RonError(nameValue.at, "the workflow's name is empty");
  const root: Step = { kind: "Pipeline", name, steps: steps(required(fields, "steps", "Workflow", doc.at), "Workflow"), at: doc.at };

  const widthOf = (s: Step): number => (s.kind === "Agent" ? 1 : s.kind === "Pipeline" ? Math.max(...s.steps.map(widthOf)) : s.steps.reduce((n, c) => n + widthOf(c), 0));
  for (const s of walk(root)) {
    const w = widthOf(s);
    if (w > limits.maxWidth) throw new RonError(s.at, `this ${s.kind} would run ${w} sub-agents at once; at most ${limits.maxWidth} may run at once per session`);
  }
  return { name, root, agents, width: widthOf(root) };
}

/** Innermost steps first, so a refusal names the Parallel that is too wide, not its parents. */
function* walk(s: Step): Generator<Step> {
  if (s.kind !== "Agent") for (const c of s.steps) yield* walk(c);
  yield s;
}
