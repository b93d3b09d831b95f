// workflow against the SCRIPTED model server (test/agents/scripted-model.global.mjs): every
// Agent step is a real sub-agent loop whose tool calls go through the session's dispatch and log.
import { describe, expect, inject, it } from "vitest";
import { api, newSession, tool } from "../helpers";

const modelServer = inject("scriptedModel");

async function chatRequests(): Promise<any[]> {
  const all = (await (await fetch(`${modelServer}/requests`)).json()) as any[];
  return all.filter((r) => r.endpoint === "chat");
}

/** Chat requests whose body holds `mark`: a test counts only its own, as other files run at once. */
async function chatRequestsWith(mark: string): Promise<any[]> {
  return (await chatRequests()).filter((q) => JSON.stringify(q.body).includes(mark));
}

const agent = (name: string, prompt: string, tools: string[], extra = "") =>
  `Agent(name: "${name}", prompt: "${prompt}", tools: [${tools.map((t) => `"${t}"`).join(", ")}]${extra})`;

describe("workflow", () => {
  it("runs a Pipeline of two Agents, then a Parallel of two on its output; results mirror the document", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "notes.txt", content: "alpha\nbeta\n" });
    const doc = `// two stages
Workflow(
  name: "review",
  steps: [
    Pipeline([
      ${agent("gather", "[script:files] read notes.txt", ["read_file", "bash"])},
      ${agent("summarise", "[script:echo] summarise: {input}", ["read_file"])},
    ]),
    Parallel(name: "checks", steps: [
      ${agent("left", "[script:echo] left", ["read_file"])},
      ${agent("right", "[script:echo] right", ["grep"], ", max_turns: 2")},
    ]),
  ],
)`;
    const r = await tool(id, "workflow", { workflow: doc });
    expect(r.success).toBe(true);
    expect(r.workflow).toBe("review");
    const [pipe, par] = r.steps;
    expect(pipe).toMatchObject({ kind: "Pipeline", name: "pipeline-1", success: true });
    const [gather, summarise] = pipe.steps;
    expect(gather).toMatchObject({ kind: "Agent", name: "gather", success: true, turns: 3, toolCalls: 3 });
    expect(gather.output).toMatch(/^REPORT /);
    expect(gather.output).toContain("alpha");
    // The second step got the first one's report in place of {input}.
    expect(summarise.output).toBe(`ECHO: [script:echo] summarise: ${gather.output}`);
    expect(pipe.output).toBe(summarise.output);
    // Both Parallel steps got the Pipeline's output, appended to their prompt.
    expect(par).toMatchObject({ kind: "Parallel", name: "checks", success: true });
    expect(par.steps.map((s: any) => s.name)).toEqual(["left", "right"]);
    expect(par.steps[0].output).toBe(`ECHO: [script:echo] left\n\n## Input from the previous step\n${summarise.output}`);
    expect(par.steps[1].output).toBe(`ECHO: [script:echo] right\n\n## Input from the previous step\n${summarise.output}`);
    expect(par.output).toBe(`## left\n${par.steps[0].output}\n\n## right\n${par.steps[1].output}`);
    expect(r.output).toBe(`Workflow 'review' done.\n\n${par.output}`);

    // Each sub-agent's calls are in the log under its own task id; the refusal too.
    const tasks = [gather, summarise, ...par.steps].map((s: any) => s.task);
    expect(new Set(tasks).size).toBe(4);
    const log = (await api("GET", `/v1/sessions/${id}/log`)).body.calls as any[];
    expect(
      log
        .filter((c) => c.task === gather.task)
        .reverse()
        .map((c) => [c.tool, c.outcome]),
    ).toEqual([
      ["read_file", "ok"],
      ["bash", "ok"],
      ["write_file", "denied"],
    ]);
    // The model saw exactly each step's tools.
    const seen = await chatRequests();
    const right = seen.find((q) => q.body.messages[1].content.startsWith("[script:echo] right"));
    expect(right.body.tools.map((t: any) => t.function.name)).toEqual(["grep"]);
  });

  it("runs Parallel steps side by side", async () => {
    const id = await newSession();
    const started = Date.now();
    const r = await tool(id, "workflow", {
      workflow: `Workflow(name: "fan", steps: [Parallel([${agent("a", "[script:slow] a", ["read_file"])}, ${agent("b", "[script:slow] b", ["read_file"])}, ${agent("c", "[script:slow] c", ["read_file"])}])])`,
    });
    const took = Date.now() - started;
    expect(r.success).toBe(true);
    expect(r.steps[0].steps.map((s: any) => s.output)).toEqual(["slow report", "slow report", "slow report"]);
    expect(took).toBeLessThan(4000); // one after the other would be 4.5 s
  });

  it("stops a Pipeline at a failed step and names what was skipped", async () => {
    const id = await newSession();
    const mark = crypto.randomUUID();
    const r = await tool(id, "workflow", {
      workflow: `Workflow(name: "halt", steps: [${agent("first", "[script:ratelimited] go", ["read_file"])}, ${agent("second", `[script:echo] never ${mark}`, ["read_file"])}])`,
    });
    expect(r.success).toBe(false);
    expect(r.error).toContain("Workflow 'halt' failed at step 'first': The model provider is rate limiting requests (HTTP 429). Retry after 7 s.");
    expect(r.skipped).toEqual(["second"]);
    expect(r.steps).toHaveLength(1);
    expect(await chatRequestsWith(mark)).toEqual([]);
  });

  const refused: [string, string, string][] = [
    [
      "a syntax error",
      `Workflow(name: "x",\n  steps: [${agent("a", "[script:echo] a", ["read_file"])}\n  ${agent("b", "[script:echo] b", ["read_file"])}])`,
      "The workflow was not run: line 3, column 3: expected ',' or ']' in a list, found 'A'",
    ],
    ["an unknown tool", `Workflow(name: "x", steps: [${agent("a", "[script:echo] a", ["read_file", "teleport"])}])`, "'teleport' is not a tool of this session"],
    [
      "a document over 64 KiB",
      `Workflow(name: "x", steps: [${agent("a", `[script:echo] ${"y".repeat(70_000)}`, ["read_file"])}])`,
      "The workflow was not run: line 1, column 1: the workflow is 70",
    ],
    [
      "nesting over 24 levels",
      `Workflow(name: "x", steps: [${"Pipeline([".repeat(12)}${agent("a", "[script:echo] a", ["read_file"])}${"])".repeat(12)}])`,
      "nests more than 24 levels deep",
    ],
  ];
  it.each(refused)("refuses %s before any sub-agent runs", async (_name, doc, message) => {
    const id = await newSession();
    const mark = crypto.randomUUID().slice(0, 8);
    const r = await tool(id, "workflow", { workflow: doc.replaceAll("[script:echo]", `[script:echo] ${mark}`) });
    expect(r.success).toBe(false);
    expect(r.error).toContain(message);
    expect(await chatRequestsWith(mark)).toEqual([]);
    const log = (await api("GET", `/v1/sessions/${id}/log`)).body.calls as any[];
    expect(log.filter((c) => c.task)).toEqual([]);
  });

  it("takes its slots from the session's 5 and refuses a workflow that would exceed them", async () => {
    const id = await newSession();
    const four = tool(id, "delegate", { tasks: Array.from({ length: 4 }, (_, i) => ({ prompt: `[script:slow] ${i}`, tools: ["read_file"] })) });
    await new Promise((r) => setTimeout(r, 400));
    const r = await tool(id, "workflow", {
      workflow: `Workflow(name: "two", steps: [Parallel([${agent("a", "[script:echo] a", ["read_file"])}, ${agent("b", "[script:echo] b", ["read_file"])}])])`,
    });
    expect(r.success).toBe(false);
    expect(r.error).toContain("This workflow runs up to 2 sub-agent(s) at once");
    expect((await four).success).toBe(true);
    const after = await tool(id, "workflow", { workflow: `Workflow(name: "one", steps: [${agent("a", "[script:echo] a", ["read_file"])}])` });
    expect(after.success).toBe(true);
  });

  it("is Workflow in wayland-core, with the profile's own tool names", async () => {
    const id = await newSession(undefined, { profile: "wayland-core" });
    const ok = await tool(id, "Workflow", { workflow: `Workflow(name: "w", steps: [${agent("a", "[script:echo] hi", ["Read", "Grep"])}])` });
    expect(ok.success).toBe(true);
    expect(ok.steps[0].output).toBe("ECHO: [script:echo] hi");
    const no = await tool(id, "Workflow", { workflow: `Workflow(name: "w", steps: [${agent("a", "[script:echo] hi", ["read_file"])}])` });
    expect(no.error).toContain("'read_file' is not a tool of this session; choose among Read, Write, Edit, Bash, Grep, Glob, WebFetch, ToolSearch.");
    const nested = await tool(id, "Workflow", { workflow: `Workflow(name: "w", steps: [${agent("a", "[script:echo] hi", ["Workflow"])}])` });
    expect(nested.error).toContain("a sub-agent cannot be given 'Workflow'");
  });
});
