// The diff table against Debian 12's diff (GNU diffutils 3.8): random and edge pairs with the
// options agents use, and trees with -r (diff-pairs.mjs). Each chunk's script runs in a fresh
// session's directory; every case's output and exit code must equal what Debian printed
// (diff.global.mjs). GNU picks among equally short edit scripts in its own way (analyze.c); the
// toolbox follows it (wasm/toolbox/src/cmd/diff_analyze.rs), so all cases must be equal.
import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";
import { diffScripts, splitOutput } from "./diff-pairs.mjs";

const debian = inject("realismDiff");

describe("diff against Debian 12", () => {
  it("gives the same hunks, output and exit codes", async () => {
    const scripts = diffScripts();
    expect(debian.length, "the Debian side ran every script").toBe(scripts.length);
    const session = await newSession();
    const wrong: string[] = [];
    let equal = 0;
    let all = 0;
    for (const [k, s] of scripts.entries()) {
      const r = await tool(session, "bash", { command: `mkdir -p d${k} && cd d${k} && ${s.script}`, timeout_seconds: 120 });
      const got = splitOutput(String(r.stdout ?? ""));
      const want = splitOutput(debian[k]);
      s.names.forEach((name, i) => {
        all++;
        if (got[i] === want[i]) equal++;
        else wrong.push(`${name}: ${s.runs[i]}\n    want ${JSON.stringify(want[i])}\n    got  ${JSON.stringify(got[i])}`);
      });
    }
    console.log(`diff table: ${equal}/${all} equal to Debian${wrong.length ? `\n  ${wrong.slice(0, 30).join("\n  ")}` : ""}`);
    expect(equal, "cases equal to Debian's diff").toBe(all);
  }, 600_000);
});
