import { describe, it, expect } from "vitest";
import { runShell } from "../../src/shell/index";
import { MemoryHost, MemProgram } from "../../src/shell/memory-host";
import { parse } from "../../src/shell/syntax/parser";

const dec = new TextDecoder();
const enc = new TextEncoder();

// test-only programs
const programs: Record<string, MemProgram> = {
  cat: async (argv, io) => {
    // reads stdin, or /dev/fd/N operands (process substitution) through io.extraFds
    const srcs = argv.length > 1 ? argv.slice(1).map((a) => io.extraFds?.[Number(a.replace("/dev/fd/", ""))]) : [io.stdin];
    for (const r of srcs) {
      if (!r) return 1;
      for (;;) {
        const c = await r.read();
        if (!c) break;
        await io.stdout.write(c);
      }
    }
    return 0;
  },
  yes: async (_a, io) => {
    const line = enc.encode("y\n".repeat(1000));
    for (;;) await io.stdout.write(line);
  },
  head1: async (_a, io) => {
    const c = await io.stdin.read();
    if (c) await io.stdout.write(c.subarray(0, c.indexOf(10) + 1));
    return 0;
  },
  seq: async (argv, io) => {
    let s = "";
    for (let i = 1; i <= +argv[1]; i++) s += i + "\n";
    await io.stdout.write(enc.encode(s));
    return 0;
  },
};

async function run(
  script: string,
  o: { files?: Record<string, string>; now?: () => number; deny?: (a: string[]) => { rule: string; reason: string } | null; limits?: object; stdin?: string } = {},
) {
  const host = new MemoryHost({ files: o.files, programs, now: o.now, deny: o.deny });
  const r = await runShell(script, { host, cwd: "/workspace", env: { HOME: "/workspace" }, limits: o.limits, stdin: o.stdin ? enc.encode(o.stdin) : undefined });
  return { ...r, out: dec.decode(r.stdout), err: dec.decode(r.stderr), host };
}

