import { describe, expect, it } from "vitest";
import { api, newSession, tool } from "../helpers";

const GITHUB_SKILL = `---
name: github
description: "Work with GitHub: open pull requests, read issues."
---

# GitHub

Run \`sh \${SKILL_DIR}/scripts/pr.sh\` to open a pull request; notes in {baseDir}/notes.md.
`;

async function readSkillDescription(id: string): Promise<string> {
  const r = await api("GET", `/v1/sessions/${id}/tools`);
  expect(r.status).toBe(200);
  return r.body.tools.find((t: { name: string }) => t.name === "read_skill").description;
}

describe("read_skill", () => {
  it("reads an operator skill bundled with the Worker, installs its files, and they run", async () => {
    const id = await newSession();
    expect(await readSkillDescription(id)).toMatch(/Available skills:\n- workspace-report: Summarise what a Toolshed workspace holds/);
    const r = await tool(id, "read_skill", { skill_name: "workspace-report" });
    expect(r.success).toBe(true);
    expect(r).toMatchObject({
      name: "workspace-report",
      source: "operator",
      base_dir: "/workspace/.skills/workspace-report",
      files: ["report.sh", "templates/summary.md"],
    });
    expect(r.content).toContain("`sh /workspace/.skills/workspace-report/report.sh > report.md`");
    expect(r.content).not.toContain("{baseDir}");
    expect(r.output).toBe(r.content);

    await tool(id, "write_file", { path: "src/a.ts", content: "export {};\n" });
    await tool(id, "write_file", { path: "src/b.ts", content: "export const b = 1;\n" });
    const run = await tool(id, "bash", { command: "sh /workspace/.skills/workspace-report/report.sh" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^# Workspace report\n/);
    expect(run.stdout).toMatch(/\s2 ts\n/);
    const template = await tool(id, "read_file", { path: `${r.base_dir}/templates/summary.md` });
    expect(template.output).toContain("## Summary");
  });

  it("reads a workspace skill with its base directory resolved, listed for its own session only", async () => {
    const id = await newSession();
    const other = await newSession();
    await tool(id, "write_file", { path: "skills/github/SKILL.md", content: GITHUB_SKILL });
    await tool(id, "write_file", { path: "skills/github/scripts/pr.sh", content: "echo pr\n" });
    expect(await readSkillDescription(id)).toContain("- github: Work with GitHub: open pull requests, read issues.");
    expect(await readSkillDescription(other)).not.toContain("github");
    const r = await tool(id, "read_skill", { skill_name: "github" });
    expect(r).toMatchObject({ success: true, source: "workspace", base_dir: "/workspace/skills/github", files: ["scripts/pr.sh"] });
    expect(r.content).toContain("Run `sh /workspace/skills/github/scripts/pr.sh` to open a pull request; notes in /workspace/skills/github/notes.md.");
    const missing = await tool(other, "read_skill", { skill_name: "github" });
    expect(missing.success).toBe(false);
    expect(missing.error).toMatch(/No skill named 'github'. Available: workspace-report\./);
  });

  const broken: [label: string, skillMd: string, problem: RegExp][] = [
    ["no front matter", "# Just a title\n", /does not start with YAML front matter/],
    ["invalid YAML", "---\nname: [unclosed\n---\n", /not valid YAML/],
    ["a name with capitals", "---\nname: Bad_Name\ndescription: x\n---\n", /name: lower-case letters, digits and hyphens/],
    ["no description", "---\nname: nodesc\n---\n", /description/],
    ["an operator skill's name", "---\nname: workspace-report\ndescription: mine\n---\n", /the name 'workspace-report' is already taken/],
  ];
  it.each(broken)("explains a skill folder with %s", async (_label, skillMd, problem) => {
    const id = await newSession();
    await tool(id, "write_file", { path: "skills/broken/SKILL.md", content: skillMd });
    const r = await tool(id, "read_skill", { skill_name: "broken" });
    expect(r.success).toBe(false);
    expect(r.error).toMatch(/Skills that could not be loaded: skills\/broken: /);
    expect(r.error).toMatch(problem);
    expect(await readSkillDescription(id)).not.toContain("broken");
  });

  it("keeps the static description in GET /v1/tools", async () => {
    const r = await api("GET", "/v1/tools");
    const t = r.body.tools.find((x: { name: string }) => x.name === "read_skill");
    expect(t.description).toContain("GET /v1/sessions/:id/tools");
    expect(t.parameters.required).toEqual(["skill_name"]);
  });
});
