// A refused redirect is reported with the policy's message (it used to surface as "internal
// error: [object Object]"): refused before opening (`> .env`, a command rule) or when a WASI
// program's output reaches a protected file the redirect opened (the write needs read access).
import { expect, it } from "vitest";
import { newSession, tool } from "../helpers";

it.each([
  { target: "c/.env", rule: "dotenv", rc: 1 },
  { target: "c/agent.db", rule: "sensitive-file", rc: 141 },
])("reports a refused redirect write to $target as a denial ($rule)", async ({ target, rule, rc }) => {
  const id = await newSession();
  const r = await tool(id, "bash", { command: `mkdir -p c; cat > ${target} <<'E'\nA=1\nE\necho rc=$?` });
  expect(r.stderr).toContain(`toolshed: denied (${rule})`);
  expect(r.stderr).not.toContain("internal error");
  expect(r.stdout).toBe(`rc=${rc}\n`);
});
