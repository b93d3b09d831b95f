import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LIMITS } from "../../src/limits";
import { api, newSession, tool } from "../helpers";
import { CPYTHON_WASI_SKIPS, SESSION_SKIPS, SLOW } from "./regrtest/plan.mjs";

/**
 * CPython's own regression tests (`python3 -m test`) for the modules agents use most, run in a
 * session by its python3 on the files of the CPython source it is built from, and compared test
 * by test with Debian's python3.11 on the same files (test/python/regrtest.global.mjs): every test
 * that passes on Debian passes here, but those CPython itself skips on WASI (its
 * `support.requires_*` markers, reasons in CPYTHON_WASI_SKIPS) and those listed in SESSION_SKIPS,
 * each with its reason. Prints a table of the counts of both sides.
 */
const data = inject("pythonRegrtest");
type Outcomes = Record<string, [string, string, number]>;

interface Row {
  name: string;
  native: Outcomes;
  session?: Outcomes;
  listed: number;
  slow: number;
  seconds: number;
}
const rows: Row[] = [];

const counts = (o: Outcomes | undefined) => {
  if (!o) return "-";
  const v = Object.values(o);
  const n = (k: string) => v.filter(([x]) => x === k).length;
  const bad = n("failure") + n("error");
  return `${v.length}/${n("ok")}/${n("skipped")}${bad ? ` (${bad} failed)` : ""}`;
};

function table(): string {
  const head = ["module", "Debian ran/pass/skip", "session ran/pass/skip", "listed skips", "left out (time)", "seconds"];
  const body = rows.map((r) => [r.name, counts(r.native), counts(r.session), String(r.listed), String(r.slow), r.seconds.toFixed(1)]);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join("  ");
  return [line(head), ...body.map(line)].join("\n");
}

/** Why a test that passes on Debian may be skipped here: CPython's WASI markers, our list, or time. */
function allowedSkip(id: string, session: [string, string, number] | undefined): boolean {
  if (id in SESSION_SKIPS || (!data.all && id in SLOW)) return session === undefined;
  return session?.[0] === "skipped" && CPYTHON_WASI_SKIPS.some((re: RegExp) => re.test(session[1]));
}

describe.skipIf(data.skip !== undefined)(`CPython's regression tests in a session (${data.runs.length} runs)`, () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
    const tgz = Uint8Array.from(atob(data.tgz), (c) => c.charCodeAt(0));
    const put = await api("PUT", `/v1/sessions/${id}/files/lib-test.tgz`, { raw: tgz });
    expect(put.status).toBe(201);
    const r = await tool(id, "bash", { command: "tar xzf lib-test.tgz && rm lib-test.tgz" });
    expect(r.exit_code, r.stderr).toBe(0);
  }, 120_000);

  afterAll(() => {
    if (rows.length) console.log(`CPython's regression tests, Debian's python3.11 and the session's python3:\n${table()}`);
  });

  for (const run of data.runs) {
    it(
      run.name,
      async () => {
        const listed = Object.keys(SESSION_SKIPS).filter((t) => t in run.native);
        const slow = data.all ? [] : Object.keys(SLOW).filter((t) => t in run.native);
        const ignore = [...listed, ...slow].flatMap((t) => ["-i", t]);
        for (const [path, content] of Object.entries(run.sessionFiles ?? {})) await tool(id, "write_file", { path, content });
        const started = Date.now();
        const r = await tool(id, "bash", {
          command: `rm -f regrtest.json; python3 -m test --junit-xml /tmp/regrtest.xml ${[...run.args, ...ignore].join(" ")} > /tmp/regrtest.log 2>&1; echo "regrtest exit $?" >&2; tail -c 2000 /tmp/regrtest.log >&2; python3 summary.py /tmp/regrtest.xml regrtest.json`,
          timeout_seconds: LIMITS.shellMaxTimeoutSeconds,
        });
        for (const path of Object.keys(run.sessionFiles ?? {})) await tool(id, "bash", { command: `rm -f ${path}` });
        const row: Row = { name: run.name, native: run.native, listed: listed.length, slow: slow.length, seconds: (Date.now() - started) / 1000 };
        rows.push(row);
        expect(r.exit_code, `${r.stderr}\n${JSON.stringify(r.limit ?? "")}`).toBe(0);
        // Through the files endpoint: the summary of a big module is larger than a tool's output may be.
        const got = await api("GET", `/v1/sessions/${id}/files/regrtest.json`);
        expect(got.status).toBe(200);
        row.session = got.body.tests as Outcomes;
        const session = row.session;
        // Candidates for SLOW when the suite grows too long.
        const slowest = Object.entries(session)
          .filter(([, o]) => o[2] >= 1)
          .sort((a, b) => b[1][2] - a[1][2]);
        if (slowest.length)
          console.log(
            `${run.name}: slowest in the session: ${slowest
              .slice(0, 12)
              .map(([t, o]) => `${t} ${o[2]}s`)
              .join(", ")}`,
          );
        const wrong = Object.entries(run.native as Outcomes)
          .filter(([t, [outcome]]) => outcome === "ok" && session[t]?.[0] !== "ok" && !allowedSkip(t, session[t]))
          .map(([t]) => `${t}: ${session[t] ? session[t].slice(0, 2).join(": ") : "did not run"}`);
        expect(wrong, r.stderr).toEqual([]);
      },
      (LIMITS.shellMaxTimeoutSeconds + 30) * 1000,
    );
  }
});

describe.runIf(data.skip !== undefined)("CPython's regression tests", () => {
  it.skip(`skipped: ${data.skip}`, () => undefined);
});
