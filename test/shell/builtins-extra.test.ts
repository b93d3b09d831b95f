// Table-driven checks for the job, completion, prompt, history and environment builtins
// (complete/compgen/compopt, kill/jobs/wait %job, umask, ulimit, pushd/popd/dirs,
// history/fc, bind, ${x@P}, set -x formatting, bash -i).
import { describe, it, expect } from "vitest";
import { runShell } from "../../src/shell/index";
import { MemoryHost, MemProgram } from "../../src/shell/memory-host";

const dec = new TextDecoder();
const enc = new TextEncoder();
// no programs: everything here is a builtin (`bash` itself runs as a child shell)
const programs: Record<string, MemProgram> = {};

async function run(script: string, stdin?: string) {
  const host = new MemoryHost({ files: { "/workspace/d1/x": "", "/workspace/d2/y": "" }, programs, now: () => Date.UTC(2026, 0, 2, 15, 4, 5) });
  const r = await runShell(script, { host, cwd: "/workspace", env: { HOME: "/home/u", USER: "u" }, stdin: stdin ? enc.encode(stdin) : undefined });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

// [script, expected stdout]
const CASES: [string, string][] = [
  // completion
  ["complete -W 'foo bar' cmd; complete -F f other; complete -p", "complete -W 'foo bar' cmd\ncomplete -F f other\n"],
  ["compgen -W 'alpha beta alpine' al", "alpha\nalpine\n"],
  ["f() { :; }; g2() { :; }; compgen -A function", "f\ng2\n"],
  ["compgen -k el", "elif\nelse\n"],
  ["compgen -A shopt -P '[' -S ']' nu", "[nullglob]\n"],
  ["shopt -s extglob; fun() { COMPREPLY=(one two three bin); }; compgen -X '@(two|bin)' -F fun", "one\nthree\n"],
  ["compgen -f d; compgen -d d2/; compgen -f d2/", "d1\nd2\nd2/y\n"],
  ["compgen -A foo; echo $?", "2\n"],
  ["compgen -W '' x; echo $?", "1\n"],
  ["compopt -o nospace; echo $?", "1\n"],
  // kill / jobs / wait
  ["kill -l 9 15 SIGUSR1 130", "KILL\nTERM\n10\nINT\n"],
  ["sleep 1 & kill -TERM %%; wait $!; echo $?", "143\n"],
  ["sleep 1 & kill -s KILL $!; wait %1; echo $?", "137\n"],
  ["kill -9999 1; echo $?", "1\n"],
  ["wait zzz; echo $?", "1\n"],
  // umask / ulimit
  ["umask; umask -S; umask -p", "0022\nu=rwx,g=rx,o=rx\numask 0022\n"],
  ["umask 0124; umask a-r; umask", "0564\n"],
  ["umask 0137; umask u=,g+,o-; umask", "0737\n"],
  ["umask 0124; umask b=rwx; echo $?; umask", "1\n0124\n"],
  ["umask 999; echo $?", "1\n"],
  ["ulimit -f; ulimit -f 100; ulimit -f; ulimit -H -f", "unlimited\n100\n100\n"],
  ["ulimit -H -t 100; ulimit -S -t 200; echo $?", "1\n"],
  // directory stack
  ["cd d1; pushd ../d2 >/dev/null; dirs -l -v; popd >/dev/null; pwd", " 0  /workspace/d2\n 1  /workspace/d1\n/workspace/d1\n"],
  ["pushd -z; echo $?; popd zzz; echo $?", "2\n2\n"],
  // history / fc
  ["printf 'a 1\\nb 2\\n' > h; HISTFILE=h; history -r; history; fc -l 1 2; fc -ln -1", "    1  a 1\n    2  b 2\n1\t a 1\n2\t b 2\n\t b 2\n"],
  ["history -s first; history -s second; history -d 1; history", "    1  second\n"],
  ["history x; echo $?", "1\n"],
  // bind
  ["bind -q yank; bind -q vi-subst; echo $?", 'yank can be invoked via "\\C-y".\nvi-subst is not bound to any keys.\n1\n'],
  ["bind -x '\"\\C-o\": echo hi'; bind -X", '"\\C-o": "echo hi"\n'],
  // prompt strings
  ["PS1='\\u@\\h:\\w\\$ '; echo \"${PS1@P}\"", "u@toolshed:/workspace$ \n"],
  ["x='\\'; y=h; PS1='$x$y \\\\\\$ \\101'; echo \"${PS1@P}\"", "\\h \\$ A\n"],
  ["PS1='\\t \\D{%Y-%m-%d} \\[x\\]'; echo \"${PS1@P}\"", "15:04:05 2026-01-02 x\n"],
];

describe("builtins: completion, jobs, umask, dirs, history, bind, prompts", () => {
  for (const [script, want] of CASES) {
    it(JSON.stringify(script), async () => {
      const r = await run(script);
      expect(r.out).toBe(want);
    });
  }
});

describe("set -x and bash -i", () => {
  const T: [string, string, string | undefined][] = [
    ["set -x; echo '1 2' \\' \\\\ $'a\\tb'", "1 2 ' \\ a\tb\n", "+ echo '1 2' \\' '\\' 'a\tb'\n"],
    ["PS4='[$?] '; set -x; false; x=1 y=2", "", "[0] false\n[1] x=1\n[1] y=2\n"],
    ["set -x; a=(1); a+=(2 'b c')", "", "+ a=(1)\n+ a+=(2 'b c')\n"],
  ];
  for (const [script, out, err] of T) {
    it(JSON.stringify(script), async () => {
      const r = await run(script);
      expect(r.out).toBe(out);
      if (err !== undefined) expect(r.err).toBe(err);
    });
  }
  it("bash -i echoes input, records history, runs PROMPT_COMMAND", async () => {
    const r = await run("PS1='$ ' bash --norc -i", "PROMPT_COMMAND='echo P'\necho one\nhistory\n");
    expect(r.out).toBe("P\none\nP\n    1  PROMPT_COMMAND='echo P'\n    2  echo one\n    3  history\nP\n");
    expect(r.err).toBe("$ PROMPT_COMMAND='echo P'\n$ echo one\n$ history\n$ exit\n");
  });
});
