import { beforeAll, describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * Python in the session under the same limits and policy as every program: a runaway loop stops
 * by counted work (fuel), memory is capped inside Python (MemoryError), deep recursion is a
 * RecursionError, and each leaves the session working. Files go through the one policy.
 */
describe("python3 limits", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
  }, 120_000);
  const alive = async () => {
    const r = await tool(id, "bash", { command: "python3 -c 'print(6 * 7)'; echo ok" });
    expect(r.stdout).toBe("42\nok\n");
  };

  it("stops `while True: pass` at the call's timeout by fuel, as a runaway toolbox program", async () => {
    const r = await tool(id, "bash", { command: "python3 -c 'while True: pass'; echo status $?", timeout_seconds: 1 });
    expect(r.stdout).toBe("status 137\n");
    expect(r.stderr).toContain("python3: killed: step limit reached");
    expect(r.duration_ms).toBeLessThan(60_000);
    await alive();
  });

  it("turns a huge allocation into MemoryError inside Python", async () => {
    const r = await tool(id, "bash", { command: "python3 -c 'x = bytearray(200 * 1024 * 1024)'; echo status $?" });
    expect(r.stdout).toBe("status 1\n");
    expect(r.stderr).toMatch(/MemoryError\n$/);
    const caught = await tool(id, "bash", {
      command: 'python3 -c \'a = []\ntry:\n    while True: a.append("x" * 1000000)\nexcept MemoryError:\n    del a\n    print("caught")\'',
    });
    expect(caught.stdout).toBe("caught\n");
    await alive();
  });

  it("xz compression past the memory cap is a MemoryError (presets 4-9 need 48-674 MiB); preset 3 and decompression work", async () => {
    const code = [
      "import lzma, bz2",
      "d = b'xyz' * 100000",
      "try:",
      "    lzma.compress(d)",
      "except MemoryError:",
      "    print('preset 6: MemoryError')",
      "c = lzma.compress(d, preset=3)",
      "print(lzma.decompress(c) == d, bz2.decompress(bz2.compress(d)) == d)",
    ].join("\n");
    const r = await tool(id, "bash", { command: `python3 -c "${code}"` });
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: "preset 6: MemoryError\nTrue True\n", stderr: "" });
    await alive();
  });

  it("raises RecursionError for deep recursion, Python and C", async () => {
    const r = await tool(id, "bash", { command: "python3 -c 'def f(n): return f(n + 1)\nf(0)'; echo status $?" });
    expect(r.stdout).toBe("status 1\n");
    expect(r.stderr).toContain("RecursionError: maximum recursion depth exceeded");
    const c = await tool(id, "bash", {
      command:
        'python3 -c \'import json\ntry:\n    json.loads("[" * 100000)\nexcept RecursionError as e:\n    print("RecursionError")\nx = []\nfor _ in range(100000): x = [x]\ntry:\n    repr(x)\nexcept RecursionError:\n    print("RecursionError")\'',
    });
    expect(c.stdout).toBe("RecursionError\nRecursionError\n");
    await alive();
  });

  it("is deterministic where the clock is frozen: time does not advance in a CPU loop by itself", async () => {
    const r = await tool(id, "bash", { command: "python3 -c 'import time\nt = time.monotonic()\nsum(range(10**6))\nprint(time.monotonic() - t >= 0)'" });
    expect(r.stdout).toBe("True\n");
  });
});

describe("python3 and the policy", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
    await tool(id, "write_file", { path: "ok.txt", content: "fine\n" });
  }, 120_000);

  it("refuses reading .env as bash does (the file rule where bash meets the command rule)", async () => {
    // Creating a new .env is allowed at the file layer (nothing is read); rewriting it is not (test/policy/write-doors.test.ts).
    await tool(id, "bash", { command: "python3 -c \"open('.env', 'w').write('X=1')\"" });
    const py = await tool(id, "bash", { command: "python3 -c \"print(open('.env').read())\"" });
    const sh = await tool(id, "bash", { command: "cat .env" });
    expect(py.denied?.rule).toBe("sensitive-file");
    expect(sh.denied?.rule).toBe("dotenv");
    expect(py.exit_code).toBe(1);
    expect(py.stderr).toMatch(/PermissionError: \[Errno \d+\] /);
  });

  it("keeps paths outside the workspace out", async () => {
    const up = await tool(id, "bash", { command: "python3 -c \"import os; print(os.path.exists('/root'), 'ok.txt' in os.listdir('/workspace'))\"" });
    expect(up.stdout).toBe("False True\n");
  });

  it("shares the session's /tmp with bash", async () => {
    const r = await tool(id, "bash", { command: "python3 -c \"open('/tmp/from-py.txt', 'w').write('hi')\" && cat /tmp/from-py.txt" });
    expect(r.stdout).toBe("hi");
  });

  it("refuses a blocked variable for python3 as for any command", async () => {
    const r = await tool(id, "bash", { command: "python3 -c pass", env: { LD_PRELOAD: "/x.so" } });
    expect(r.success).toBe(false);
    expect(r.denied?.rule).toBeTruthy();
  });

  it("is found like other programs", async () => {
    const r = await tool(id, "bash", { command: "command -v python3 python sqlite3; type python3.11; ls /usr/bin | grep -x -e python3 -e sqlite3" });
    expect(r.stdout).toBe("/usr/bin/python3\n/usr/bin/python\n/usr/bin/sqlite3\npython3.11 is /usr/bin/python3.11\npython3\nsqlite3\n");
  });

  it("answers pip and venv clearly", async () => {
    const pip = await tool(id, "bash", {
      command: "pip install requests; echo status $?; python3 -m pip install x 2>&1 | head -1; python3 -m venv .venv; echo status $?",
    });
    expect(pip.stdout).toBe("status 1\npip: no package index is reachable from this session, so nothing can be installed.\nstatus 1\n");
    expect(pip.stderr).toContain("virtual environments are not available in this session");
  });
});

describe("python3 and what WASI cannot do", () => {
  it("says plainly that sockets and interpreter env hooks are not available", async () => {
    const id = await newSession();
    const net = await tool(id, "bash", { command: "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", 1))'" });
    expect(net.exit_code).toBe(1);
    expect(net.stderr).toContain("sockets are not available in this session; use urllib.request.urlopen, or curl or wget from bash");
    const hook = await tool(id, "bash", { command: "python3 -c pass", env: { PYTHONPATH: "src" } });
    expect(hook.denied?.rule).toBe("env-interpreter-hook");
  }, 60_000);
});
