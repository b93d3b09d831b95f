import { z } from "zod";
import { skillCatalog, loadSkill } from "../../skills/catalog";
import { ToolError } from "../result";
import { defineTool, type ToolContext } from "../types";

const params = z.object({
  skill_name: z.string().min(1).max(64).describe("Name of the skill to read"),
});

const BASE =
  "Read the full content of an installed skill (its SKILL.md, with {baseDir} resolved) and the directory holding its bundled files (scripts, templates, references), which the other tools can read and run.";
/** The listing in the description stays short; read_skill finds every skill anyway. */
const LISTED_SKILLS = 50;

export const readSkill = defineTool({
  name: "read_skill",
  description: `${BASE} The skills of a session are listed in its tool descriptions (GET /v1/sessions/:id/tools).`,
  describe(ctx: ToolContext, base = BASE): string {
    const { skills } = skillCatalog(ctx.fs);
    if (skills.length === 0) return `${base} No skills are installed in this session.`;
    const lines = skills.slice(0, LISTED_SKILLS).map((s) => `- ${s.name}: ${s.description.length > 200 ? `${s.description.slice(0, 197)}...` : s.description}`);
    if (skills.length > LISTED_SKILLS) lines.push(`- ... and ${skills.length - LISTED_SKILLS} more`);
    return `${base}\n\nAvailable skills:\n${lines.join("\n")}`;
  },
  params,
  // Reading an operator skill installs its files into the workspace.
  readOnly: false,
  run(ctx, args) {
    const catalog = skillCatalog(ctx.fs);
    const entry = catalog.skills.find((s) => s.name === args.skill_name);
    if (!entry) {
      const known = catalog.skills.map((s) => s.name).join(", ") || "none";
      const broken = catalog.problems.length ? ` Skills that could not be loaded: ${catalog.problems.join(" ")}` : "";
      throw new ToolError(`No skill named '${args.skill_name}'. Available: ${known}. Workspace skills live in skills/<name>/SKILL.md.${broken}`);
    }
    const skill = loadSkill(ctx.fs, entry);
    return { success: true, output: skill.content, ...skill };
  },
});
