import { beforeAll, describe, expect, inject, it } from "vitest";
import { newSession, tool } from "../helpers";

/**
 * Python's subprocess/os.system/os.popen run through the session's shell, and urllib.request
 * through its URL policy (src/tools/shell/program-host.ts): what bash refuses, Python's
 * commands are refused the same way; what curl may not reach, urllib may not either. The
 * behaviour of commands themselves is compared with Debian in test/python/cases.mjs.
 */
const { site, canary } = inject("netPorts");
const SITE = `http://127.0.0.1:${site}`;
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe("python3 commands under the session's command rules", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
  }, 120_000);
  const py = (code: string) => tool(id, "bash", { command: `python3 -c ${shq(code)}` });

  for (const [what, argv] of [
    ["reading .env (dotenv)", ["cat", ".env"]],
    ["removing the workspace root (rm-root)", ["rm", "-rf", "/workspace"]],
    ["signalling init (kill-init)", ["kill", "-9", "1"]],
  ] as const) {
    it(`refuses ${what} exactly as bash does: same stderr, same status`, async () => {
      const bash = await tool(id, "bash", { command: argv.map(shq).join(" ") });
      expect(bash.denied).toBeDefined();
      const list = `[${argv.map((a) => JSON.stringify(a)).join(", ")}]`;
      const r = await py(`import subprocess, sys\nr = subprocess.run(${list})\nsys.exit(r.returncode)`);
      expect({ stderr: r.stderr, exit: r.exit_code, rule: r.denied?.rule }).toEqual({ stderr: bash.stderr, exit: bash.exit_code, rule: bash.denied!.rule });
      const sys = await py(`import os, sys\nst = os.system(${JSON.stringify(argv.join(" "))})\nsys.exit(st >> 8)`);
      expect({ stderr: sys.stderr, exit: sys.exit_code }).toEqual({ stderr: bash.stderr, exit: bash.exit_code });
    });
  }

  it("captures a refusal as the caller's stderr and returncode; check=True raises", async () => {
    const r = await py(
      `import subprocess\nr = subprocess.run(["cat", ".env"], capture_output=True, text=True)\nprint(r.returncode, r.stderr.startswith("toolshed: denied (dotenv)"))\ntry:\n    subprocess.run(["cat", ".env"], check=True, capture_output=True)\nexcept subprocess.CalledProcessError as e:\n    print("CalledProcessError", e.returncode)`,
    );
    expect(r.stdout).toBe("126 True\nCalledProcessError 126\n");
  });

  it("keeps the env deny rules: a child never gets LD_PRELOAD or a secret-named variable", async () => {
    const r = await py(
      `import subprocess, os\nenv = dict(os.environ, LD_PRELOAD="/x.so", API_TOKEN="s3cret", PLAIN="ok")\nprint(subprocess.run("echo [$LD_PRELOAD] [$API_TOKEN] [$PLAIN]", shell=True, env=env, capture_output=True, text=True).stdout, end="")`,
    );
    expect(r.stdout).toBe("[] [] [ok]\n");
  });

  it("writes through the file policy: a child cannot write outside the workspace or read /etc/shadow", async () => {
    const r = await py(
      `import subprocess\nr = subprocess.run("cat /etc/shadow; echo x > /usr/bin/evil; echo $?", shell=True, capture_output=True, text=True)\nprint(r.stdout, r.returncode, "denied" in r.stderr or "No such file" in r.stderr or "Permission denied" in r.stderr or "Read-only" in r.stderr)`,
    );
    expect(r.stdout).toMatch(/^1\n 0 True\n$/);
  });

  it("works in a pipeline (the streaming start): stdin, a child's output and Python's in order", async () => {
    const r = await tool(id, "bash", {
      command: `printf 'b\\na\\n' | python3 -c ${shq(`import sys, subprocess, os\ndata = sys.stdin.read()\nprint(subprocess.run(["sort"], input=data, capture_output=True, text=True).stdout, end="", flush=True)\nos.system("echo from system")\nprint("end")`)} | cat -n`,
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("     1\ta\n     2\tb\n     3\tfrom system\n     4\tend\n");
  });

  it("runs python3 from python3", async () => {
    const r = await py(`import subprocess\nprint(subprocess.run(["python3", "-c", "print(6 * 7)"], capture_output=True, text=True).stdout, end="")`);
    expect(r).toMatchObject({ exit_code: 0, stdout: "42\n", stderr: "" });
  });

  it("stops at the per-run budget of commands with a clear error", async () => {
    const r = await py(
      `import subprocess\nn = 0\ntry:\n    for i in range(1000):\n        subprocess.run(["true"])\n        n += 1\nexcept OSError as e:\n    print(n, e)`,
    );
    expect(r.stdout).toMatch(/^200 \[Errno \d+\] a program may ask the session for at most 200 commands and fetches per run\n$/);
  }, 180_000);
});

