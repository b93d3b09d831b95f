// A redirect into a protected file that a WASI program writes to is refused with the policy's
// message (it used to surface as "internal error: [object Object]").
import { expect, it } from "vitest";
import { newSession, tool } from "../helpers";

it("reports a refused redirect write as a denial", async () => {
  const id = await newSession();
  const r = await tool(id, "bash", { command: "mkdir -p c; cat > c/.env <<'E'\nA=1\nE\necho rc=$?" });
  expect(r.stderr).toContain("toolshed: denied (sensitive-file)");
  expect(r.stderr).not.toContain("internal error");
  expect(r.stdout).toBe("rc=141\n");
});
