// The workflow document reader (src/agents/workflow/): RON values, the size and depth guard run
// before parsing, and the step plan checked against a session's tools. Table-driven.
import { describe, expect, it } from "vitest";
import type { FunctionTool } from "../../src/agents/model";
import { refusedSubAgentTool } from "../../src/agents/run";
import { planWorkflow } from "../../src/agents/workflow/plan";
import { checkRonLimits, parseRon, RonError } from "../../src/agents/workflow/ron";
import { WORKFLOW_EXAMPLE } from "../../src/tools/agents/workflow";

const SERVED = new Map(["read_file", "write_file", "bash", "grep", "delegate"].map((n) => [n, {} as FunctionTool]));
const session = { tools: () => SERVED, canonical: () => undefined };
const LIMITS = { maxAgents: 20, maxWidth: 5, maxTurns: 50, defaultTurns: 15 };
const RON_LIMITS = { maxBytes: 64 * 1024, maxDepth: 24 };

function plan(text: string) {
  checkRonLimits(text, RON_LIMITS);
  return planWorkflow(parseRon(text), (tool) => refusedSubAgentTool(session, tool), LIMITS);
}

const agent = (name: string, extra = "") => `Agent(name: "${name}", prompt: "p", tools: ["read_file"]${extra})`;
const wf = (steps: string) => `Workflow(name: "w", steps: [${steps}])`;

describe("RON values", () => {
  const values: [string, string, unknown][] = [
    ["a string with Rust escapes", String.raw`"a\n\t\"q\" \\ \u{e9}\x41"`, 'a\n\t"q" \\ éA'],
    ["a raw string", 'r#"say "hi" {input}"#', 'say "hi" {input}'],
    ["a raw string without hashes", 'r"C:\\dir"', "C:\\dir"],
    ["numbers", "[1, -2, 3.5, 1_000, 2e3]", [1, -2, 3.5, 1000, 2000]],
    ["booleans and units", "[true, false, None, ()]", [true, false, "None", null]],
    ["a tuple struct", "Some(5)", { name: "Some", items: [5] }],
    ["a map", '{"a": 1}', { a: 1 }],
    ["comments, nested ones too, and trailing commas", "/* a /* nested */ comment */ [1, // one\n 2,]", [1, 2]],
    ["an enable attribute", "#![enable(implicit_some)]\n[1]", [1]],
  ];
  const plain = (v: any): unknown => {
    switch (v.kind) {
      case "list":
        return v.items.map(plain);
      case "map":
        return Object.fromEntries(v.entries.map(([k, x]: any) => [plain(k), plain(x)]));
      case "tuple":
        return { name: v.name, items: v.items.map(plain) };
      case "unit":
        return v.name;
      default:
        return v.value;
    }
  };
  it.each(values)("reads %s", (_name, text, expected) => {
    expect(plain(parseRon(text))).toEqual(expected);
  });
});

describe("valid workflows", () => {
  it("plans the tool's own example: a Pipeline of two Agents, then a Parallel of two", () => {
    const p = plan(WORKFLOW_EXAMPLE);
    expect(p).toMatchObject({ name: "notes", agents: 4, width: 2 });
    const [pipe, par] = (p.root as any).steps;
    expect(pipe.kind).toBe("Pipeline");
    expect(pipe.steps.map((s: any) => [s.name, s.tools, s.maxTurns])).toEqual([
      ["collect", ["grep", "read_file"], 15],
      ["write", ["write_file"], 5],
    ]);
    expect(par.kind).toBe("Parallel");
    expect(par.steps.map((s: any) => s.name)).toEqual(["check", "count"]);
  });

  it("takes the named-field forms, Some/None for max_turns and raw multi-line prompts", () => {
    const p = plan(`Workflow(
      name: "w",
      steps: [
        Parallel(name: "both", steps: [
          Pipeline(steps: [${agent("a", ", max_turns: Some(3)")}, ${agent("b", ", max_turns: None")}]),
          Agent(name: "c", prompt: r#"line one
line "two""#, tools: ["bash", "bash"]),
        ]),
      ],
    )`);
    const par = (p.root as any).steps[0];
    expect(par.name).toBe("both");
    expect(par.steps[0].steps.map((s: any) => s.maxTurns)).toEqual([3, 15]);
    expect(par.steps[1]).toMatchObject({ prompt: 'line one\nline "two"', tools: ["bash"] });
    expect(p.width).toBe(2);
  });
});

