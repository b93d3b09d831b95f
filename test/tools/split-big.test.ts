import { beforeAll, describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * split over a file larger than a program's memory (LIMITS.programMemoryBytes, 64 MiB): it reads
 * in blocks and writes each piece as it goes, so 100 MB splits (before, it read the whole input
 * and died with "memory limit exceeded"). The pieces must put the file back together
 * (compared by md5sum).
 */
describe("split on a file larger than a program's memory", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
    const made = await tool(id, "bash", { command: "seq 1 13000000 > big.txt && wc -c < big.txt" });
    expect(made.stderr).toBe("");
    expect(Number(made.stdout)).toBeGreaterThan(100_000_000);
  }, 120_000);

  it.each([
    ["-b 10M", 11],
    ["-l 1500000", 9],
    ["-n 4", 4],
  ])(
    "split %s on 100 MB",
    async (opts, pieces) => {
      const r = await tool(id, "bash", { command: `rm -f p* && split ${opts} big.txt p && cat p* | md5sum && md5sum < big.txt && ls p* | wc -l` });
      expect(r.stderr).toBe("");
      const [joined, whole, count] = r.stdout.trim().split("\n");
      expect(joined).toMatch(/^[0-9a-f]{32} {2}-$/);
      expect(joined).toBe(whole);
      expect(count).toBe(String(pieces));
    },
    120_000,
  );
});
