import { describe, it, expect } from "vitest";
import { runShell } from "../../src/shell/index";
import { MemoryHost } from "../../src/shell/memory-host";

const dec = new TextDecoder();

async function run(script: string) {
  const host = new MemoryHost({ files: {}, programs: {} });
  const r = await runShell(script, { host, cwd: "/workspace", env: { HOME: "/workspace" } });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), status: r.exitCode };
}

describe("function printer (declare -f, type)", () => {
  // exact layout, as bash 5.2 prints it
  const exact: [string, string][] = [
    ["f() { echo; }", "f () \n{ \n    echo\n}\n"],
    ["f() { a; b | c && d; }", "f () \n{ \n    a;\n    b | c && d\n}\n"],
    [
      "f() { if [[ $x == a ]]; then echo y; elif true; then :; fi; }",
      "f () \n{ \n    if [[ $x == a ]]; then\n        echo y;\n    else\n        if true; then\n            :;\n        fi;\n    fi\n}\n",
    ],
    ["f() { for i in 1 2; do echo $i >&2; done; }", "f () \n{ \n    for i in 1 2;\n    do\n        echo $i 1>&2;\n    done\n}\n"],
    ["f() { case $x in a|b) echo ab;; esac; }", "f () \n{ \n    case $x in \n        a | b)\n            echo ab\n        ;;\n    esac\n}\n"],
    ["f() ( echo sub )", "f () \n{ \n    ( echo sub )\n}\n"],
  ];
  for (const [def, want] of exact) {
    it(`prints ${JSON.stringify(def)}`, async () => {
      expect((await run(`${def}\ndeclare -f f`)).out).toBe(want);
    });
  }

  // what matters most: the printed text re-parses and behaves the same
  const roundTrip: string[] = [
    `f() { local -a a=(1 "2 3"); echo "\${#a[@]} \${a[1]}" '$lit' "\\$esc"; }`,
    "f() { for ((i=0; i<3; i++)); do printf '%s,' $i; done; echo; }",
    'f() { cat <<END\na $HOME \\$y "q"\nEND\necho after; }',
    "f() { x=${1:-def}; echo ${x#d} $(echo sub) $((2 + 3)); [[ -n $x && $x != z* ]] || echo no; }",
    "f() { while [ 1 = 2 ]; do :; done; ! :; echo $?; g() { echo inner; }; g; }",
  ];
  for (const def of roundTrip) {
    it(`round-trips ${JSON.stringify(def)}`, async () => {
      const direct = await run(`cat() { while IFS= read -r l; do echo "$l"; done; }\n${def}\nf`);
      const printed = await run(`${def}\ndeclare -f f`);
      const again = await run(`cat() { while IFS= read -r l; do echo "$l"; done; }\n${printed.out}\nf`);
      expect(again.err).toBe("");
      expect(again.out).toBe(direct.out);
    });
  }
});
