import { describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";
import { expectRows, type Row } from "./unix-table";

/**
 * Scripts as programs (issue 12 item 3) and wrappers that reach the shell (issue 13 item 5),
 * through the bash tool. Expected values are what bash 5.2 on Debian prints.
 */
const SETUP = [
  "printf '#!/bin/bash\\necho \"$0 $# $1\"; X=inner; exit 3\\n' > run.sh",
  "printf '#!/bin/sh\\necho sh:$1\\n' > s.sh",
  "printf '#!/usr/bin/env bash\\necho env:$GREETING:$#\\n' > e.sh",
  "printf 'echo noshebang $1\\n' > plain.sh",
  "printf '#!/usr/bin/env python3\\nprint(1)\\n' > p.py",
  "printf '#!/usr/bin/perl\\nprint 1\\n' > p.pl",
  "printf '#!/usr/bin/awk -f\\n{ print \"awk:\" $1 }\\n' > a.awk",
  "printf '#!/bin/sh\\necho mine \"$@\"\\n' > /usr/local/bin/mine",
  "printf '#!/bin/bash\\necho tmp $1\\n' > /tmp/x.sh",
  "chmod +x run.sh s.sh e.sh plain.sh p.py p.pl a.awk /usr/local/bin/mine /tmp/x.sh",
].join("; ");

const ROWS: Row[] = [
  { cmd: './run.sh a b; echo "st=$? X=${X-unset}"', stdout: "./run.sh 2 a\nst=3 X=unset\n" },
  { cmd: "bash run.sh q; echo $?; sh s.sh one", stdout: "run.sh 1 q\n3\nsh:one\n" },
  { cmd: "export GREETING=hi; ./e.sh 1 2; GREETING=tmp ./e.sh", stdout: "env:hi:2\nenv:tmp:0\n" },
  { cmd: "./plain.sh z", stdout: "noshebang z\n" },
  { cmd: "/tmp/x.sh 7; cd /tmp && ./x.sh 8", stdout: "tmp 7\ntmp 8\n" },
  { cmd: "mine a b; command -v mine; type -t mine", stdout: "mine a b\n/usr/local/bin/mine\nfile\n" },
  { cmd: "echo 'echo sourced $1; Y=kept' > lib.sh; source lib.sh q; . ./lib.sh; echo $Y", stdout: "sourced q\nsourced\nkept\n" },
  { cmd: "echo w | ./a.awk", stdout: "awk:w\n" },
  { cmd: "./p.py", stdout: "1\n" },
  { cmd: "./p.pl", exit: 127, stderr: /\/usr\/bin\/perl: interpreter not available in this sandbox \(there is no node or perl here; python3 is\)/ },
  { cmd: "./nosuch.sh", exit: 127, stderr: /\.\/nosuch\.sh: No such file or directory/ },
  { cmd: "echo 'echo ran' > nox.sh; ./nox.sh", exit: 126, stderr: /^bash: line 1: \.\/nox\.sh: Permission denied\n$/ },
  { cmd: "bash nox.sh; sh nox.sh; . ./nox.sh; chmod u+x nox.sh && ./nox.sh", stdout: "ran\nran\nran\nran\n" },
  { cmd: "chmod -x /usr/local/bin/mine; mine; echo $?", stdout: "126\n", stderr: /mine: Permission denied/ },
  {
    cmd: "printf 'p\n' | xargs chmod 600; printf 'p\n' > p; printf 'p\n' | xargs chmod 751; [ -x p ] && echo x",
    stdout: "x\n",
    stderr: /chmod: cannot access 'p': No such file or directory/,
  },
  { cmd: "find . -maxdepth 1 -name 'p' -exec chmod a-x {} \\; ; [ -x p ] || echo nox", stdout: "nox\n" },
  { cmd: "bash --version | head -1", stdout: "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n" },
  // wrappers (issue 13 item 5)
  {
    cmd: "env bash -c 'echo in env $V' ; env V=1 bash -c 'echo $V'; export V=2; env -u V bash -c 'echo ${V-none}'; env -i bash -c 'echo ${V-none}'",
    stdout: "in env\n1\nnone\nnone\n",
  },
  { cmd: "env ./run.sh x; echo $?; env GREETING=w ./e.sh", stdout: "./run.sh 1 x\n3\nenv:w:0\n" },
  { cmd: "printf 'a\\nb\\n' | xargs -n1 sh -c 'echo got $0'", stdout: "got a\ngot b\n" },
  { cmd: "printf 'a b c\\n' | xargs bash -c 'echo $#: \"$@\"' _", stdout: "3: a b c\n" },
  { cmd: "printf 'p q\\n' | xargs -I{} ./s.sh {}", stdout: "sh:p q\n" },
  { cmd: "printf '1\\n2\\n' | xargs -n1 sh -c 'exit $0'; echo $?", stdout: "123\n" },
  { cmd: "mkdir -p fx && touch fx/a fx/b && find fx -type f -exec sh -c 'echo f:$1' _ {} \\; | sort", stdout: "f:fx/a\nf:fx/b\n" },
  { cmd: "find fx -type f -exec bash -c 'echo $#' _ {} +", stdout: "2\n" },
  { cmd: "f() { echo fn $1; }; export -f f; timeout 5 bash -c 'f 1'; printf 'z\\n' | xargs bash -c 'f \"$@\"' _", stdout: "fn 1\nfn z\n" },
  { cmd: "nice -n 5 bash -c 'echo niced'; nohup ./s.sh n; timeout 5 ./s.sh t", stdout: "niced\nsh:n\nsh:t\n" },
  { cmd: "echo / | xargs rm -rf", exit: 126, denied: "rm-root" },
  { cmd: "echo / | xargs sh -c 'rm -rf $0'; echo after", stdout: "after\n", stderr: /denied \(rm-root\)/, denied: "rm-root" },
  { cmd: "env bash -c 'cat .env'", exit: 126, denied: "dotenv" },
];

describe("scripts and wrappers", () => {
  it("behave as bash on Debian for every row", async () => {
    const id = await newSession();
    const setup = await tool(id, "bash", { command: SETUP });
    expect(setup.exit_code, setup.stderr).toBe(0);
    await expectRows(id, ROWS);
  });
});
