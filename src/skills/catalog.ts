import type { GuardedFs } from "../policy/guarded-fs";
import { baseName, joinPath, ROOT } from "../vfs/paths";
import { BUNDLED_SKILLS } from "./bundled.gen";
import { parseSkillHeader, resolveSkillVariables, type SkillHeader } from "./skill-file";
import { LIMITS } from "../limits";

/** Where the workspace's own skills live, and where operator skills are installed when read. */
const WORKSPACE_SKILLS = `${ROOT}/skills`;
const INSTALLED_SKILLS = `${ROOT}/.skills`;
const MAX_SKILL_MD_BYTES = LIMITS.skillBytes;

export interface SkillEntry extends SkillHeader {
  source: "operator" | "workspace";
  /** Operator skills: the bundle key; workspace skills: the folder's absolute path. */
  location: string;
}

export interface Catalog {
  skills: SkillEntry[];
  /** Skill folders that could not be used, with why. */
  problems: string[];
}

/**
 * The skills a session can read: the operator's (bundled with the Worker) first, then the
 * workspace's `skills/<folder>/SKILL.md`. On a name clash the operator's skill wins.
 */
export function skillCatalog(fs: GuardedFs, bundled = BUNDLED_SKILLS): Catalog {
  const skills: SkillEntry[] = [];
  const problems: string[] = [];
  const taken = new Set<string>();
  for (const [key, files] of Object.entries(bundled)) {
    const header = parseSkillHeader(files["SKILL.md"] ?? "");
    if (typeof header === "string") problems.push(`operator skill ${key}: ${header}`);
    else if (!taken.has(header.name)) {
      taken.add(header.name);
      skills.push({ ...header, source: "operator", location: key });
    }
  }
  const dir = fs.stat(WORKSPACE_SKILLS);
  if (dir?.kind === "dir") {
    for (const folder of fs.readdir(WORKSPACE_SKILLS)) {
      if (folder.kind !== "dir") continue;
      const md = joinPath(folder.path, "SKILL.md");
      const info = fs.stat(md);
      if (!info || info.kind !== "file") continue;
      const where = `skills/${baseName(folder.path)}`;
      if (info.size > MAX_SKILL_MD_BYTES) {
        problems.push(`${where}: SKILL.md is larger than ${MAX_SKILL_MD_BYTES} bytes.`);
        continue;
      }
      const header = parseSkillHeader(new TextDecoder().decode(fs.readFile(md)));
      if (typeof header === "string") problems.push(`${where}: ${header}`);
      else if (taken.has(header.name)) problems.push(`${where}: the name '${header.name}' is already taken by another skill.`);
      else {
        taken.add(header.name);
        skills.push({ ...header, source: "workspace", location: folder.path });
      }
    }
  }
  return { skills, problems };
}

export interface LoadedSkill {
  name: string;
  description: string;
  source: SkillEntry["source"];
  /** SKILL.md with its variables resolved. */
  content: string;
  /** The skill's folder in the workspace, where its bundled files can be read and run. */
  base_dir: string;
  /** Its other files, relative to base_dir. */
  files: string[];
}

/**
 * Reads one skill. An operator skill is first installed (its files written, when changed)
 * under /workspace/.skills/<name>, so that its scripts and references are reachable by
 * every tool.
 */
export function loadSkill(fs: GuardedFs, entry: SkillEntry, bundled = BUNDLED_SKILLS): LoadedSkill {
  let baseDir: string;
  let text: string;
  let files: string[];
  if (entry.source === "operator") {
    baseDir = joinPath(INSTALLED_SKILLS, entry.name);
    const bundle = bundled[entry.location]!;
    for (const [rel, body] of Object.entries(bundle)) {
      const path = `${baseDir}/${rel}`;
      const now = fs.stat(path);
      if (now?.kind === "file" && now.size === new TextEncoder().encode(body).length && new TextDecoder().decode(fs.readFile(path)) === body) continue;
      fs.writeFile(path, body, { createParents: true });
    }
    text = bundle["SKILL.md"]!;
    files = Object.keys(bundle)
      .filter((f) => f !== "SKILL.md")
      .sort();
  } else {
    baseDir = entry.location;
    text = new TextDecoder().decode(fs.readFile(joinPath(baseDir, "SKILL.md")));
    files = fs
      .walk(baseDir)
      .filter((n) => n.kind === "file" && n.path !== joinPath(baseDir, "SKILL.md"))
      .map((n) => n.path.slice(baseDir.length + 1))
      .sort();
  }
  return { name: entry.name, description: entry.description, source: entry.source, content: resolveSkillVariables(text, baseDir), base_dir: baseDir, files };
}
