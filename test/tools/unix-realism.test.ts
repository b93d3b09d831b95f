import { describe, it } from "vitest";
import { newSession, tool } from "../helpers";
import { expectRows, type Row } from "./unix-table";

/**
 * Issue 12, realism: commands an agent types, each row's stdout what bash on Debian prints for
 * the same command (recorded with /bin/bash as `nobody` in an empty temp dir).
 */

/** Output of one program (or several) on stdout and stderr sent to one place keeps write order. */
const ORDER: Row[] = [
  { cmd: "echo a > f; cat f nosuch f 2>&1", exit: 1, stdout: "a\ncat: nosuch: No such file or directory\na\n" },
  { cmd: "echo a > f; cat f nosuch f 2>&1 | head -5", stdout: "a\ncat: nosuch: No such file or directory\na\n" },
  { cmd: "echo a > f; cat f nosuch f > log 2>&1; cat log", stdout: "a\ncat: nosuch: No such file or directory\na\n" },
  { cmd: "echo a > f; cat f nosuch f &> log; cat log", stdout: "a\ncat: nosuch: No such file or directory\na\n" },
  { cmd: "echo a > f; { cat f; cat nosuch; cat f; } 2>&1", stdout: "a\ncat: nosuch: No such file or directory\na\n" },
  { cmd: "getopt -o a -- -a -b x 2>&1", exit: 1, stdout: "getopt: invalid option -- 'b'\n -a -- 'x'\n" },
  { cmd: "{ echo x; echo y >&2; echo z; } 2>&1", stdout: "x\ny\nz\n" },
  { cmd: "(echo x; echo y >&2; echo z) 2>&1 | cat", stdout: "x\ny\nz\n" },
  { cmd: "f() { echo x; ls nosuch; echo z; }; f 2>&1", stdout: "x\nls: cannot access 'nosuch': No such file or directory\nz\n" },
  {
    cmd: "printf 'echo x\\necho y >&2\\nhead -c2 nosuch\\necho z\\n' > s.sh; bash s.sh 2>&1",
    stdout: "x\ny\nhead: cannot open 'nosuch' for reading: No such file or directory\nz\n",
  },
  { cmd: "echo a > f; head f nosuch f 2>&1", exit: 1, stdout: "==> f <==\na\nhead: cannot open 'nosuch' for reading: No such file or directory\n\n==> f <==\na\n" },
  { cmd: "echo a > f; cat f nosuch f 2>&1 >/dev/null", exit: 1, stdout: "cat: nosuch: No such file or directory\n" },
  { cmd: "echo a > f; cat f nosuch f 2>&1 1>&2 | wc -l", stdout: "3\n" },
  { cmd: "echo a > f; (cat f nosuch f 3>&1 1>&2 2>&3) 2>&1", exit: 1, stdout: "a\ncat: nosuch: No such file or directory\na\n" },
  { cmd: "echo a > f; wc -l f nosuch f 2>&1", exit: 1, stdout: "1 f\nwc: nosuch: No such file or directory\n1 f\n2 total\n" },
];

