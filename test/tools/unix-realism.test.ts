import { describe, it } from "vitest";
import { newSession } from "../helpers";
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

describe("realism", () => {
  it("keeps the order of writes to stdout and stderr when they share a sink", async () => {
    await expectRows(await newSession(), ORDER);
  });
});
