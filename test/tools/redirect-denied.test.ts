// A redirect into a protected file is refused with the policy's message before anything is
// written (it used to surface as "internal error: [object Object]" from a WASI program's write).
import { expect, it } from "vitest";
import { newSession, tool } from "../helpers";

it("reports a refused redirect write as a denial", async () => {
  const id = await newSession();
  const r = await tool(id, "bash", { command: "mkdir -p c; cat > c/.env <<'E'\nA=1\nE\necho rc=$?; ls -A c | wc -l" });
  expect(r.stderr).toContain("toolshed: denied (dotenv)");
  expect(r.stderr).not.toContain("internal error");
  expect(r.stdout).toBe("rc=1\n0\n");
  expect(r.denied).toMatchObject({ rule: "dotenv" });
});
