import type { Repo } from "./repo";

/**
 * git's config files read and written here (isomorphic-git keeps no global file and lists
 * nothing): the repository's `.git/config`, and `--global` as `$HOME/.gitconfig` in the
 * workspace. The format is git's own (`[section "sub"]`, tab-indented `key = value`).
 */

interface Line {
  /** `section.sub` (section lower-cased) for a header, or the key's full name for a value. */
  section: string;
  key?: string;
  value?: string;
  text: string;
}

const unquote = (v: string) => {
  v = v.trim();
  let out = "";
  let inQuote = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') inQuote = !inQuote;
    else if (c === "\\" && i + 1 < v.length) {
      const n = v[++i]!;
      out += n === "n" ? "\n" : n === "t" ? "\t" : n;
    } else if ((c === "#" || c === ";") && !inQuote) break;
    else out += c;
  }
  return out.trim();
};

function parse(text: string): Line[] {
  const lines: Line[] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    const t = raw.trim();
    const h = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(t);
    if (h) {
      section = h[1]!.toLowerCase() + (h[2] !== undefined ? `.${h[2]}` : "");
      lines.push({ section, text: raw });
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(t);
    if (kv && section) lines.push({ section, key: `${section}.${kv[1]!.toLowerCase()}`, value: kv[2] === undefined ? "true" : unquote(kv[2]), text: raw });
    else lines.push({ section, text: raw });
  }
  return lines;
}

/** `a.b.c` → section `a.b` and key `c` (the key part lower-cased, as git compares). */
function splitKey(key: string): { section: string; name: string } | null {
  const i = key.lastIndexOf(".");
  const j = key.indexOf(".");
  if (j <= 0 || i === key.length - 1) return null;
  const section = key.slice(0, j).toLowerCase() + (i > j ? `.${key.slice(j + 1, i)}` : "");
  return { section, name: key.slice(i + 1).toLowerCase() };
}

function normalizeKey(key: string): string {
  const s = splitKey(key);
  return s ? `${s.section}.${s.name}` : key;
}

class ConfigFile {
  constructor(
    private readonly repo: Repo,
    readonly path: string,
  ) {}

  private async text(): Promise<string> {
    try {
      return (await this.repo.fs.promises.readFile(this.path, "utf8")) as string;
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return "";
      throw e;
    }
  }

  async entries(): Promise<[string, string][]> {
    return parse(await this.text()).flatMap((l) => (l.key ? [[l.key, l.value!] as [string, string]] : []));
  }

  async get(key: string): Promise<string | undefined> {
    const k = normalizeKey(key);
    const all = (await this.entries()).filter(([n]) => n === k);
    return all.length ? all[all.length - 1]![1] : undefined;
  }

  /** Sets (replaces the last) or, with `value` undefined, removes a key. */
  async set(key: string, value: string | undefined): Promise<boolean> {
    const s = splitKey(key)!;
    const k = `${s.section}.${s.name}`;
    const lines = parse(await this.text());
    let idx = -1;
    lines.forEach((l, i) => {
      if (l.key === k) idx = i;
    });
    const quoted = value === undefined ? "" : /^\s|\s$|[#;"\\]/.test(value) ? `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : value;
    const name = key.slice(key.lastIndexOf(".") + 1);
    if (value === undefined) {
      if (idx < 0) return false;
      lines.splice(idx, 1);
    } else if (idx >= 0) {
      lines[idx] = { ...lines[idx]!, text: `\t${name} = ${quoted}` };
    } else {
      let last = -1;
      lines.forEach((l, i) => {
        if (l.section === s.section) last = i;
      });
      const entry = { section: s.section, text: `\t${name} = ${quoted}` };
      if (last >= 0) lines.splice(last + 1, 0, entry);
      else {
        const dot = s.section.indexOf(".");
        const header = dot < 0 ? `[${s.section}]` : `[${s.section.slice(0, dot)} "${s.section.slice(dot + 1)}"]`;
        while (lines.length && lines[lines.length - 1]!.text === "") lines.pop();
        lines.push({ section: s.section, text: header }, entry);
      }
    }
    let text = lines.map((l) => l.text).join("\n");
    if (!text.endsWith("\n")) text += "\n";
    await this.repo.fs.promises.writeFile(this.path, text);
    return true;
  }
}

export const globalConfig = (repo: Repo) => new ConfigFile(repo, `${repo.env.HOME || "/workspace"}/.gitconfig`);
export const localConfig = (repo: Repo) => new ConfigFile(repo, `${repo.gitdir}/config`);

/** A value as git finds it: the repository's file over the global one. */
export async function configValue(repo: Repo, key: string): Promise<string | undefined> {
  if (repo.gitdir) {
    const v = await localConfig(repo)
      .get(key)
      .catch(() => undefined);
    if (v !== undefined) return v;
  }
  return globalConfig(repo)
    .get(key)
    .catch(() => undefined);
}
