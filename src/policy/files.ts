import { deny } from "./denied";
import { globToRegExp } from "../lib/glob";
import { baseName, relativeToRoot } from "../vfs/paths";

/** Names whose contents no tool may read or serve: secrets and the agent's own database. */
const SENSITIVE_NAMES = [/^\.env$/, /^\.env\..*$/, /^agent\.db$/, /^agent\.db-shm$/, /^agent\.db-wal$/];

/** The agent's identity: readable, never changed through a tool. */
const IDENTITY_FILES = new Set(["SOUL.md", "IDENTITY.md", "USER.md"]);

export class FileRules {
  private readonly operatorGlobs: RegExp[];

  /** `sensitiveGlobs`: the operator's extra globs, matched against the name and the workspace-relative path. */
  constructor(sensitiveGlobs: string[] = []) {
    this.operatorGlobs = sensitiveGlobs.map((g) => globToRegExp(g));
  }

  static fromEnv(value: string | undefined): FileRules {
    const globs = (value ?? "")
      .split(",")
      .map((g) => g.trim())
      .filter(Boolean);
    return new FileRules(globs);
  }

  isSensitive(path: string): boolean {
    const name = baseName(path);
    const rel = relativeToRoot(path);
    return SENSITIVE_NAMES.some((re) => re.test(name)) || this.operatorGlobs.some((re) => re.test(name) || re.test(rel));
  }

  /** Refuses reading or serving the contents of a sensitive file. */
  checkRead(path: string): void {
    if (this.isSensitive(path)) this.denySensitive(path);
  }

  /**
   * Refuses changing what a file holds (write, truncate, append, replace): an identity file
   * always, a sensitive file once it holds anything. Creating a sensitive file, or filling an
   * empty one, is allowed: nothing is read and nothing the operator put there changes (so
   * `git clone` of a repository with a `.env.example` still works). `holdsData` is asked only
   * for a sensitive path.
   */
  checkWrite(path: string, holdsData: () => boolean, action = "written"): void {
    this.checkMutate(path, action);
    if (this.isSensitive(path) && holdsData()) this.denySensitive(path);
  }

  /** Refuses a move that would take a sensitive file out of protection (`.env` renamed `env.txt`). */
  checkMove(from: string, to: string): void {
    if (this.isSensitive(from) && !this.isSensitive(to)) this.denySensitive(from);
  }

  /** One sentence for every door and every kind of access. */
  private denySensitive(path: string): never {
    return deny("sensitive-file", `'${relativeToRoot(path)}' is a protected file (secrets or agent database); no tool can read, serve or change its contents.`);
  }

  isIdentity(path: string): boolean {
    return IDENTITY_FILES.has(baseName(path));
  }

  /** Refuses writing, editing, moving or deleting an identity file. */
  checkMutate(path: string, action: string): void {
    if (this.isIdentity(path)) {
      deny("identity-file", `'${relativeToRoot(path)}' is an identity file; it is readable but cannot be ${action} through any tool.`);
    }
  }
}
