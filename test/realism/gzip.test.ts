// gzip byte for byte (issue 26): each case of gzip-cases.mjs in one session, after the same SETUP,
// against what Debian's gzip 1.12 and GNU tar printed as `nobody` (gzip.global.mjs): md5 sums of
// the compressed bytes at every level, sizes, `gzip -l`/`-v`, `tar czf`, and decompression.
import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";

const table = inject("gzipTable");
/** Cases equal to Debian (all of them: the deflate is gzip's own). */
const FLOOR = table.cases.length;

describe("gzip against Debian 12's gzip 1.12", () => {
  it("prints what GNU gzip and tar print, byte for byte", async () => {
    const session = await newSession();
    const dir = "/tmp/gzip-table";
    const made = await tool(session, "bash", { command: `mkdir -p ${dir} && cd ${dir} && ${table.setup}`, timeout_seconds: 120 });
    expect(made.exit_code, `setup: ${String(made.stderr ?? made.error)}`).toBe(0);
    const wrong: string[] = [];
    let equal = 0;
    for (const c of table.cases) {
      const r = await tool(session, "bash", { command: `cd ${dir}; export TZ=UTC; ${c.run}`, timeout_seconds: 60 });
      const got = { stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? r.error ?? ""), exit: r.exit_code as number };
      if (got.exit === c.exit && got.stdout === c.stdout && got.stderr === c.stderr) equal++;
      else
        wrong.push(
          `${c.run}\n    want(${c.exit}) ${JSON.stringify(c.stdout)} ${JSON.stringify(c.stderr)}\n    got (${got.exit}) ${JSON.stringify(got.stdout)} ${JSON.stringify(got.stderr)}`,
        );
    }
    console.log(`gzip: ${equal}/${table.cases.length} equal to Debian${wrong.length ? "\n  " + wrong.join("\n  ") : ""}`);
    expect(equal, "gzip cases equal to Debian").toBeGreaterThanOrEqual(FLOOR);
  }, 900_000);
});
