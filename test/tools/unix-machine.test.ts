import { describe, expect, it } from "vitest";
import { api, newSession, tool } from "../helpers";
import { expectRows, type Row } from "./unix-table";

/**
 * The machine the shell and its programs see (issue 12 item 1), through the bash tool. Each row
 * is what bash on Debian prints for the same command, except where this sandbox's own files are
 * the content (/etc/hostname) or where a path is refused (the reason then names what exists).
 */
const ROWS: Row[] = [
  { cmd: "echo x > /tmp/f; cat /tmp/f", stdout: "x\n" },
  { cmd: "cd /tmp && pwd && echo y > rel && cat /tmp/rel && ls", stdout: "/tmp\ny\nf\nrel\n" },
  { cmd: 'echo "$TMPDIR"', stdout: "/tmp\n" },
  { cmd: "mkdir -p /tmp/d/e && touch /tmp/d/e/f && find /tmp/d | sort", stdout: "/tmp/d\n/tmp/d/e\n/tmp/d/e/f\n" },
  { cmd: "sort /etc/group > /tmp/g && wc -l < /tmp/g && cp /tmp/g /tmp/g2 && cmp /tmp/g /tmp/g2 && echo same", stdout: "39\nsame\n" },
  { cmd: "cd /tmp/d && cd .. && pwd && cd /workspace/.. && pwd", stdout: "/tmp\n/\n" },
  { cmd: "ls /", stdout: "bin\ndev\netc\nproc\ntmp\nusr\nvar\nworkspace\n" },
  { cmd: "ls /usr; ls /usr/local", stdout: "bin\nlocal\nshare\nbin\n" },
  // Debian's tzdata for TZ=Zone (the session's own zone is UTC).
  { cmd: "ls /usr/share; readlink /etc/localtime; readlink /usr/share/zoneinfo/US/Eastern", stdout: "zoneinfo\n/usr/share/zoneinfo/Etc/UTC\n../America/New_York\n" },
  { cmd: "ls /usr/bin | grep -x -e sed -e grep -e bash", stdout: "bash\ngrep\nsed\n" },
  { cmd: "ls /bin | grep -c -x sed", stdout: "1\n" },
  { cmd: "command -v sed; which sed; type sed; type -P grep", stdout: "/usr/bin/sed\n/usr/bin/sed\nsed is /usr/bin/sed\n/usr/bin/grep\n" },
  { cmd: "command -v bash; type -a sed", stdout: "/usr/bin/bash\nsed is /usr/bin/sed\nsed is /bin/sed\n" },
  { cmd: "[ -x /usr/bin/sed ] && [ -f /bin/sed ] && [ ! -e /usr/bin/nosuch ] && echo yes", stdout: "yes\n" },
  { cmd: "/usr/bin/printf '%s\\n' direct; /bin/echo hi", stdout: "direct\nhi\n" },
  { cmd: "printf 'a b\\n' | /usr/bin/env sed 's/a/A/'", stdout: "A b\n" },
  { cmd: "cat /etc/hostname; grep -c agent /etc/passwd", stdout: "toolshed\n1\n" },
  { cmd: "grep ^ID_LIKE /etc/os-release; head -1 /etc/hosts | cut -f2", stdout: "ID_LIKE=debian\nlocalhost\n" },
  { cmd: "grep ^Name /proc/self/status; ls /proc/self", stdout: "Name:\tbash\ncmdline\nstatus\n" },
  { cmd: "ls /dev | grep -c -x -e null -e zero -e urandom; echo hi > /dev/null; head -c 3 /dev/zero | wc -c; head -c 8 /dev/urandom | wc -c", stdout: "3\n3\n8\n" },
  {
    cmd: "ls /var/log",
    exit: 2,
    stderr: /\/var\/log is not available in this sandbox; only \/workspace, \/tmp, \/var\/tmp and \/usr\/local\/bin are writable/,
    denied: "path-unavailable",
  },
  { cmd: "cd /opt", exit: 1, stderr: /\/opt is not available in this sandbox/, denied: "path-unavailable" },
  { cmd: "echo x > /var/x", exit: 1, stderr: /\/var\/x is not available in this sandbox/, denied: "path-unavailable" },
  { cmd: "[ -e /var/log ] || echo absent", stdout: "absent\n" },
  { cmd: "echo x > /etc/passwd", exit: 1, stderr: /\/etc\/passwd is read-only in this sandbox/, denied: "path-read-only" },
  { cmd: "touch /usr/bin/evil", exit: 1, stderr: /read-only/, denied: "path-read-only" },
  { cmd: "cat /proc/self/environ", exit: 126, denied: "proc-environ" },
];

describe("the machine the shell sees", () => {
  it("behaves as bash on Debian for every row", async () => {
    const id = await newSession();
    await expectRows(id, ROWS);
  });

  it("keeps /tmp across calls, counts it in the quota, and keeps it from the file tools", async () => {
    const id = await newSession();
    const before = (await api("GET", `/v1/sessions/${id}`)).body.usage;
    expect((await tool(id, "bash", { command: "head -c 5000 /dev/zero > /tmp/big; echo secret > /tmp/x" })).exit_code).toBe(0);
    expect((await tool(id, "bash", { command: "cat /tmp/x; wc -c < /tmp/big" })).stdout).toBe("secret\n5000\n");
    const after = (await api("GET", `/v1/sessions/${id}`)).body.usage;
    expect(after.bytes - before.bytes).toBe(5007);
    expect(after.files - before.files).toBe(2);
    for (const [name, args] of [
      ["read_file", { path: "/tmp/x" }],
      ["read_file", { path: "../tmp/x" }],
      ["list_dir", { path: "/tmp" }],
      ["write_file", { path: "/tmp/y", content: "no" }],
      ["grep", { pattern: "secret", path: "/tmp" }],
    ] as const) {
      const r = await tool(id, name, args);
      expect(r.success, `${name} ${JSON.stringify(args)}`).toBe(false);
      expect(r.denied?.rule).toMatch(/^path-(outside-workspace|traversal)$/);
    }
    expect((await api("GET", `/v1/sessions/${id}/files/../tmp/x`)).status).not.toBe(200);
    expect((await tool(id, "bash", { command: "rm -rf /tmp/*; ls -A /tmp | wc -l" })).stdout).toBe("0\n");
  });

  it("gives two sessions separate /tmp", async () => {
    const a = await newSession();
    const b = await newSession();
    await tool(a, "bash", { command: "echo mine > /tmp/s" });
    const r = await tool(b, "bash", { command: "cat /tmp/s; ls /tmp | wc -l" });
    expect(r.stdout).toBe("0\n");
    expect(r.stderr).toContain("No such file or directory");
  });
});
