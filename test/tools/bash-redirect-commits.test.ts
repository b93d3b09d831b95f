import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileRules } from "../../src/policy/files";
import { sessionPrograms } from "../../src/tools/shell/programs";
import { runInSession } from "../../src/tools/shell/run";
import type { ToolContext } from "../../src/tools/types";
import { FileEditor } from "../../src/vfs/file-editor";
import { GuardedFs } from "../../src/policy/guarded-fs";
import { Workspace } from "../../src/vfs/workspace";

/** Runs `script` in a fresh session's bash; returns its result and a reader of the workspace. */
async function bash(script: string, files: Record<string, string> = {}, read: string[] = []) {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  return runInDurableObject(stub, async (_o, state) => {
    Workspace.initialize(state.storage);
    const fs = new GuardedFs(new Workspace(state.storage, { maxBytes: 1 << 24, maxFiles: 1000 }), new FileRules());
    for (const [p, text] of Object.entries(files)) fs.writeFile(`/workspace/${p}`, text);
    const ctx: ToolContext = { sessionId: "redirects", fs, cwd: "/workspace", env: {}, setStatus: () => {} };
    const r = await runInSession(ctx, sessionPrograms, { script });
    const contents = Object.fromEntries(read.map((p) => [p, new TextDecoder().decode(fs.readFile(`/workspace/${p}`))]));
    return { r, contents };
  });
}

afterEach(() => vi.restoreAllMocks());

// Bundled programs commit the shell's pending redirect output only when they look at what it
// could change; what they see is what bash shows (the kernel has the bytes at once).
describe("redirect output around bundled programs", () => {
  it("a loop of programs writing into one file commits it twice, not once per program", async () => {
    const commits = vi.spyOn(FileEditor.prototype, "commit");
    const { r, contents } = await bash("for i in $(seq 30); do wc -c /dev/null; done > starts.txt; echo done", {}, ["starts.txt"]);
    expect(r.stdout).toBe("done\n");
    expect(contents["starts.txt"]).toBe("0 /dev/null\n".repeat(30));
    // Once when the second program stats its cwd, the directory the new file appears in; once at the end.
    expect(commits).toHaveBeenCalledTimes(2);
  });

  const cases: { name: string; script: string; stdout?: string; file?: [string, string]; files?: Record<string, string> }[] = [
    {
      name: "a program reads the file being written",
      script: "for i in 1 2; do echo a; wc -l out.txt; done > out.txt",
      file: ["out.txt", "a\n1 out.txt\na\n3 out.txt\n"],
    },
    { name: "a program stats the file being written", script: "{ echo abc; stat -c %s out.txt; } > out.txt", file: ["out.txt", "abc\n4\n"] },
    { name: "a program lists the directory of a file being created", script: "{ echo x; ls; } > new.txt", file: ["new.txt", "x\nnew.txt\n"] },
    {
      name: "a program appends to the file the shell appends to",
      script: "{ echo one; sed -n p in.txt >> log.txt; echo three; } >> log.txt; cat log.txt",
      stdout: "zero\none\ntwo\nthree\n",
      files: { "log.txt": "zero\n", "in.txt": "two\n" },
    },
    { name: "a program in a pipeline reads the file", script: "echo hi > f.txt; cat f.txt | tr a-z A-Z", stdout: "HI\n" },
    { name: "a program stats, through a link, the file being written", script: "echo zz > t; ln -s t l; { echo abc; stat -L -c %s l; } > t; cat t", stdout: "abc\n4\n" },
    {
      name: "a program in a subdirectory sees a file created above it",
      script: "mkdir d; cd d; { echo x; ls ..; } > ../top.txt; cat ../top.txt",
      stdout: "x\nd\ntop.txt\n",
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { r, contents } = await bash(c.script, c.files, c.file ? [c.file[0]] : []);
      expect(r.stderr ?? "").toBe("");
      if (c.stdout !== undefined) expect(r.stdout).toBe(c.stdout);
      if (c.file) expect(contents[c.file[0]]).toBe(c.file[1]);
    });
  }
});
