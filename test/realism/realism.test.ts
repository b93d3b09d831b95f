// Realism table (issue 26 item 2): each case of cases.mjs in a fresh session's empty directory
// against what Debian's bash printed as `nobody` (debian.global.mjs). FLOORS keep each kind's count
// of cases equal to Debian from going down; the differences left are printed and listed in
// docs/realism.md.
import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";

const table = inject("realism");
/** Cases equal to Debian, per kind (measured; raise as things improve). */
const FLOORS: Record<string, number> = {
  xtrace: 24,
  parser: 8,
  programs: 20,
  gnu: 7,
  awk: 44,
  jq: 23,
  quotes: 20,
  fs: 2,
  machine: 12,
  tz: 52,
  awkfatal: 14,
  tarnames: 6,
  absent: 10,
  csplit: 11,
  zgrep: 7,
  shell: 63,
};

const firstLine = (s: string) => s.split("\n")[0];

describe("realism against Debian 12", () => {
  for (const [kind, cases] of Object.entries(table)) {
    it(kind, async () => {
      const wrong: string[] = [];
      let equal = 0;
      for (const [i, c] of cases.entries()) {
        const session = await newSession();
        const dir = `/tmp/realism-${i}`;
        const r = await tool(session, "bash", { command: `mkdir -p ${dir}; cd ${dir}; HOME=${dir}; ${c.run}`, timeout_seconds: 20 });
        const got = { stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? r.error ?? ""), exit: r.exit_code as number };
        // The directory's name is the machine's own: mask it on both sides.
        const mask = (s: string) => s.replace(/\/tmp\/realism-[A-Za-z0-9]+/g, "DIR");
        const same =
          got.exit === c.exit &&
          (c.cmp === "line1" ? firstLine(got.stdout) === firstLine(c.stdout) : mask(got.stdout) === mask(c.stdout)) &&
          (c.cmp !== "all" || mask(got.stderr) === mask(c.stderr));
        if (same) equal++;
        else
          wrong.push(
            `${c.run}\n    want(${c.exit}) ${JSON.stringify(c.stdout)} ${JSON.stringify(c.stderr)}\n    got (${got.exit}) ${JSON.stringify(got.stdout)} ${JSON.stringify(got.stderr)}`,
          );
      }
      console.log(`${kind}: ${equal}/${cases.length} equal to Debian${wrong.length ? "\n  " + wrong.join("\n  ") : ""}`);
      expect(equal, `${kind}: cases equal to Debian`).toBeGreaterThanOrEqual(FLOORS[kind] ?? 0);
    }, 300_000);
  }
});
