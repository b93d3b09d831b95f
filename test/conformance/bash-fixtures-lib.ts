// bash-fixtures harness: cases recorded against real bash (../shared/conformance/bash-fixtures),
// each run in a fresh session through the public HTTP API, exactly as an agent would call it.
import { newSession, tool } from "../helpers";

export interface FixtureCase {
  command: string;
  files: Record<string, string>;
  stdout: string;
  stderr: string;
  exitCode: number;
  locked?: boolean;
}

export interface CaseResult {
  file: string;
  id: string;
  pass: boolean;
  /** One line: why the case failed (empty when it passed). */
  reason: string;
  detail?: { command: string; want: string; got: string; wantCode: number; gotCode: number; stderr: string };
}

/** Parses one fixtures file, refusing anything that is not the documented shape. */
export function parseFixtures(name: string, text: string): Record<string, FixtureCase> {
  const data = JSON.parse(text) as Record<string, Partial<FixtureCase>>;
  for (const [id, c] of Object.entries(data)) {
    if (typeof c.command !== "string" || typeof c.stdout !== "string" || typeof c.exitCode !== "number" || typeof c.files !== "object") {
      throw new Error(`${name}: case ${id} is not {command, files, stdout, stderr, exitCode}`);
    }
  }
  return data as Record<string, FixtureCase>;
}

const short = (s: string, n = 60) => JSON.stringify(s.length > n ? s.slice(0, n) + "…" : s);

/** First differing line of two outputs, shown briefly. */
function firstDiff(want: string, got: string): string {
  const a = want.split("\n");
  const b = got.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: want ${short(a[i] ?? "<none>")} got ${short(b[i] ?? "<none>")}`;
  }
  return "differs";
}

export async function runCase(file: string, id: string, c: FixtureCase): Promise<CaseResult> {
  const session = await newSession();
  for (const [name, content] of Object.entries(c.files)) {
    const w = await tool(session, "write_file", { path: name, content });
    if (w.success === false) return { file, id, pass: false, reason: `setup: write_file ${name}: ${w.error ?? JSON.stringify(w)}` };
  }
  const r = await tool(session, "bash", { command: c.command, timeout_seconds: 10 });
  const stdout: string = r.stdout ?? "";
  const code: number = r.exit_code ?? -1;
  const detail = { command: c.command, want: c.stdout, got: stdout, wantCode: c.exitCode, gotCode: code, stderr: r.stderr ?? r.error ?? "" };
  const reasons: string[] = [];
  if (stdout !== c.stdout) reasons.push(`stdout ${firstDiff(c.stdout, stdout)}`);
  if (code !== c.exitCode) reasons.push(`exit ${code} want ${c.exitCode}`);
  if (reasons.length && detail.stderr) reasons.push(`stderr ${short(detail.stderr.split("\n")[0]!, 80)}`);
  return { file, id, pass: reasons.length === 0, reason: reasons.join("; "), detail };
}

/** A case that takes longer than this (a hang, not a slow command) is failed and left behind. */
const CASE_TIMEOUT_MS = 30_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${ms / 1000} s (hang)`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer ?? undefined));
}

/** Runs every case with a few sessions in flight at once. */
export async function runAll(files: Record<string, Record<string, FixtureCase>>, concurrency = 6): Promise<CaseResult[]> {
  const jobs: [string, string, FixtureCase][] = [];
  for (const [file, cases] of Object.entries(files)) for (const [id, c] of Object.entries(cases)) jobs.push([file, id, c]);
  const results: CaseResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const [file, id, c] = jobs[i]!;
      try {
        results[i] = await withTimeout(runCase(file, id, c), CASE_TIMEOUT_MS);
      } catch (e) {
        results[i] = { file, id, pass: false, reason: `harness: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200) };
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** Per-file pass counts, then the total. */
export function tally(results: CaseResult[]): { lines: string[]; pass: number; total: number } {
  const per = new Map<string, [number, number]>();
  for (const r of results) {
    const t = per.get(r.file) ?? [0, 0];
    t[1]++;
    if (r.pass) t[0]++;
    per.set(r.file, t);
  }
  const lines = [...per].sort(([a], [b]) => a.localeCompare(b)).map(([f, [p, n]]) => `${p === n ? " " : "x"} ${f.padEnd(48)} ${p}/${n}`);
  const pass = results.filter((r) => r.pass).length;
  return { lines, pass, total: results.length };
}
