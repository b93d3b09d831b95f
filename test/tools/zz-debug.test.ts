import { it } from "vitest";
import { newSession, tool } from "../helpers";
it("debug", async () => {
  const id = await newSession();
  for (const [c, t] of [
    ["yes | head -c 50000000 | wc -c; echo ${PIPESTATUS[*]}", 30],
    ["yes | cat > /dev/null; echo ${PIPESTATUS[*]}", 1],
    ["yes > /dev/null; echo ${PIPESTATUS[*]}", 1],
  ] as const) {
    const r = await tool(id, "bash", { command: c, timeout_seconds: t });
    console.log(JSON.stringify(c), JSON.stringify(r.stdout), JSON.stringify(r.stderr.slice(0, 300)), r.exit_code, r.duration_ms);
  }
});
