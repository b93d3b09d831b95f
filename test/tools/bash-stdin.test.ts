import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * A command reads its stdin through the shell's open file description and takes only what
 * it reads, so what it leaves stays for the next command: builtins, functions, child shells
 * and WASI programs alike, over pipes, `< file`, here-documents and `exec N<`. Like GNU head,
 * the toolbox's head seeks back on a seekable input (a file) but not on a pipe. Expected
 * outputs were recorded from GNU bash 5.2.15 with GNU coreutils 9.1 on abc.txt = "a\nb\nc\n".
 */
const CASES: [script: string, bashStdout: string][] = [
  ["printf 'a\\nb\\nc\\n' | while read x; do cat /dev/null; echo \"got $x\"; done", "got a\ngot b\ngot c\n"],
  ['while read x; do cat /dev/null; echo "got $x"; done < abc.txt', "got a\ngot b\ngot c\n"],
  ["printf 'a\\nb\\nc\\n' | while read x; do ls abc.txt; echo \"got $x\"; done", "abc.txt\ngot a\nabc.txt\ngot b\nabc.txt\ngot c\n"],
  ['while read x; do ls abc.txt; echo "got $x"; done < abc.txt', "abc.txt\ngot a\nabc.txt\ngot b\nabc.txt\ngot c\n"],
  ["printf 'a\\nb\\nc\\n' | while read x; do wc -c abc.txt; echo \"got $x\"; done", "6 abc.txt\ngot a\n6 abc.txt\ngot b\n6 abc.txt\ngot c\n"],
  ['while read x; do wc -c abc.txt; echo "got $x"; done < abc.txt', "6 abc.txt\ngot a\n6 abc.txt\ngot b\n6 abc.txt\ngot c\n"],
  ["printf 'a\\nb\\nc\\n' | { head -1; cat; }", "a\n"],
  ["{ head -1; cat; } < abc.txt", "a\nb\nc\n"],
  ["printf 'a\\nb\\nc\\n' | while read x; do head -1; echo \"got $x\"; done", "b\ngot a\n"],
  ['while read x; do head -1; echo "got $x"; done < abc.txt', "b\ngot a\ngot c\n"],
  ['{ read x; head -1; read y; echo "$x $y"; } < abc.txt', "b\na c\n"],
  ["printf 'a\\nb\\nc\\n' | { read x; head -1; read y; echo \"$x ${y:-none}\"; }", "b\na none\n"],
  ["printf 'a\\nb\\nc\\n' | { read x; cat; }", "b\nc\n"],
  ['exec 3< abc.txt; head -1 <&3; read -u 3 y; echo "y=$y"', "a\ny=b\n"],
  ["f() { head -1; }; printf 'a\\nb\\nc\\n' | { f; cat; }", "a\n"],
  ["f() { head -1; }; { f; cat; } < abc.txt", "a\nb\nc\n"],
  ["printf 'a\\nb\\nc\\n' | { bash -c 'read x; echo \"child $x\"'; cat; }", "child a\nb\nc\n"],
  ["{ bash -c 'read x; echo \"child $x\"'; cat; } < abc.txt", "child a\nb\nc\n"],
  ["{ bash -c 'head -1'; cat; } < abc.txt", "a\nb\nc\n"],
  ["printf 'x\\ny\\n' | { sed -n 1p; cat; }", "x\n"],
  ["seq 3 | while read n; do grep -c . abc.txt; done", "3\n3\n3\n"],
  ["printf 'a\\nb\\n' | { cat; echo end; }", "a\nb\nend\n"],
  ["{ head -c 2; cat; } < abc.txt", "a\nb\nc\n"],
  ["{ head -n 2 >/dev/null; cat; } < abc.txt", "c\n"],
  ["while read -r x; do printf '%s:' \"$x\"; wc -l < abc.txt; done < abc.txt", "a:3\nb:3\nc:3\n"],
  ['yes | head -1; echo "${PIPESTATUS[@]}"', "y\n141 0\n"],
  ['yes | head -3 | tail -1; echo "${PIPESTATUS[@]}"', "y\n141 0 0\n"],
  ['seq 100000 | head -2; echo "${PIPESTATUS[@]}"', "1\n2\n141 0\n"],
  ["seq 5 | { head -1; wc -l; }", "1\n0\n"],
  ["{ head -1; cat; } <<'EOF'\na\nb\nc\nEOF", "a\n"],
  ['{ head -1; cat; } <<< "a\nb"', "a\n"],
  ["exec 3< abc.txt; { head -1; cat; } <&3", "a\nb\nc\n"],
];

describe("shared stdin: a command takes only what it reads (against bash)", () => {
  let id: string;
  it.each(CASES)("%s", async (script, expected) => {
    if (!id) {
      id = await newSession();
      await tool(id, "write_file", { path: "abc.txt", content: "a\nb\nc\n" });
    }
    const r = await tool(id, "bash", { command: script });
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: expected, stderr: "" });
  });
});