describe("python3 subprocess timeout=, kill(), terminate(), wait(timeout), poll()", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
  }, 120_000);
  const py = (code: string) => tool(id, "bash", { command: `python3 -c ${shq(code)}` });

  it("run(timeout=) stops a command that sleeps too long: TimeoutExpired with CPython's message, the command really stopped", async () => {
    const r = await py(
      `import subprocess, os\ntry:\n    subprocess.run("echo started; sleep 30; echo late > late.txt", shell=True, timeout=0.5, capture_output=True)\nexcept subprocess.TimeoutExpired as e:\n    print(type(e).__name__, e, e.timeout, repr(e.output), repr(e.stderr))\nprint(os.path.exists("late.txt"))`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("TimeoutExpired Command 'echo started; sleep 30; echo late > late.txt' timed out after 0.5 seconds 0.5 b'started\\n' None\nFalse\n");
    // The command did not run on after Python moved on.
    const after = await tool(id, "bash", { command: "sleep 1; ls late.txt 2>&1; true" });
    expect(after.stdout).toContain("No such file");
  });

  it("run(timeout=) stops a CPU-bound command by counted work (a shell loop, a program in a loop), not by the clock", async () => {
    for (const cmd of ["while :; do :; done", "python3 -c 'while True: pass'"]) {
      const r = await py(
        `import subprocess\ntry:\n    subprocess.run(${JSON.stringify(cmd)}, shell=True, timeout=0.5)\nexcept subprocess.TimeoutExpired as e:\n    print("timed out after", e.timeout)`,
      );
      expect({ cmd, stdout: r.stdout, stderr: r.stderr, exit: r.exit_code }).toEqual({ cmd, stdout: "timed out after 0.5\n", stderr: "", exit: 0 });
    }
  }, 120_000);

  it("a command that ends in time is not touched by its timeout; an uncaught TimeoutExpired is a traceback", async () => {
    const ok = await py(`import subprocess\nr = subprocess.run(["echo", "fast"], timeout=30, capture_output=True, text=True)\nprint(r.returncode, r.stdout, end="")`);
    expect(ok.stdout).toBe("0 fast\n");
    const tb = await py(`import subprocess\nsubprocess.check_output("sleep 20", shell=True, timeout=0.2)`);
    expect(tb.exit_code).toBe(1);
    expect(tb.stderr).toMatch(/subprocess\.TimeoutExpired: Command 'sleep 20' timed out after 0\.2 seconds\n$/);
  });

  it("kill() and terminate() before communicate() end the child: -9 and -15, nothing run", async () => {
    const r = await py(
      `import subprocess, os\np = subprocess.Popen("touch killed.txt", shell=True, stdout=subprocess.PIPE)\np.kill()\nprint(p.wait(), p.poll(), p.returncode, p.communicate())\nq = subprocess.Popen(["touch", "termed.txt"])\nq.terminate()\nprint(q.wait(), os.path.exists("killed.txt"), os.path.exists("termed.txt"))`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("-9 -9 -9 (b'', None)\n-15 False False\n");
  });

  it("wait(timeout) raises TimeoutExpired, then kill() and wait() reap the child as on Linux; call(timeout=) too", async () => {
    const r = await py(
      `import subprocess\np = subprocess.Popen(["sleep", "20"])\ntry:\n    p.wait(timeout=0.3)\nexcept subprocess.TimeoutExpired as e:\n    print(e)\np.kill()\nprint(p.wait(), p.returncode)\ntry:\n    subprocess.call(["sleep", "20"], timeout=0.2)\nexcept subprocess.TimeoutExpired as e:\n    print(e)`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Command '['sleep', '20']' timed out after 0.3 seconds\n-9 -9\nCommand '['sleep', '20']' timed out after 0.2 seconds\n");
  });

  it("poll() runs the child to its end and gives its status; kill() after that changes nothing; a dropped Popen still runs", async () => {
    const r = await py(
      `import subprocess, os\np = subprocess.Popen("exit 4", shell=True)\nwhile p.poll() is None:\n    pass\np.kill()\nprint(p.returncode, p.wait())\nsubprocess.Popen(["touch", "dropped.txt"])\nprint(os.path.exists("dropped.txt"))`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("4 4\nTrue\n");
  });
});

describe("python3 urllib.request through the session's URL policy", () => {
  let id: string;
  beforeAll(async () => {
    id = await newSession();
  }, 120_000);
  const py = (code: string) => tool(id, "bash", { command: `python3 -c ${shq(code)}` });

  it("GETs the allowed origin: status, reason, headers, body, final URL after a redirect", async () => {
    const r = await py(
      `import urllib.request\nwith urllib.request.urlopen("${SITE}/hello?x=1") as resp:\n    print(resp.status, resp.reason, resp.headers["Content-Type"], resp.getcode())\n    print(resp.read().decode(), end="")\nresp = urllib.request.urlopen("${SITE}/redirect?to=/article.html")\nprint(resp.geturl().endswith("/article.html"), b"PERIWINKLE" in resp.read())`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("200 OK text/plain; charset=utf-8 200\nhello from /hello?x=1\nTrue True\n");
  });

  it("POSTs data with headers, and Request(method=PUT)", async () => {
    const r = await py(
      `import urllib.request, urllib.parse, json\ndata = urllib.parse.urlencode({"a": 1, "b": "two words"}).encode()\nreq = urllib.request.Request("${SITE}/echo", data=data, headers={"X-Kelp": "yes"})\necho = json.load(urllib.request.urlopen(req))\nprint(echo["method"], echo["body"], echo["headers"]["x-kelp"], echo["headers"]["content-type"], echo["headers"]["user-agent"])\nreq = urllib.request.Request("${SITE}/echo", data=b'{"k": 1}', method="PUT", headers={"Content-Type": "application/json"})\necho = json.load(urllib.request.urlopen(req))\nprint(echo["method"], echo["body"], echo["headers"]["content-type"])`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('POST a=1&b=two+words yes application/x-www-form-urlencoded Python-urllib/3.11\nPUT {"k": 1} application/json\n');
  });

  it("raises HTTPError for 4xx and 5xx with the code, reason and body", async () => {
    const r = await py(
      `import urllib.request, urllib.error\nfor code in (404, 500):\n    try:\n        urllib.request.urlopen("${SITE}/status?code=%d" % code)\n    except urllib.error.HTTPError as e:\n        print(type(e).__name__, e.code, e.reason, str(e), e.read())`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "HTTPError 404 Not Found HTTP Error 404: Not Found b'status body 404\\n'\nHTTPError 500 Internal Server Error HTTP Error 500: Internal Server Error b'status body 500\\n'\n",
    );
  });

  for (const [what, url] of [
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["loopback outside the allowed origin", `http://127.0.0.1:${canary}/`],
    ["a private address", "http://10.0.0.1/"],
  ] as const) {
    it(`refuses ${what} with URLError, as curl is refused`, async () => {
      const curl = await tool(id, "bash", { command: `curl -sS ${shq(url)}` });
      expect(curl.denied).toBeDefined();
      const r = await py(
        `import urllib.request, urllib.error\ntry:\n    urllib.request.urlopen(${JSON.stringify(url)})\nexcept urllib.error.URLError as e:\n    print(type(e).__name__, type(e.reason).__name__, str(e.reason))`,
      );
      expect(r.stdout).toMatch(/^URLError PermissionError \[Errno \d+\] toolshed: denied \(url\.[a-z_]+\): /);
      expect(r.denied?.rule).toBe(curl.denied!.rule);
    });
  }

  it("a raw socket still says what to use instead", async () => {
    const r = await py(`import socket\ntry:\n    socket.getaddrinfo("example.com", 80)\nexcept OSError as e:\n    print(e)`);
    expect(r.stdout).toContain("use urllib.request.urlopen, or curl or wget from bash");
  });
});