describe("parser", () => {
  const ok: string[] = [
    "echo hi",
    "a=1 b=2 cmd x",
    "f() { echo; }",
    "if a; then b; elif c; then d; else e; fi",
    "for i in 1 2; do :; done",
    "for ((i=0;i<3;i++)); do :; done",
    "case x in a|b) :;; c) :;& *) :;;& esac",
    "x=(1 2 [5]=3)",
    "cat <<EOF\n$x\nEOF\n",
    "a && b || c; d & e",
    "! a | b |& c",
    "[[ -f x && $a =~ ^(a|b)$ ]]",
    "echo ${x:-a} ${#x} ${x//a/b} ${x:1:2} ${!p*}",
    "(( x = 1 + 2 ))",
    "echo $(( 1 << 2 )) $(echo `echo hi`)",
    "exec 3>&1 2>&- 4<>f",
    "echo @(a|b) *(x)",
  ];
  for (const s of ok) it(`parses: ${JSON.stringify(s)}`, () => expect(parse(s).length).toBeGreaterThan(0));
  const bad: [string, RegExp][] = [
    ["if true; then", /unexpected end of file/],
    ["echo )", /unexpected token `\)'/],
    ["echo 'abc", /matching `''/],
    ["fi", /unexpected token `fi'/],
  ];
  for (const [s, re] of bad) it(`rejects: ${JSON.stringify(s)}`, () => expect(() => parse(s)).toThrow(re));
});

describe("runner", () => {
  const cases: [string, string, number?][] = [
    ["echo hello world", "hello world\n"],
    ["x=3; echo $((x * 2 + 1))", "7\n"],
    ["echo $(( (1 << 63) - 1 + 1 ))", "-9223372036854775808\n"],
    ["f() { local a=$1; echo \"<$a>\"; return 4; }; f 'x y'; echo $?", "<x y>\n4\n"],
    ["for i in a b; do echo $i; done | cat", "a\nb\n"],
    ["false | true; echo ${PIPESTATUS[@]}", "1 0\n"],
    ["set -o pipefail; false | true; echo $?", "1\n"],
    ["x='a b  c'; set -- $x; echo $#", "3\n"],
    ["IFS=:; x='a::b'; set -- $x; echo $#", "3\n"],
    ["echo {1..3} {a,b}c", "1 2 3 ac bc\n"],
    ["declare -A m=([k]=v [j]=w); echo ${m[k]} ${#m[@]}", "v 2\n"],
    ["a=(1 2 3); a+=(4); echo ${a[@]:1:2} ${#a[@]}", "2 3 4\n"],
    ["s=file.tar.gz; echo ${s%.*} ${s%%.*} ${s#*.} ${s##*.} ${s^^}", "file.tar file tar.gz gz FILE.TAR.GZ\n"],
    ["[[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}", "b\n"],
    ["case foo in f*) echo 1;& x) echo 2;; *) echo 3;; esac", "1\n2\n"],
    ["set -e; false; echo no", "", 1],
    ["set -e; false || true; echo yes", "yes\n"],
    ["set -u; echo $nope", "", 1],
    ["trap 'echo bye' EXIT; echo hi", "hi\nbye\n"],
    ["echo a > f; echo b >> f; cat < f", "a\nb\n"],
    ["cat <<-EOF\n\tx $((1+1))\n\tEOF\n", "x 2\n"],
    ["read a b <<< 'one two three'; echo $b", "two three\n"],
    ["printf '%5s|%-3d|%x\\n' ab 7 255", "   ab|7  |ff\n"],
    ["bash -c 'echo $0 $1' zero one", "zero one\n"],
    ["x=1; (x=2; echo $x); echo $x", "2\n1\n"],
    ["i=0; while ((i<5)); do ((i++)); [[ $i == 3 ]] && break; done; echo $i", "3\n"],
    ["nosuch", "", 127],
    ["echo hi >&2", ""],
    ["shopt -s extglob; [[ foo.c == @(*.c|*.h) ]] && echo y", "y\n"],
    ['echo ${x@Q}; x="it\'s"; echo ${x@Q}', "\n'it'\\''s'\n"],
    ["sleep 0 & wait; echo done", "done\n"],
    ["cat <(echo from-procsub)", "from-procsub\n"],
    ["shopt -s expand_aliases; eval $'alias hi=\"echo hello\"\nhi there'", "hello there\n"],
    ["x=$(false; echo kept); echo $x", "kept\n"],
    ["set -e; x=$(false); echo no", "", 1],
    ['f() { echo $FOO; }; FOO=temp f; echo "[$FOO]"', "temp\n[]\n"],
    ["declare -i n=5; n+=2*3; echo $n", "11\n"],
    ["a=(x y z); for i in \"${!a[@]}\"; do printf '%s=%s ' $i ${a[i]}; done; echo", "0=x 1=y 2=z \n"],
  ];
  for (const [script, out, code] of cases) {
    it(`runs: ${JSON.stringify(script)}`, async () => {
      const r = await run(script);
      expect(r.out).toBe(out);
      expect(r.exitCode).toBe(code ?? 0);
    });
  }

  it("globs against the filesystem", async () => {
    const r = await run("echo *.txt; echo sub/*; echo none*; shopt -s nullglob; echo none*", { files: { "a.txt": "", "b.txt": "", "sub/c": "", ".h.txt": "" } });
    expect(r.out).toBe("a.txt b.txt\nsub/c\nnone*\n\n");
  });

  it("globs through `.` and `..` components as bash does", async () => {
    const r = await run("echo ./*; echo ./sub/*; echo sub/../*.txt; echo sub/./*", { files: { "a.txt": "", "b.txt": "", "sub/c": "" } });
    expect(r.out).toBe("./a.txt ./b.txt ./sub\n./sub/c\nsub/../a.txt sub/../b.txt\nsub/./c\n");
  });

  it("yes | head ends at once (EPIPE)", async () => {
    const r = await run("yes | head1; echo ${PIPESTATUS[@]}");
    expect(r.out).toBe("y\n141 0\n");
  });

  it("denies commands through the hook, inside functions and substitutions too", async () => {
    const deny = (a: string[]) => (a[0] === "rm" ? { rule: "no-rm", reason: "rm is not allowed" } : null);
    // `$r` keeps the command out of the literal text, so it is judged when it runs.
    const r = await run("r=rm; f() { $r -rf x; }; f; echo $?; x=$($r y); echo done", { deny });
    expect(r.out).toBe("126\ndone\n");
    expect(r.err).toContain("toolshed: denied (no-rm): rm is not allowed");
    expect(r.denied).toEqual({ rule: "no-rm", reason: "rm is not allowed" });
    // Written out literally, it stops the whole script before anything in it runs.
    const lit = await run("echo first; f() { rm -rf x; }; x=$(rm y); echo done", { deny });
    expect([lit.exitCode, lit.out]).toEqual([126, ""]);
    expect(lit.denied).toEqual({ rule: "no-rm", reason: "rm is not allowed" });
  });

  it("stops an infinite loop with a frozen clock (step budget)", async () => {
    const r = await run("while true; do :; done", { now: () => 1000, limits: { timeoutMs: 200 } });
    expect(r.exitCode).toBe(124);
    expect(r.limit).toBe("timeout");
    expect(r.err).toContain("time limit");
  });

  it("limits output bytes", async () => {
    const r = await run("while :; do echo xxxxxxxxxxxxxxxx; done", { limits: { maxOutputBytes: 1000 } });
    expect(r.exitCode).toBe(125);
    expect(r.limit).toBe("output");
    expect(r.stdout.length).toBe(1000);
  });

  it("limits call depth and brace expansion", async () => {
    const a = await run("f() { f; }; f", { limits: { maxCallDepth: 50 } });
    expect([a.exitCode, a.limit]).toEqual([125, "depth"]);
    const b = await run("echo {1..10}{1..10}{1..10}", { limits: { maxBraceExpansion: 100 } });
    expect([b.exitCode, b.limit]).toEqual([125, "brace"]);
  });

  it("refuses paths outside the workspace", async () => {
    const r = await run("echo x > /etc/passwd; echo $?");
    expect(r.out).toBe("1\n");
    expect(r.denied?.rule).toBe("path-outside-workspace");
  });

  it("runs shebang scripts in the workspace with this interpreter", async () => {
    const r = await run("./s.sh a b", { files: { "s.sh": '#!/bin/bash\necho "$0 $#"\n' } });
    expect(r.out).toBe("./s.sh 2\n");
  });
});
