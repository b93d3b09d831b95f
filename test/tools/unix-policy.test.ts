import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/** The policy holes of issue 12 item 6, through the bash tool, beside harmless /tmp commands. */
interface Row {
  cmd: string;
  denied?: string;
  stdout?: string;
}

const ROWS: Row[] = [
  // the glob that expands to everything on the machine (emptying the workspace is allowed: test/policy/rm-root.test.ts)
  { cmd: "rm -rf /*", denied: "rm-root" },
  { cmd: "cd / && rm -rf *", denied: "rm-root" },
  // .env through redirections
  { cmd: "echo X=1 > .env", denied: "dotenv" },
  { cmd: "echo X=1 >> sub/.env.local", denied: "dotenv" },
  { cmd: "cat < .env", denied: "dotenv" },
  { cmd: "while read l; do echo $l; done < .env", denied: "dotenv" },
  { cmd: "f=.env; echo x > $f", denied: "dotenv" },
  // a refused command in the literal text stops the whole script before anything runs
  { cmd: "echo started > started.txt; ls || rm -rf /", denied: "rm-root" },
  { cmd: "if false; then rm -rf ~; fi; echo ran > ran.txt", denied: "rm-root" },
  { cmd: "f() { cat .env; }; echo ran > ran.txt", denied: "dotenv" },
  { cmd: "bash -c 'echo ran > ran.txt; false && mkfs.ext4 /dev/sda1'", denied: "mkfs" },
  // harmless: mentions, /tmp, narrower globs
  { cmd: 'echo "rm -rf /"; echo X=1 > env.example; cat env.example', stdout: "rm -rf /\nX=1\n" },
  { cmd: "mkdir -p /tmp/a && touch /tmp/a/x /tmp/y && rm -rf /tmp/* && ls -A /tmp | wc -l", stdout: "0\n" },
  { cmd: "mkdir -p build/o && touch build/o/1 && cd build && rm -rf * && ls | wc -l", stdout: "0\n" },
  { cmd: "mkdir -p d && touch d/a.log d/b.log && rm -f d/*.log && ls d | wc -l", stdout: "0\n" },
  { cmd: "echo x > /tmp/f && rm -rf /tmp/f && echo gone", stdout: "gone\n" },
];

describe("policy holes", () => {
  it("are closed while harmless commands run", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "keep.txt", content: "k" });
    const wrong: object[] = [];
    for (const row of ROWS) {
      const r = await tool(id, "bash", { command: row.cmd });
      const seen = { cmd: row.cmd, stdout: r.stdout, exit: r.exit_code, stderr: r.stderr, denied: r.denied?.rule };
      const ok = row.denied
        ? seen.denied === row.denied && seen.exit !== 0 && seen.stderr.includes(`denied (${row.denied})`)
        : seen.denied === undefined && seen.exit === 0 && seen.stdout === row.stdout;
      if (!ok) wrong.push(seen);
    }
    expect(wrong).toEqual([]);
    // Nothing of the refused scripts ran, and the workspace is intact.
    const after = await tool(id, "bash", { command: "ls -A; cat keep.txt" });
    expect(after.stdout).toBe("build\nd\nenv.example\nkeep.txt\nk");
  });
});
