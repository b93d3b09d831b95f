// Every door that can change a file asks the one file policy (src/policy/files.ts through
// GuardedFs): the shell's redirect, WASI programs (cp, tee, sed -i), python3, node, git and the
// write_file tool all refuse rewriting a protected file that holds something, with the same rule
// and sentence, and the file is left as it was. `.env` named on a command line meets the shell's
// `dotenv` command rule first (docs/policy.md); every other door answers `sensitive-file`.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { sessionStub } from "../../src/service";
import { Workspace } from "../../src/vfs/workspace";
import { api, newSession, tool } from "../helpers";

const { origin } = inject("gitServer");
const ORIGINAL = "SECRET=operator\n";

/** Reads or writes the session's workspace directly, beneath every policy (how an operator's file got there). */
async function onDisk(id: string, path: string, content?: string): Promise<string | null> {
  return runInDurableObject(sessionStub(env, "alice", id), (_o, state) => {
    const ws = new Workspace(state.storage, { maxBytes: 1 << 30, maxFiles: 100_000 });
    if (content !== undefined) ws.writeFile(`/workspace/${path}`, content, { createParents: true });
    return ws.stat(`/workspace/${path}`) ? new TextDecoder().decode(ws.readFile(`/workspace/${path}`)) : null;
  });
}

interface Door {
  door: string;
  /** The call that tries to rewrite `p` (a path relative to the workspace). */
  run(id: string, p: string): Promise<{ denied?: { rule: string; reason: string } }>;
  /** The rule a shell command meets first when it names `.env` on its command line. */
  namesIt?: boolean;
}

const bash = (command: string) => (id: string) => tool(id, "bash", { command });
const DOORS: Door[] = [
  { door: "shell redirect", namesIt: true, run: (id, p) => bash(`echo X=1 > ${p}`)(id) },
  { door: "cp (WASI)", namesIt: true, run: (id, p) => bash(`echo X=1 > src.txt && cp src.txt ${p}`)(id) },
  { door: "tee (WASI)", namesIt: true, run: (id, p) => bash(`echo X=1 | tee ${p}`)(id) },
  { door: "sed -i (WASI)", namesIt: true, run: (id, p) => bash(`sed -i s/SECRET/X/ ${p}`)(id) },
  { door: "python3", run: (id, p) => bash(`python3 -c "open('${p}', 'w').write('X=1')"`)(id) },
  { door: "node", run: (id, p) => bash(`node -e "require('fs').writeFileSync('${p}', 'X=1')"`)(id) },
  { door: "write_file", run: (id, p) => tool(id, "write_file", { path: p, content: "X=1\n" }) },
  { door: "files endpoint (PUT)", run: async (id, p) => (await api("PUT", `/v1/sessions/${id}/files/${p}`, { raw: "X=1\n" })).body },
];

/** Doors that read: each must refuse, and no output may carry the contents. */
const READERS: { door: string; command?: string; run?: (id: string, p: string) => Promise<any> }[] = [
  { door: "cat (WASI)", command: "cat P" },
  { door: "cp (WASI)", command: "cp P copy.txt; cat copy.txt" },
  { door: "input redirect", command: "while read l; do echo $l; done < P" },
  { door: "python3", command: `python3 -c "print(open('P').read())"` },
  { door: "node", command: `node -e "console.log(require('fs').readFileSync('P', 'utf8'))"` },
  { door: "git add", command: "git init -q && git add P" },
  { door: "read_file", run: (id, p) => tool(id, "read_file", { path: p }) },
  { door: "files endpoint (GET)", run: async (id, p) => (await api("GET", `/v1/sessions/${id}/files/${p}`)).body },
];

const PROTECTED = [
  { path: ".env", rule: "sensitive-file" },
  { path: "conf/agent.db", rule: "sensitive-file" },
  { path: "SOUL.md", rule: "identity-file" },
];

describe("every door refuses rewriting a protected file, the same way", () => {
  for (const { path, rule } of PROTECTED) {
    it(path, { timeout: 120_000 }, async () => {
      const id = await newSession();
      await onDisk(id, path, ORIGINAL);
      const seen: { door: string; rule?: string; reason?: string; content: string | null }[] = [];
      for (const d of DOORS) {
        const r = await d.run(id, path);
        seen.push({ door: d.door, rule: r.denied?.rule, reason: r.denied?.reason, content: await onDisk(id, path) });
      }
      const expected = DOORS.map((d) => ({
        door: d.door,
        rule: path === ".env" && d.namesIt ? "dotenv" : rule,
        reason: expect.any(String),
        content: ORIGINAL,
      }));
      expect(seen).toEqual(expected);
      // One sentence for the one rule, whichever door asked.
      const reasons = new Set(seen.filter((s) => s.rule === rule).map((s) => s.reason));
      expect([...reasons]).toHaveLength(1);
      expect([...reasons][0]).toContain(`'${path}'`);
    });
  }

  it("and every door refuses reading one, with the same sentence", { timeout: 120_000 }, async () => {
    const id = await newSession();
    const path = "conf/agent.db";
    await onDisk(id, path, ORIGINAL);
    const seen: object[] = [];
    for (const d of READERS) {
      const r = d.run ? await d.run(id, path) : await tool(id, "bash", { command: d.command!.replaceAll("P", path) });
      seen.push({ door: d.door, denied: r.denied, leaked: JSON.stringify(r).includes("operator") });
    }
    const reason = `'${path}' is a protected file (secrets or agent database); no tool can read, serve or change its contents.`;
    expect(seen).toEqual(READERS.map((d) => ({ door: d.door, denied: { rule: "sensitive-file", reason }, leaked: false })));
  });

  it("git restore and checkout do not rewrite a tracked .env that holds something", { timeout: 120_000 }, async () => {
    const id = await newSession();
    // Cloning creates the repository's .env (a new file: allowed, and still unreadable).
    const clone = await tool(id, "bash", { command: `git clone -q ${origin}/secrets.git sec && cat sec/ok.txt` });
    expect(clone.exit_code, clone.stderr).toBe(0);
    expect(await onDisk(id, "sec/.env")).toBe("TOKEN=leaked\n");
    await onDisk(id, "sec/.env", ORIGINAL);
    const direct = await tool(id, "write_file", { path: "sec/.env", content: "X=1\n" });
    for (const cmd of ["git restore .", "git checkout -- .", "git reset -q --hard"]) {
      const r = await tool(id, "bash", { command: `cd sec && ${cmd}` });
      expect({ cmd, rule: r.denied?.rule, reason: r.denied?.reason, exit: r.exit_code !== 0 }).toEqual({ cmd, ...direct.denied, exit: true });
      expect(await onDisk(id, "sec/.env"), cmd).toBe(ORIGINAL);
    }
  });

  it("a new protected file may be created (nothing is read), but not moved out of protection", async () => {
    const id = await newSession();
    const made = await tool(id, "bash", { command: `mkdir -p new && python3 -c "open('new/agent.db', 'w').write('A=1')"` });
    expect(made.denied).toBeUndefined();
    expect(await onDisk(id, "new/agent.db")).toBe("A=1");
    const moved = await tool(id, "bash", { command: `python3 -c "import os; os.rename('new/agent.db', 'new/plain.txt')"` });
    expect(moved.denied?.rule).toBe("sensitive-file");
    expect(await onDisk(id, "new/plain.txt")).toBeNull();
    const dir = await tool(id, "bash", { command: `python3 -c "import os; os.rename('new', 'renamed')" && ls` });
    expect(dir.denied).toBeUndefined();
    expect(await onDisk(id, "renamed/agent.db")).toBe("A=1");
  });
});
