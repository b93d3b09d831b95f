import { parse } from "yaml";
import { z } from "zod";

/** Agent Skills names: lower-case letters, digits and hyphens, at most 64 characters. */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

const frontMatter = z.object({
  name: z.string().regex(SKILL_NAME, "lower-case letters, digits and hyphens, at most 64 characters"),
  description: z.string().min(1).max(1024),
});

export interface SkillHeader {
  name: string;
  description: string;
}

/** The YAML front matter of a SKILL.md, or a sentence saying what is wrong with it. */
export function parseSkillHeader(text: string): SkillHeader | string {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text.replace(/^\uFEFF/, ""));
  if (!m) return "SKILL.md does not start with YAML front matter (a '---' line, name and description, a '---' line).";
  let data: unknown;
  try {
    data = parse(m[1]!);
  } catch (e) {
    return `SKILL.md front matter is not valid YAML (${(e as Error).message.split("\n")[0]}).`;
  }
  const r = frontMatter.safeParse(data);
  if (!r.success) return `SKILL.md front matter: ${r.error.issues.map((i) => `${i.path.join(".") || "(front matter)"}: ${i.message}`).join("; ")}.`;
  return { name: r.data.name, description: r.data.description.trim() };
}

/** `{baseDir}` and `${SKILL_DIR}` in a skill's text name its installed folder. */
export const resolveSkillVariables = (text: string, baseDir: string): string => text.replaceAll("{baseDir}", baseDir).replaceAll("${SKILL_DIR}", baseDir);
