// The interpreter's hot paths run synchronously until something waits (src/shell/interp/maybe.ts).
// These cases cross the edges of that: deep recursion (the JS stack must unwind), statements
// that turn asynchronous half-way through a list or loop, signals thrown from either side, and
// words whose expansion waits (command substitution) beside ones that do not.
import { describe, expect, it } from "vitest";
import { runScript } from "./script-table";

// [script, expected stdout, expected exit code]; expectations are real bash 5.2's
const CASES: [string, string, number][] = [
  ["f(){ if (($1>0)); then f $(( $1 - 1 )); fi; }; f 990; echo ok", "ok\n", 0],
  ['f(){ eval "(( \\$1 > 0 )) && f \\$(( \\$1 - 1 ))"; }; f 900; echo ok $?', "ok 1\n", 0],
  ["i=0; while ((i<5)); do ((i++)); x=$(echo $i); [ $i -eq 3 ] && continue; echo -n $x; done; echo", "1245\n", 0],
  ["for ((i=0;i<6;i++)); do if ((i==4)); then break; fi; echo -n $(echo $i)$i; done; echo", "00112233\n", 0],
  ["f(){ local n=$1; (( n == 0 )) && return 7; f $((n-1)); }; f 40; echo $?", "7\n", 0],
  ["for a in 1 2; do for b in x y; do [ $b = y ] && continue 2; echo $a$b; done; done", "1x\n2x\n", 0],
  ["while true; do while true; do break 2; done; echo no; done; echo out", "out\n", 0],
  ["set -e; f(){ false; echo no; }; f || echo caught; true && false || echo or; echo end", "no\nor\nend\n", 0],
  ["set -e; x=$(false); echo no", "", 1],
  ["trap 'echo err $?' ERR; false; (exit 3); echo done", "err 1\nerr 3\ndone\n", 0],
  ["i=0; until [ $i -ge 3 ]; do i=$((i+1)); done; echo $i", "3\n", 0],
  ["printf '<%s>\\n' a{b,c} {fd}x \"$(echo q)\"{1,2}", "<ab>\n<ac>\n<{fd}x>\n<q1>\n<q2>\n", 0],
  ["echo hi > >(false); echo rc=$?", "rc=0\n", 0],
  ["[ 1 -lt ]; echo $?; [ a = a ]; echo $?; test -v HOME; echo $?; [ x; echo $?", "2\n0\n0\n2\n", 0],
  ["x=1; x+=2; readonly x; x=5; echo after", "", 1],
  ["f(){ return 3; }; f; echo $? ${PIPESTATUS[0]}", "3 3\n", 0],
];

describe("synchronous hot paths keep bash's behaviour", () => {
  it.each(CASES)("%s", async (script, out, code) => {
    const r = await runScript(script);
    expect(r.out).toBe(out);
    expect(r.code).toBe(code);
  });
});
