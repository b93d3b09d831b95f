import { beforeAll, describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * A program writing its output line by line into a redirected file while it reads another
 * workspace file (issue 27: `uniq -c big.txt > out.txt` took a minute on 20 MB, as every read
 * of big.txt committed out.txt's pending output and the next write copied it all again). What
 * is checked is the content, not the time; the file is big enough that the old cost shows as a
 * test timeout.
 */
describe("big redirected output from a program reading a workspace file", () => {
  let id: string;
  const lines = 2_000_000;
  beforeAll(async () => {
    id = await newSession();
    const r = await tool(id, "bash", { command: `seq 1 ${lines} > big.txt && wc -l < big.txt` });
    expect(r.stdout).toBe(`${lines}\n`);
  }, 120_000);

  it.each(["uniq -c big.txt > out.txt", "awk '{print}' big.txt > out.txt", "sed -n p big.txt > out.txt"])(
    "%s writes every line",
    async (script) => {
      const r = await tool(id, "bash", { command: `${script} && wc -l < out.txt && tail -n 1 out.txt && head -n 1 out.txt` });
      expect(r.stderr).toBe("");
      const [count, last, first] = r.stdout.trim().split("\n");
      expect(count).toBe(String(lines));
      expect(last!.trim().split(/\s+/).pop()).toBe(String(lines));
      expect(first!.trim().split(/\s+/).pop()).toBe("1");
    },
    120_000,
  );
});

// Reads of content no longer commit pending output unless they reach the pending file; through
// a link they still do, so a program sees what bash would show.
describe("a program reading the pending file", () => {
  it.each([
    ["{ echo a; head -n 1 out.txt; echo b; wc -l < out.txt; } > out.txt", "a\na\nb\n3\n"],
    ["ln -s out.txt l.txt; { echo a; head -n 1 l.txt; echo b; wc -l l.txt; } > out.txt", "a\na\nb\n3 l.txt\n"],
    ["ln -s . d; { echo a; head -n 1 d/out.txt; } > out.txt", "a\na\n"],
  ])("%s", async (script, content) => {
    const id = await newSession();
    const r = await tool(id, "bash", { command: `${script}; cat out.txt` });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(content);
  });
});
