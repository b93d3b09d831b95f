import { beforeAll, describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * WASI programs in a pipeline run side by side over bounded pipes (JSPI): a reader that
 * exits closes the pipe and the writer sees EPIPE and exits 141, as bash reports in
 * PIPESTATUS, instead of running to its output cap first.
 */
describe("streaming pipes between WASI programs", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
    // 8 MB: under the 16 MiB per-program output cap, so only streaming stops tee early.
    const r = await tool(id, "bash", { command: "head -c 8000000 /dev/zero > big && wc -c < big" });
    expect(r.stdout).toBe("8000000\n");
  });

  it("stops the writer when the reader exits (tee writes about one pipe's worth, not the file)", async () => {
    const r = await tool(id, "bash", { command: 'tee copy < big | head -c 1 | wc -c; echo "${PIPESTATUS[*]}"; wc -c < copy' });
    const [n, status, copied] = r.stdout.trim().split("\n");
    expect(n).toBe("1");
    expect(status).toBe("141 0 0");
    expect(Number(copied)).toBeGreaterThan(0);
    expect(Number(copied)).toBeLessThan(1_000_000);
  });

  it("tee -p keeps feeding its files when the reader exits, and exits 0 (GNU)", async () => {
    const r = await tool(id, "bash", { command: 'tee -p copy < big | head -c 1 | wc -c; echo "${PIPESTATUS[*]}"; wc -c < copy' });
    expect(r.stdout).toBe("1\n0 0 0\n8000000\n");
    expect(r.stderr).toBe("");
  });

  it.each([
    ["yes | head -1", "y\n", [141, 0]],
    ["cat big | head -c 3 | wc -c", "3\n", [141, 0, 0]],
    ["seq 1 100000000 | head -2", "1\n2\n", [141, 0]],
    ["yes | head -3 | tail -1", "y\n", [141, 0, 0]],
    ["yes abc | tr a-z A-Z | head -2", "ABC\nABC\n", [141, 141, 0]],
  ] as const)("%s ends at once with bash's PIPESTATUS", async (script, stdout, status) => {
    const r = await tool(id, "bash", { command: `${script}; echo "\${PIPESTATUS[*]}"` });
    expect(r.stdout).toBe(`${stdout}${status.join(" ")}\n`);
    expect(r.stderr).toBe("");
    // Running the writer to its 16 MiB cap took seconds; streaming takes one chunk.
    expect(r.duration_ms).toBeLessThan(2000);
  });

  it("a stage reads what the previous one wrote as it is written", async () => {
    // grep -m1 stops after the first match; sort would wait for end of input, so the order
    // of the two outputs shows the first stage ran before the pipeline finished.
    const r = await tool(id, "bash", { command: "seq 1 5000000 | grep -m1 -x 42; echo ${PIPESTATUS[*]}" });
    expect(r.stdout).toBe("42\n141 0\n");
  });

  it("keeps the fuel limit: piped bytes cost fuel, so an endless pipeline stops near its timeout", async () => {
    // cat pays for each byte read and written and runs out first; yes then sees EPIPE.
    const r = await tool(id, "bash", { command: "yes | cat > /dev/null; echo ${PIPESTATUS[*]}", timeout_seconds: 1 });
    expect(r.stdout).toBe("141 137\n");
    expect(r.stderr).toContain("cat: killed: step limit reached");
    expect(r.duration_ms).toBeLessThan(5000);
    const next = await tool(id, "bash", { command: "echo still here" });
    expect(next.stdout).toBe("still here\n");
  });

  it("keeps big streams whole through several stages", async () => {
    const r = await tool(id, "bash", { command: "seq 1 300000 | cat | sort -n | tail -1; seq 1 300000 | cat | wc -l" });
    expect(r.stdout).toBe("300000\n300000\n");
  });
});
