import { describe, expect, it } from "vitest";
import { checkFunctionDefinition } from "../../src/policy/commands";

// [function name, body source as the shell hands it over]
const bombs: Array<[string, string]> = [
  [":", ":|:& "],
  [":", "{ :|:& }"],
  [":", ":(){ :|:& };:"],
  [":", " : | : & "],
  ["bomb", "bomb|bomb&"],
  ["bomb", "bomb | bomb &"],
  ["f", "f &"],
  ["f", "f & f"],
  ["f", "while true; do f & done"],
  ["f", "f|f"],
  ["f", "{ f; } &"],
  ["f", "( f ) &"],
  ["f", "echo x | f"],
  ["f", "f |& f"],
  ["f", '"f" | "f" &'],
  ["f", "if true; then f & fi"],
  ["f", "f 1 2 | cat"],
  ["f", "x=$(f | f)"],
  ["f", "f >/dev/null &"],
  ["f", "f \\\n | f"],
];

const fine: Array<[string, string]> = [
  ["f", "echo 'f | f &'"],
  ["f", "f"],
  ["f", "g | g &"],
  ["f", "echo f &"],
  ["f", "ls | grep f"],
  ["f", "# f | f &\necho hi"],
  ["f", "sleep 1 &"],
  ["build", "make && build_docs | cat"],
  ["f", "ff | ff &"],
  ["f", "echo x >f &"],
  [":", "echo :"],
  [":", "true"],
  ["f", "f && f"],
  ["f", "[ $1 -gt 0 ] && f $(( $1 - 1 ))"],
  ["deploy", 'echo "deploy | deploy &" >> notes.txt'],
];

describe("checkFunctionDefinition", () => {
  it.each(bombs)("%s() { %s } is a fork bomb", (name, body) => {
    expect(checkFunctionDefinition(name, body)?.rule).toBe("fork-bomb");
  });
  it.each(fine)("%s() { %s } is allowed", (name, body) => {
    expect(checkFunctionDefinition(name, body)).toBeNull();
  });
});
