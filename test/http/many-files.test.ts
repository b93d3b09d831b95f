import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { sessionStub } from "../../src/service";
import { Workspace } from "../../src/vfs/workspace";
import { newSession, tool } from "../helpers";

it("answers glob **/* over a 10,000-file workspace, newest first, capped at 100", { timeout: 120_000 }, async () => {
  const id = await newSession();
  await runInDurableObject(sessionStub(env, "alice", id), (_o, state) => {
    const ws = new Workspace(state.storage, { maxBytes: 1 << 30, maxFiles: 100_000 });
    for (let d = 0; d < 100; d++) {
      ws.mkdir(`/workspace/d${d}`);
      for (let f = 0; f < 100; f++) ws.writeFile(`/workspace/d${d}/f${f}.txt`, `file ${d}/${f}\n`);
    }
    ws.setMtime("/workspace/d42/f7.txt", Date.now() + 60_000);
  });
  const r = await tool(id, "glob", { pattern: "**/*" });
  expect(r.total).toBe(10_000);
  expect(r.files.length).toBe(100);
  expect(r.files[0]).toBe("d42/f7.txt");
  expect(r.truncated).toBe(true);
  // Opening one file reads one row set, not the workspace.
  const one = await tool(id, "read_file", { path: "d99/f99.txt" });
  expect(one.output).toBe("     1\tfile 99/99");
});
