/** Appended to every sub-agent's system prompt, as the spawning platform (seed 002) does. */
const REPORTING_FOOTER =
  "# Reporting back\nWhen you finish, respond with a concise report covering what was done and any key findings. The caller will relay this to the user, so it only needs the essentials.";

const BASE =
  "You are a sub-agent working in a shared workspace on a task given by another agent. Use only the tools you were given; work until the task is done, then stop calling tools.";

/** The default prompt, or a persona the spawner gave, followed by the reporting footer. */
export const subAgentSystemPrompt = (persona?: string): string => `${persona?.trim() || BASE}\n\n${REPORTING_FOOTER}`;
