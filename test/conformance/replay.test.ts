/// <reference types="vite/client" />
// Replay conformance: realistic multi-call agent sessions (test/replay/sessions/*.sh) run
// call by call through the bash tool in one session each, compared with what real bash
// printed for the same calls (test/replay/fixtures.json, recorded by
// `node scripts/record-replay.mjs`). A call agrees when stdout and the exit code match.
//
// VITE_REPLAY_VERBOSE=1 prints want/got for each call that differs.
import { it, expect } from "vitest";
import { newSession, tool } from "../helpers";
import { parseSession } from "../replay/sessions.mjs";

interface Call {
  title: string;
  command: string;
  stdout: string;
  exit_code: number;
}
interface Fixtures {
  bash: string;
  sessions: { file: string; calls: Call[] }[];
}

const fixtures = JSON.parse(Object.values(import.meta.glob("../replay/fixtures.json", { query: "?raw", import: "default", eager: true }))[0] as string) as Fixtures;
const sources = import.meta.glob("../replay/sessions/*.sh", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

// Share of calls agreeing with bash, and the floor it must not fall under.
const FLOOR = 0.99;

it("session files and recorded fixtures describe the same calls", () => {
  const recorded = Object.fromEntries(fixtures.sessions.map((s) => [s.file, s.calls.map((c) => c.command)]));
  const current = Object.fromEntries(Object.entries(sources).map(([p, text]) => [p.replace(/^.*\//, ""), parseSession(text).map((c) => c.command)]));
  // a session edited without re-recording would compare against stale answers
  expect(recorded).toEqual(current);
});

it("replayed agent sessions agree with bash", async () => {
  const verbose = Boolean(import.meta.env.VITE_REPLAY_VERBOSE);
  const lines: string[] = [];
  let pass = 0;
  let total = 0;
  for (const s of fixtures.sessions) {
    const id = await newSession();
    let ok = 0;
    for (const c of s.calls) {
      const r = await tool(id, "bash", { command: c.command });
      const same = r.stdout === c.stdout && r.exit_code === c.exit_code;
      if (same) ok++;
      else {
        lines.push(`  DIFF ${s.file} / ${c.title}`);
        if (verbose)
          lines.push(
            `    want(${c.exit_code}) ${JSON.stringify(c.stdout)}`,
            `    got (${r.exit_code}) ${JSON.stringify(r.stdout)}`,
            `    stderr ${JSON.stringify(r.stderr)}`,
          );
      }
    }
    lines.unshift(`${s.file}: ${ok}/${s.calls.length}`);
    pass += ok;
    total += s.calls.length;
  }
  const share = pass / total;
  console.log(`REPLAY (bash ${fixtures.bash}) ${pass}/${total} calls agree (${(share * 100).toFixed(1)}%), floor ${FLOOR * 100}%\n${lines.join("\n")}`);
  expect(total).toBeGreaterThanOrEqual(150);
  expect(share).toBeGreaterThanOrEqual(FLOOR);
}, 900_000);