// Every error names its line and column, says what was wrong and what is expected.
const errors: [string, string, string][] = [
  ["an empty document", "  // nothing\n", "line 2, column 1: the workflow is empty"],
  ["an unclosed string", 'Workflow(name: "w', `line 1, column 16: this string is never closed with "`],
  ["a missing comma", 'Workflow(name: "w"\n  steps: [])', "line 2, column 3: expected ',' or ')' after the field 'name', found 's'"],
  ["an unknown escape", 'Workflow(name: "a\\qb")', "line 1, column 18: unknown escape '\\q' in a string"],
  ["an unclosed comment", "/* open\n[1]", "line 1, column 1: this comment is never closed with */"],
  ["an unclosed list", wf(agent("a")).slice(0, -2), "expected ',' or ']' in a list, found the end of the text"],
  ["text after the value", `${wf(agent("a"))} extra`, "line 1, column 83: unexpected 'e' after the end of the value"],
  ["a character literal", "['x']", "line 1, column 2: character literals are not used in a workflow"],
  ["a field given twice", 'Workflow(name: "a", name: "b", steps: [])', "line 1, column 21: the field 'name' is given twice"],
  ["a bad number", "[12abc]", "line 1, column 4: unexpected 'a' in a number"],
  ["another root", agent("a"), 'line 1, column 1: a workflow document is Workflow(name: "...", steps: [...]), found Agent(...)'],
  ["an unknown field", wf(agent("a", ", tool: 1")), "line 1, column 81: Agent has no field 'tool'; its fields are name, prompt, tools, max_turns"],
  ["a missing prompt", wf('Agent(name: "a", tools: ["bash"])'), "line 1, column 29: Agent needs the field 'prompt'"],
  [
    "an unknown tool",
    wf('Agent(name: "a", prompt: "p",\n tools: ["bash", "teleport"])'),
    "line 2, column 18: Agent 'a': 'teleport' is not a tool of this session; choose among read_file, write_file, bash, grep.",
  ],
  [
    "a tool that starts sub-agents",
    wf('Agent(name: "a", prompt: "p", tools: ["delegate"])'),
    "Agent 'a': a sub-agent cannot be given 'delegate' (sub-agents do not start sub-agents and wait for them).",
  ],
  ["no tools", wf('Agent(name: "a", prompt: "p", tools: [])'), "Agent 'a': tools must be a non-empty list of tool names"],
  ["a turn cap above 50", wf(agent("a", ", max_turns: 51")), "Agent 'a': max_turns must be a whole number from 1 to 50"],
  ["a name used twice", wf(`${agent("a")}, ${agent("a")}`), "the step name 'a' is used twice"],
  ["a step that is not one", wf('"just text"'), "line 1, column 29: expected a step (Agent(...), Pipeline(...) or Parallel(...)), found a string"],
  ["an empty Parallel", wf("Parallel([])"), "line 1, column 38: Parallel: steps must be a non-empty list"],
  [
    "six agents at once",
    wf(`Parallel([${[1, 2, 3, 4, 5, 6].map((i) => agent(`a${i}`)).join(", ")}])`),
    "line 1, column 29: this Parallel would run 6 sub-agents at once; at most 5 may run at once per session",
  ],
  ["21 agents", wf(Array.from({ length: 21 }, (_, i) => agent(`a${i}`)).join(", ")), "the workflow has more than 20 Agent steps"],
  [
    "a document over 64 KiB, refused before parsing",
    `Workflow(name: "${"x".repeat(70_000)}" @@@`,
    "line 1, column 1: the workflow is 70021 bytes; at most 65536 are accepted",
  ],
  ["nesting deeper than 24, refused before parsing", `${"[".repeat(30)} @@@`, "line 1, column 25: the workflow nests more than 24 levels deep"],
];

describe("refused workflows", () => {
  it.each(errors)("%s", (_name, text, message) => {
    let err: unknown;
    try {
      plan(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RonError);
    expect((err as Error).message).toContain(message);
    expect((err as Error).message).toMatch(/^line \d+, column \d+: /);
  });

  it("brackets inside strings and comments do not count toward the depth", () => {
    expect(() => checkRonLimits(`["${"[".repeat(40)}", /* ${"(".repeat(40)} */ r#"${"{".repeat(40)}"#]`, RON_LIMITS)).not.toThrow();
  });
});
