// The node table (issue 25): every case of cases.mjs runs through the bash tool with the
// session's `node` (QuickJS) in /workspace/<case>, and must print what Debian's node printed in
// reference.global.mjs: stdout, stderr and exit code equal. A case with `known` is a difference
// that comes from the engine, compared as its `compare` says ("error-line": same exit code and
// stdout, and Node's error line in our stderr; "exit": same exit code; "none": only run).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";
import { CASES } from "./cases.mjs";

const ref = inject("nodeReference");
let session = "";

beforeAll(async () => {
  session = await newSession();
}, 60_000);

/** The line of Node's stderr that names the error (`Error: boom`, `TypeError: ...`, `Error [CODE]: ...`). */
function errorLine(stderr: string): string {
  const line = stderr.split("\n").find((l) => /^([A-Z]\w*)?Error\b/.test(l));
  return (line ?? "").replace(/^(\w+) \[\w+\]:/, "$1:");
}

interface Case {
  name: string;
  files: Record<string, string>;
  cmd: string;
  stdin?: string;
  known?: string;
  compare?: "error-line" | "exit" | "none";
}

const equal: string[] = [];
const known: string[] = [];

describe("node scripts against Debian's node", () => {
  for (const c of CASES as Case[]) {
    it(c.name, async () => {
      for (const [path, content] of Object.entries(c.files)) {
        const w = await tool(session, "write_file", { path: `${c.name}/${path}`, content });
        expect(w.success, JSON.stringify(w)).toBe(true);
      }
      if (c.stdin !== undefined) await tool(session, "write_file", { path: `${c.name}/stdin.txt`, content: c.stdin });
      if (!Object.keys(c.files).length && c.stdin === undefined) await tool(session, "bash", { command: `mkdir -p ${c.name}` });
      const cmd = c.stdin !== undefined ? `${c.cmd} < stdin.txt` : c.cmd;
      const r = await tool(session, "bash", { command: cmd, working_dir: c.name, env: { TZ: "UTC" }, timeout_seconds: 20 });
      const want = ref.results[c.name]!;
      const got = { stdout: String(r.stdout), stderr: String(r.stderr).split("v20.0.0").join("NODE_VERSION"), exit: r.exit_code as number };
      if (!c.known) {
        expect({ stdout: got.stdout, stderr: got.stderr }).toEqual({ stdout: want.stdout, stderr: want.stderr });
        expect(got.exit).toBe(want.exit);
        equal.push(c.name);
        return;
      }
      known.push(`${c.name}: ${c.known}`);
      if (c.compare === "none") return;
      expect(got.exit, `exit code (stderr ${JSON.stringify(got.stderr)})`).toBe(want.exit);
      if (c.compare === "error-line") {
        expect(got.stdout).toBe(want.stdout);
        expect(got.stderr).toContain(errorLine(want.stderr));
      }
    });
  }

  it("has the cases the issue asks for, and lists the known differences", () => {
    console.log(`node table: ${equal.length} cases equal to Debian's node ${ref.version}; ${known.length} known differences:\n  ${known.join("\n  ")}`);
    expect(equal.length).toBeGreaterThanOrEqual(150);
  });
});
