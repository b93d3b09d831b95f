import { beforeAll, describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * cmp over files larger than a program's memory (LIMITS.programMemoryBytes, 64 MiB): it reads both
 * inputs in blocks, so 100 MB compares (before, it read both whole and died with "memory limit
 * exceeded"), from files and through a pipe, and still names the first difference's byte and line.
 */
describe("cmp on files larger than a program's memory", () => {
  let id: string;
  let size: number;
  beforeAll(async () => {
    id = await newSession();
    // mod.txt is big.txt with its last number 13000000 turned into 13000001: one byte, just
    // before the final newline, on line 13000000.
    const made = await tool(id, "bash", {
      command: "seq 1 13000000 > big.txt && cp big.txt copy.txt && seq 1 12999999 > mod.txt && echo 13000001 >> mod.txt && wc -c < big.txt && wc -c < mod.txt",
    });
    expect(made.stderr).toBe("");
    const [big, mod] = made.stdout.trim().split("\n").map(Number);
    expect(big).toBeGreaterThan(100_000_000);
    expect(mod).toBe(big);
    size = big;
  }, 120_000);

  it.each([
    ["cmp big.txt copy.txt", "", 0],
    ["cat big.txt | cmp - copy.txt", "", 0],
    ["cmp big.txt mod.txt", "big.txt mod.txt differ: char SIZE-1, line 13000000\n", 1],
    ["cat big.txt | cmp - mod.txt", "- mod.txt differ: char SIZE-1, line 13000000\n", 1],
    ["cmp -l big.txt mod.txt", "SIZE-1  60  61\n", 1],
  ])(
    "%s",
    async (command, want, code) => {
      const r = await tool(id, "bash", { command: `export LC_ALL=C; ${command}; echo "exit $?"` });
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe(`${want.replace("SIZE-1", String(size - 1))}exit ${code}\n`);
    },
    60_000,
  );

  it("reports where the shorter input ends", async () => {
    const r = await tool(id, "bash", { command: 'export LC_ALL=C; head -c 70000000 big.txt | cmp big.txt -; echo "exit $?"' });
    expect(r.stdout).toBe("exit 1\n");
    // Byte 70000000 ends line 8888888 (Debian's cmp says the same of the same input).
    expect(r.stderr).toBe("cmp: EOF on - after byte 70000000, line 8888888\n");
  }, 60_000);
});
