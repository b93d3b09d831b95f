// Byte-exact strings: bytes that are not UTF-8 survive variables, $'...', printf, read,
// command substitution, redirects and pipes into and out of WASI programs (kept as lone
// surrogates U+DC80..U+DCFF inside the shell); NUL bytes are dropped from command
// substitution and read, as bash does. Expected outputs recorded from bash 5.2 (C.UTF-8).
import { describe, expect, it } from "vitest";
import { differingCases, type CommandCase } from "./command-table";

// [command, stdout, exit code]
const CASES: CommandCase[] = [
  ["printf 'a\\0b\\n' | { read -r l; echo ${#l}; }", "2\n", 0],
  ["printf '\\xff\\xfe' > f; wc -c < f; od -An -tx1 f", "2\n ff fe\n", 0],
  ["x=$'\\xff'; printf '%s' \"$x\" | od -An -tx1", " ff\n", 0],
  ["printf 'caf\\xe9\\n' | cat | od -An -tx1", " 63 61 66 e9 0a\n", 0],
  ["x=$(printf '\\x80\\x81'); printf '%s' \"$x\" | wc -c", "2\n", 0],
  ["printf '\\xff\\n' | tr '\\377' 'Z'", "Z\n", 0],
  ["printf 'ok\\xffend\\n' > g; cat g | { read -r l; printf '%s' \"$l\" | od -An -tx1; }", " 6f 6b ff 65 6e 64\n", 0],
  ["printf '\\xc3\\xa9\\n' | while read -r c; do echo ${#c}; done", "1\n", 0],
  ["printf 'a\\0b' > n; wc -c < n; x=$(< n); echo ${#x}", "3\n2\n", 0],
  ["echo $'\\xe2\\x82' | od -An -tx1", " e2 82 0a\n", 0],
  ["printf '%b' '\\xff\\x41' | od -An -tx1", " ff 41\n", 0],
  ["x=$'\\xff\\xfe'; echo ${#x}; printf '%q\\n' \"$x\"", "2\n$'\\377\\376'\n", 0],
  ["x=$'caf\\xc3\\xa9'; echo \"${x^^}\" ${#x}", "CAFÉ 4\n", 0],
  ["printf '\\xef\\xbb\\xbfbom\\n' > b; x=$(< b); echo ${#x}; od -An -tx1 b | head -1", "4\n ef bb bf 62 6f 6d 0a\n", 0],
  ["x=$(printf 'a\\0b'); echo ${#x} $x", "2 ab\n", 0],
  ["printf '\\x89PNG\\r\\n\\x1a\\n' > img.png; od -An -tx1 img.png; head -c 4 img.png | od -An -c", " 89 50 4e 47 0d 0a 1a 0a\n 211   P   N   G\n", 0],
];

describe("bytes pass through the shell as in bash", () => {
  it("runs every case", async () => {
    expect(await differingCases(CASES)).toEqual([]);
  }, 120_000);
});
