// Types of sessions.mjs (a Node module, so the recorder can use it without a build step).
export function parseSession(text: string): { title: string; command: string }[];
