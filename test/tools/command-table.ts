// Runs [command, stdout, exit code] cases through the bash tool in one session and lists the
// ones that differ, so a table test reports every failing case at once.
import { newSession, tool } from "../helpers";

export type CommandCase = [command: string, stdout: string, exitCode: number];

export async function differingCases(cases: CommandCase[]): Promise<string[]> {
  const id = await newSession();
  const failures: string[] = [];
  for (const [command, stdout, code] of cases) {
    const r = await tool(id, "bash", { command });
    if (r.stdout !== stdout || r.exit_code !== code)
      failures.push(`${command}\n  want(${code}) ${JSON.stringify(stdout)}\n  got (${r.exit_code}) ${JSON.stringify(r.stdout)} ${r.stderr}`);
  }
  return failures;
}
