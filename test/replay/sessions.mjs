// Reads a replay session file: shell calls separated by `#### description` lines. Shared by
// the recorder (scripts/record-replay.mjs, under Node) and the conformance test (in workerd).

/** @returns {{ title: string, command: string }[]} */
export function parseSession(text) {
  const calls = [];
  let cur = null;
  for (const line of text.split("\n")) {
    const m = /^#### (.*)$/.exec(line);
    if (m) {
      cur = { title: m[1].trim(), lines: [] };
      calls.push(cur);
    } else if (cur) cur.lines.push(line);
  }
  return calls.map((c) => ({ title: c.title, command: c.lines.join("\n").replace(/\n+$/, "") }));
}