/** Access and modification times (touch -a/-m/-r, ls -u, stat %x/%X, find -atime/-amin/-anewer), relatime reads. */
const TIMES: Row[] = [
  {
    cmd: "echo x > f; touch -d '2020-01-01' f; cat f >/dev/null; [ $(stat -c %X f) -gt $(stat -c %Y f) ] && echo moved; stat -c %y f",
    stdout: "moved\n2020-01-01 00:00:00.000000000 +0000\n",
  },
  { cmd: "echo x > f; touch -a -d '2030-01-01' f; cat f >/dev/null; stat -c %x f", stdout: "2030-01-01 00:00:00.000000000 +0000\n" },
  {
    cmd: "echo x > f; touch -d '2020-01-01 00:00' f; touch -a -d '2021-02-03 04:05' f; ls -lu --time-style=long-iso f | cut -d' ' -f6-; ls -l --time-style=long-iso f | cut -d' ' -f6-",
    stdout: "2021-02-03 04:05 f\n2020-01-01 00:00 f\n",
  },
  {
    cmd: "touch -d 2020-01-01 a b; touch -a -d 2022-01-01 a; touch -a -d 2023-01-01 b; ls -u; ls -t; ls -ltu --time-style=+%Y | tail -n +2 | rev | cut -d' ' -f1,2 | rev",
    stdout: "b\na\na\nb\n2023 b\n2022 a\n",
  },
  {
    cmd: "touch -d 2020-01-01 a; touch -a -d 2021-01-01 a; touch -m -d 2022-01-01 a; stat -c '%X %Y' a; touch -r a b; stat -c '%X %Y' b",
    stdout: "1609459200 1640995200\n1609459200 1640995200\n",
  },
  { cmd: "touch -d 2020-01-01 a; touch -a -d 2021-06-01 a; find . -atime +100 -name a; find . -amin -100 -name a; find . -newer a -name b", stdout: "./a\n" },
  { cmd: "touch -d 2020-01-01 a; touch -d 2021-01-01 b; touch -a -d 2022-01-01 a; find . -anewer b -type f", stdout: "./a\n" },
  {
    cmd: "touch -d '2020-01-01' f; stat -c '%x' f; touch -a f; [ $(stat -c %X f) -gt $(stat -c %Y f) ] && echo newer",
    stdout: "2020-01-01 00:00:00.000000000 +0000\nnewer\n",
  },
];

/** /proc agrees with uname and nproc, as on a Linux box. */
const PROC: Row[] = [
  {
    cmd: '[ "$(grep -c ^processor /proc/cpuinfo)" = "$(nproc)" ] && echo same; uname -m; grep -q \'^flags.* lm \' /proc/cpuinfo && echo 64-bit',
    stdout: "same\nx86_64\n64-bit\n",
  },
  {
    cmd: "grep -m1 '^model name' /proc/cpuinfo | grep -vqi wasm && echo x86; awk '/^MemTotal:/{print ($2 > 0)}' /proc/meminfo; head -c 14 /proc/version",
    stdout: "x86\n1\nLinux version ",
  },
];

/**
 * One-liners agents type every day, mixing features. Recorded with Debian's bash 5.2 in the C
 * locale and UTC; `command -v python3` answers as Debian with python3 installed.
 */
