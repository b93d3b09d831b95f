import { deny } from "./denied";
import { globToRegExp } from "../lib/glob";
import { baseName, relativeToRoot } from "../vfs/paths";

/** Names whose contents no tool may read or serve: secrets and the agent's own database. */
const SENSITIVE_NAMES = [/^\.env$/, /^\.env\..*$/, /^agent\.db$/, /^agent\.db-shm$/, /^agent\.db-wal$/];

/** The agent's identity: readable, never changed through a tool. */
export const IDENTITY_FILES = new Set(["SOUL.md", "IDENTITY.md", "USER.md"]);

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
    return (
      SENSITIVE_NAMES.some((re) => re.test(name)) ||
      this.operatorGlobs.some((re) => re.test(name) || re.test(rel))
    );
  }

  /** Refuses reading or serving the contents of a sensitive file. */
  checkRead(path: string): void {
    if (this.isSensitive(path)) {
      deny(
        "sensitive-file",
        `'${relativeToRoot(path)}' is a protected file (secrets or agent database); its contents cannot be read or served by any tool.`,
      );
    }
  }

  isIdentity(path: string): boolean {
    return IDENTITY_FILES.has(baseName(path));
  }

  /** Refuses writing, editing, moving or deleting an identity file. */
  checkMutate(path: string, action: string): void {
    if (this.isIdentity(path)) {
      deny(
        "identity-file",
        `'${relativeToRoot(path)}' is an identity file; it is readable but cannot be ${action} through any tool.`,
      );
    }
  }
}
