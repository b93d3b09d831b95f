// rm-root judged through the bash tool, both ways (docs/policy.md): recursive removal of the
// machine's root, a top-level directory, the home directory or /workspace itself is refused and
// removes nothing; emptying the workspace or /tmp (`rm -rf *`, `rm -rf ~/*`) is what agents type
// to clean up, and runs. LibertAI documents `rm -rf /` and `rm -rf ~`: the same answers there.
import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

const SETUP = "cd /workspace && mkdir -p a/b && touch a/b/c x .hidden && mkdir -p /tmp/t && touch /tmp/t/y";
const LEFT = "cd /workspace && ls -A | tr '\\n' ' '; echo; ls -A /tmp | tr '\\n' ' '";
const ALL = ".hidden a x ";

interface Row {
  cmd: string;
  /** Refused by this rule, nothing removed; otherwise runs and leaves `left` (workspace, then /tmp). */
  denied?: string;
  left?: [string, string];
}

const ROWS: Row[] = [
  // the machine's root, top-level directories, home, /workspace itself
  { cmd: "rm -rf /", denied: "rm-root" },
  { cmd: "rm -rf /*", denied: "rm-root" },
  { cmd: "rm -rf /.* /*", denied: "rm-root" },
  { cmd: "cd / && rm -rf *", denied: "rm-root" },
  { cmd: "rm -rf ~", denied: "rm-root" },
  { cmd: "rm -rf ~/", denied: "rm-root" },
  { cmd: 'rm -rf "$HOME"', denied: "rm-root" },
  { cmd: "rm -rf /workspace", denied: "rm-root" },
  { cmd: "rm -rf .", denied: "rm-root" },
  { cmd: "rm -rf ..", denied: "rm-root" },
  { cmd: "rm -rf ~/..", denied: "rm-root" },
  { cmd: "rm -rf /tmp", denied: "rm-root" },
  { cmd: "rm -rf /etc/*", denied: "rm-root" },
  { cmd: "rm --no-preserve-root -rf a", denied: "rm-root" },
  { cmd: "find /workspace -delete", denied: "rm-root" },
  { cmd: "find / -mindepth 1 -delete", denied: "rm-root" },
  { cmd: "ln -s / root && rm -rf root/", denied: "rm-root" },
  // emptying the session's own directories
  { cmd: "rm -rf *", left: [".hidden ", "t "] },
  { cmd: "rm -rf ./*", left: [".hidden ", "t "] },
  { cmd: "rm -rf ~/*", left: [".hidden ", "t "] },
  { cmd: 'rm -rf "$HOME"/*', left: [".hidden ", "t "] },
  { cmd: "rm -rf /workspace/*", left: [".hidden ", "t "] },
  { cmd: "rm -rf /workspace/* /workspace/.hidden", left: ["", "t "] },
  { cmd: "cd a && rm -rf *", left: [ALL, "t "] },
  { cmd: "rm -rf /tmp/*", left: [ALL, ""] },
  // GNU find never deletes `.` itself, nor a start below -mindepth
  { cmd: "find . -delete", left: ["", "t "] },
  { cmd: "find /workspace -mindepth 1 -delete", left: ["", "t "] },
  { cmd: "find /tmp -mindepth 1 -delete", left: [ALL, ""] },
  { cmd: "ln -s /workspace zz && rm -rf zz/*", left: [".hidden ", "t "] },
];

describe.each(["toolshed", "libertai"])("rm-root in the %s profile", (profile) => {
  it("refuses removing the root of the machine, home or /workspace, and empties the workspace", { timeout: 120_000 }, async () => {
    const id = await newSession(undefined, { profile });
    const wrong: object[] = [];
    for (const row of ROWS) {
      await tool(id, "bash", { command: `rm -rf /workspace/* /workspace/.hidden /tmp/*; ${SETUP}` });
      const r = await tool(id, "bash", { command: `cd /workspace && ${row.cmd}` });
      const left = (await tool(id, "bash", { command: LEFT })).stdout.split("\n").slice(0, 2);
      const seen = { cmd: row.cmd, denied: r.denied?.rule, exit: r.exit_code, left };
      const want = row.denied ? { cmd: row.cmd, denied: row.denied, exit: 126, left: [ALL, "t "] } : { cmd: row.cmd, denied: undefined, exit: 0, left: row.left };
      // A link made by the row itself is left in the workspace listing; it is not what the row tests.
      seen.left[0] = seen.left[0]!.replace(/\b(root|zz) /, "");
      if (JSON.stringify(seen) !== JSON.stringify(want)) wrong.push({ seen, want, stderr: r.stderr });
    }
    expect(wrong).toEqual([]);
  });
});