const DAILY: Row[] = [
  { cmd: 'set -euo pipefail; x=$(echo hi); echo "$x"; false | true; echo after', stdout: "hi\n", exit: 1 },
  { cmd: 'set -euo pipefail; false | true | cat; echo "rc=$?"', stdout: "", exit: 1 },
  { cmd: "set -euo pipefail; echo start; grep -q nomatch /dev/null; echo never", stdout: "start\n", exit: 1 },
  // The tool's script exits as a script file does (1) after `set -u` trips, not 127 as `bash -c`.
  {
    cmd: 'printf \'set -u\\necho "${A:-default}"\\necho "$B"\\necho never\\n\' > s.sh; bash s.sh; echo "rc=$?"',
    stdout: "default\nrc=1\n",
    stderr: /s\.sh: line 3: B: unbound variable/,
  },
  { cmd: "trap 'echo cleanup' EXIT; echo work", stdout: "work\ncleanup\n" },
  { cmd: "trap 'echo \"exit $?\"' EXIT; false; exit 3", stdout: "exit 3\n", exit: 3 },
  { cmd: "f() { trap 'echo ret' RETURN; echo in; }; f; echo out", stdout: "in\nret\nout\n" },
  {
    cmd: 'cat > s.sh <<\'EOF\'\n#!/bin/bash\necho "args: $# $*"\nfor a in "$@"; do echo "[$a]"; done\nEOF\nbash s.sh one "two three"',
    stdout: "args: 2 one two three\n[one]\n[two three]\n",
  },
  { cmd: 'cat > gen.sh <<EOF\necho "value=$((2+3))"\nEOF\nbash gen.sh; cat gen.sh', stdout: 'value=5\necho "value=5"\n' },
  { cmd: "mkdir -p d/e; touch d/a.txt d/e/b\\ c.txt; find d -type f -print0 | sort -z | xargs -0 -n1 echo got", stdout: "got d/a.txt\ngot d/e/b c.txt\n" },
  {
    cmd: "mkdir -p d/e; touch d/a.txt 'd/e/b c.txt'; find d -type f -print0 | sort -z | while IFS= read -r -d '' f; do echo \"<$f>\"; done",
    stdout: "<d/a.txt>\n<d/e/b c.txt>\n",
  },
  { cmd: 'printf \'a\\nb\\n\\nc\' > f; while IFS= read -r line || [ -n "$line" ]; do echo "L:$line"; done < f', stdout: "L:a\nL:b\nL:\nL:c\n" },
  { cmd: "cd /nonexistent 2>/dev/null || { echo fail >&2; echo recovered; }", stdout: "recovered\n", stderr: /fail/ },
  { cmd: "mkdir x && cd x || { echo fail >&2; exit 1; }; pwd | sed 's|.*/||'", stdout: "x\n" },
  { cmd: "echo 'hello world' > f; content=$(< f); echo \"${content^^}\"", stdout: "HELLO WORLD\n" },
  { cmd: "arr=(b a c a b a); printf '%s\\n' \"${arr[@]}\" | sort | uniq -c | sort -rn | head -2", stdout: "      3 a\n      2 b\n" },
  { cmd: "printf '1\\n2\\n3\\n' > f; wc -l < f; wc -l f", stdout: "3\n3 f\n" },
  { cmd: "echo one | tee -a log >/dev/null; echo two | tee -a log; cat log", stdout: "two\none\ntwo\n" },
  { cmd: "printf 'a=1\\nb=2\\n' > c.ini; sed -i.bak 's/1/X/' c.ini; cat c.ini c.ini.bak", stdout: "a=X\nb=2\na=1\nb=2\n" },
  { cmd: "printf 'x\\n' > f; sed -i -e 's/x/y/' -e 's/y/z/' f; cat f", stdout: "z\n" },
  {
    cmd: "mkdir -p src/sub; echo 'const a = 1' > src/a.ts; echo 'const b = 1' > src/sub/b.ts; echo 'const c = 1' > src/c.js; grep -rn --include='*.ts' const src | sort",
    stdout: "src/a.ts:1:const a = 1\nsrc/sub/b.ts:1:const b = 1\n",
  },
  {
    cmd: "mkdir -p p; touch -d '2020-01-01' old; touch p/x.py; touch -d '2019-01-01' p/y.py; find . -name '*.py' -newer old -exec echo found {} \\;",
    stdout: "found ./p/x.py\n",
  },
  { cmd: "mkdir -p p; touch p/x.py p/y.py; find p -name '*.py' -exec wc -c {} + | sort", stdout: "0 p/x.py\n0 p/y.py\n0 total\n" },
  { cmd: "start=$(date +%s); end=$((start + 90)); echo $(( (end - start) / 60 ))m$(( (end - start) % 60 ))s", stdout: "1m30s\n" },
  { cmd: 'sleep 0.1 & pid=$!; wait $pid; echo "waited $?"', stdout: "waited 0\n" },
  { cmd: '(sleep 0.1; exit 7) & wait $!; echo "status $?"', stdout: "status 7\n" },
  { cmd: 'timeout 1 sleep 5; echo "rc=$?"', stdout: "rc=124\n" },
  { cmd: 'timeout 1 true; echo "rc=$?"', stdout: "rc=0\n" },
  { cmd: "{ time true; } 2>&1 | sed 's/[0-9]/N/g'", stdout: "\nreal\tNmN.NNNs\nuser\tNmN.NNNs\nsys\tNmN.NNNs\n" },
  { cmd: "TIMEFORMAT='%R'; { time sleep 0.01; } 2>&1 | sed 's/[0-9]/N/g'", stdout: "N.NNN\n" },
  { cmd: "ulimit -n | grep -Eq '^[0-9]+$|^unlimited$' && echo ok", stdout: "ok\n" },
  { cmd: '[ "$(nproc)" -ge 1 ] && echo ok', stdout: "ok\n" },
  { cmd: "getconf PAGESIZE; getconf LONG_BIT", stdout: "4096\n64\n" },
  { cmd: "getconf ARG_MAX | grep -Eq '^[0-9]+$' && echo ok", stdout: "ok\n" },
  { cmd: "locale 2>/dev/null | grep -c '^LC_'", stdout: "13\n" },
  { cmd: '[ "$(whoami)" = "$(id -un)" ] && echo same; uname -s; uname -m', stdout: "same\nLinux\nx86_64\n" },
  { cmd: "hostname | grep -q . && echo named", stdout: "named\n" },
  { cmd: "env | sort | grep -c '^PATH='", stdout: "1\n" },
  { cmd: "export FOO=bar; export -p | grep FOO", stdout: 'declare -x FOO="bar"\n' },
  { cmd: "declare -a a=(1 2); declare -A m=([k]=v); x=5; declare -p a m x", stdout: 'declare -a a=([0]="1" [1]="2")\ndeclare -A m=([k]="v" )\ndeclare -- x="5"\n' },
  { cmd: 'history; echo "rc=$?"', stdout: "rc=0\n" },
  { cmd: "command -v python3 || echo missing", stdout: "/usr/bin/python3\n" },
  { cmd: "command -v ls >/dev/null && echo has-ls", stdout: "has-ls\n" },
  { cmd: "type -t ls; type -t cd; type -t if", stdout: "file\nbuiltin\nkeyword\n" },
  { cmd: 'hash; echo "rc=$?"', stdout: "hash: hash table empty\nrc=0\n" },
  { cmd: 'stty size; echo "rc=$?"', stdout: "rc=1\n", stderr: /stty: 'standard input': Inappropriate ioctl for device/ },
  { cmd: 'tty; echo "rc=$?"', stdout: "not a tty\nrc=1\n" },
  { cmd: 'echo "$SHLVL"', stdout: "1\n" },
  { cmd: "echo $BASH_VERSION | cut -d. -f1", stdout: "5\n" },
  { cmd: 'echo "${BASH_VERSINFO[0]}"', stdout: "5\n" },
  { cmd: 'read -r a b <<< "x y z"; echo "$a|$b"', stdout: "x|y z\n" },
  { cmd: 'IFS=, read -ra parts <<< "a,b,c"; echo "${#parts[@]} ${parts[1]}"', stdout: "3 b\n" },
  { cmd: "mapfile -t lines < <(printf 'l1\\nl2\\n'); echo \"${#lines[@]} ${lines[1]}\"", stdout: "2 l2\n" },
  { cmd: 'x="path/to/file.tar.gz"; echo "${x##*/} ${x%%.*} ${x%/*} ${x#*.}"', stdout: "file.tar.gz path/to/file path/to tar.gz\n" },
  { cmd: 'for i in {1..3}; do echo -n "$i "; done; echo', stdout: "1 2 3 \n" },
  { cmd: "seq 1 5 | paste -sd+ | bc", stdout: "15\n" },
  { cmd: "echo $((16#ff)) $((2**10)) $((7/2)) $((-7%3))", stdout: "255 1024 3 -1\n" },
  { cmd: "printf '%05.2f|%-5s|%x\\n' 3.14159 ab 255", stdout: "03.14|ab   |ff\n" },
  { cmd: 'case "foo.txt" in *.txt) echo text;; *) echo other;; esac', stdout: "text\n" },
  { cmd: '[[ "abc123" =~ ^([a-z]+)([0-9]+)$ ]] && echo "${BASH_REMATCH[1]}-${BASH_REMATCH[2]}"', stdout: "abc-123\n" },
  { cmd: "echo 'a b' | awk '{print $2, NF}'", stdout: "b 2\n" },
  { cmd: "diff <(printf 'a\\nb\\n') <(printf 'a\\nc\\n'); echo \"rc=$?\"", stdout: "2c2\n< b\n---\n> c\nrc=1\n" },
  { cmd: 'cat <<< "here string" | tr a-z A-Z', stdout: "HERE STRING\n" },
  { cmd: 'ls nosuch 2>/dev/null; echo "rc=$?"', stdout: "rc=2\n" },
  { cmd: 'nosuchcmd; echo "rc=$?"', stdout: "rc=127\n", stderr: /bash: line 1: nosuchcmd: command not found/ },
  { cmd: 'echo "$0"', stdout: "bash\n" },
  { cmd: 'set -- a b c; shift; echo "$@ $#"', stdout: "b c 2\n" },
  { cmd: 'getopts_test() { while getopts "ab:" o; do echo "$o=${OPTARG:-}"; done; }; getopts_test -a -b val', stdout: "a=\nb=val\n" },
  { cmd: "printf '%s\\n' c b a | sort -r | head -1", stdout: "c\n" },
  { cmd: 'jobs; echo "rc=$?"', stdout: "rc=0\n" },
  { cmd: "echo $$ | grep -Eq '^[0-9]+$' && echo pid", stdout: "pid\n" },
  { cmd: "true && echo yes || echo no", stdout: "yes\n" },
  { cmd: "umask", stdout: "0022\n" },
  { cmd: "mktemp -d | grep -q '^/tmp/tmp\\.' && echo tmpdir", stdout: "tmpdir\n" },
  { cmd: "basename /a/b/c.txt .txt; dirname /a/b/c.txt", stdout: "c\n/a/b\n" },
  { cmd: "realpath -m ./a/../b | sed 's|.*/||'", stdout: "b\n" },
  { cmd: "date -d @0 -u +%Y-%m-%dT%H:%M:%S", stdout: "1970-01-01T00:00:00\n" },
  { cmd: "date -u -d '2024-01-31 +1 month' +%F", stdout: "2024-03-02\n" },
  { cmd: "printf 'b\\na\\n' | sort | tr '\\n' ' '; echo", stdout: "a b \n" },
  { cmd: "echo '{\"a\":[1,2]}' | jq -c '.a | map(.*2)'", stdout: "[2,4]\n" },
  { cmd: 'LC_ALL=C locale charmap; locale -a; [ "$(getconf _NPROCESSORS_ONLN)" = "$(nproc)" ] && echo same', stdout: "ANSI_X3.4-1968\nC\nC.utf8\nPOSIX\nsame\n" },
  { cmd: 'getconf NOPE; echo "rc=$?"; getconf PATH_MAX /', stdout: "rc=2\n4096\n", stderr: /getconf: Unrecognized variable `NOPE'/ },
];

/**
 * Runs each row in its own empty directory, as recorded. The directories are made by an earlier
 * call, so a row runs no command before its own (`hash` shows what ran).
 */
async function expectApart(rows: Row[]): Promise<void> {
  const id = await newSession();
  await tool(id, "bash", { command: `mkdir ${rows.map((_, i) => `/tmp/r${i}`).join(" ")}` });
  await expectRows(
    id,
    rows.map((r, i) => ({ ...r, cmd: `cd /tmp/r${i} && ${r.cmd}` })),
  );
}

describe("realism", () => {
  it("keeps the order of writes to stdout and stderr when they share a sink", async () => {
    await expectApart(ORDER);
  });

  it("keeps access times apart from modification times", async () => {
    await expectApart(TIMES);
  });

  it("shows a /proc that agrees with uname and nproc", async () => {
    await expectRows(await newSession(), PROC);
  });

  it("runs everyday one-liners as bash on Debian does", async () => {
    await expectApart(DAILY);
  });
});
