// node's limits and doors (issue 25): a runaway loop and a huge allocation stop inside the run and
// leave the session working; fs refuses `.env` and paths outside the workspace exactly as bash
// does (same rule in the result); child_process and fetch go through the shell's and the URL
// policy; what cannot exist says so.
import { beforeAll, describe, expect, it } from "vitest";
import { newSession, tool } from "../helpers";

let s = "";
const bash = (command: string, timeout_seconds = 10) => tool(s, "bash", { command, timeout_seconds });
const stillWorks = async () => {
  const r = await bash(`node -e 'console.log([1, 2].map(x => x * 2).join(","))'`);
  expect(r.stdout).toBe("2,4\n");
};

beforeAll(async () => {
  s = await newSession();
}, 60_000);

describe("limits", () => {
  it("stops while (true) {} by counting steps, with a toolbox program's exit code and message", async () => {
    const r = await bash(`node -e 'while (true) {}'; echo "after $?"`, 2);
    expect(r.stderr).toMatch(/^node: killed: step limit reached \(\d+ steps\)\n$/);
    expect(r.stdout).toBe("after 137\n");
    await stillWorks();
  });

  it("a runaway loop inside a promise job or a timer stops too", async () => {
    const r = await bash(`node -e 'setTimeout(() => { for (;;) {} }, 1)'`, 2);
    expect(r.exit_code).toBe(137);
    await stillWorks();
  });

  it("a huge allocation is an out-of-memory error inside the script, catchable, and the session lives", async () => {
    const caught = await bash(`node -e 'try { new ArrayBuffer(1e9); } catch (e) { console.log("caught", e.message); }'`);
    expect(caught.stdout).toBe("caught out of memory\n");
    const r = await bash(`node -e 'const a = []; for (;;) a.push("x".repeat(100000) + a.length)'`, 30);
    expect(r.exit_code).toBe(1);
    expect(r.stderr).toContain("out of memory");
    await stillWorks();
  }, 60_000);

  it("output past the limit ends the run like any program's, the session alive", async () => {
    const r = await bash(`node -e 'for (;;) console.log("x".repeat(1000))' | wc -l`, 10);
    expect(Number(String(r.stdout).trim())).toBeGreaterThan(0);
    await stillWorks();
  }, 60_000);

  it("runaway recursion ends the script with QuickJS's RangeError, not the Worker", async () => {
    // QuickJS raises it at NODE_STACK_BYTES; the script's own catch does not get it (see docs/node.md).
    const r = await bash(`node -e 'function f(n) { return f(n + 1) + 1; } f(0)'`);
    expect(r.exit_code).toBe(1);
    expect(r.stderr).toMatch(/^RangeError: Maximum call stack size exceeded\n/);
    await stillWorks();
  });
});

describe("fs refuses what bash refuses", () => {
  const cases: [string, string, string][] = [
    [".env read", "cat .env", `require("fs").readFileSync(".env", "utf8")`],
    [".env write", "echo x > .env", `require("fs").writeFileSync(".env", "x")`],
    ["outside path read", "cat /root/secret", `require("fs").readFileSync("/root/secret")`],
    ["outside path via ..", "cat ../../root/x", `require("fs").readFileSync("../../root/x")`],
    ["system tree write", "echo x > /etc/hosts", `require("fs").writeFileSync("/etc/hosts", "x")`],
  ];
  for (const [name, shell, js] of cases) {
    it(name, async () => {
      await tool(s, "write_file", { path: ".env", content: "SECRET=1\n" }).catch(() => undefined);
      const fromBash = await bash(shell);
      const fromNode = await bash(`node -e 'try { ${js}; console.log("no error"); } catch (e) { console.log(e.code); console.error(e.message); }'`);
      // Both refused; bash may refuse earlier, at the command (`cat .env` is the dotenv rule).
      expect(fromBash.denied?.rule, JSON.stringify(fromBash)).toBeTruthy();
      expect(fromNode.stdout).toBe("EACCES\n");
      expect(fromNode.denied?.rule).toBeTruthy();
      if (!/env/.test(name)) expect(fromNode.denied?.rule).toBe(fromBash.denied.rule);
      expect(fromNode.stdout + fromNode.stderr).not.toContain("SECRET=1");
    });
  }

  it("process.env has no secrets and the env rules hold for children", async () => {
    const r = await tool(s, "bash", {
      command: `node -e 'console.log(Object.keys(process.env).filter(k => /TOOLSHED|_KEY$|TOKEN/.test(k)).length, process.env.MY_VAR)'`,
      env: { MY_VAR: "v" },
    });
    expect(r.stdout).toBe("0 v\n");
    const child = await bash(
      `node -e 'require("child_process").exec("echo [$LD_PRELOAD]", { env: { LD_PRELOAD: "/evil.so", PATH: "/usr/bin:/bin" } }, (e, out) => console.log(out.trim()))'`,
    );
    expect(child.stdout).toBe("[]\n");
  });
});

describe("child_process, fetch and what cannot exist", () => {
  it("child_process runs through the session's shell and its policy", async () => {
    const r = await bash(`node -e 'require("child_process").exec("cat .env", (e) => console.log("status", e.status))'`);
    expect(r.stdout).toMatch(/^status \d+\n$/);
    expect(r.denied?.rule).toBeTruthy();
  });

  // *Sync calls wait for the same shell (the script suspended through JSPI): a refused command is
  // refused by the same rule with the same words as from bash, and the script sees its status.
  const refused: [string, string][] = [
    ["cat .env", `cp.execSync("cat .env", { stdio: "pipe" })`],
    ["rm -rf /", `cp.execSync("rm -rf /", { stdio: "pipe" })`],
    ["cat .env", `cp.execFileSync("cat", [".env"], { stdio: "pipe" })`],
  ];
  for (const [cmd, js] of refused) {
    it(`${js.replace(/\(.*/, "")} ${cmd}: refused as from bash`, async () => {
      await tool(s, "write_file", { path: ".env", content: "SECRET=1\n" }).catch(() => undefined);
      const fromBash = await bash(cmd);
      expect(fromBash.denied?.rule, JSON.stringify(fromBash)).toBeTruthy();
      const r = await bash(
        `node -e 'const cp = require("child_process"); try { ${js}; console.log("ran"); } catch (e) { console.log(e.status); process.stderr.write(String(e.stderr)); }'`,
      );
      expect(r.stdout).toBe(`${fromBash.exit_code}\n`);
      expect(r.stderr).toBe(fromBash.stderr);
      expect(r.denied?.rule).toBe(fromBash.denied.rule);
      expect(r.stdout + r.stderr).not.toContain("SECRET=1");
    });
  }

  it("spawnSync reports a refused command in its result, and the script goes on", async () => {
    const fromBash = await bash("rm -rf /");
    const r = await bash(
      `node -e 'const r = require("child_process").spawnSync("rm", ["-rf", "/"], { encoding: "utf8" }); console.log(r.status, JSON.stringify(r.stderr)); console.log("went on")'`,
    );
    expect(r.stdout).toBe(`${fromBash.exit_code} ${JSON.stringify(fromBash.stderr)}\nwent on\n`);
    expect(r.denied?.rule).toBe(fromBash.denied.rule);
  });

  it("a refused command from an ES module (and from a module it imports): same rule, status and words as from bash", async () => {
    await tool(s, "write_file", { path: ".env", content: "SECRET=1\n" }).catch(() => undefined);
    await tool(s, "write_file", {
      path: "esm-refused/main.mjs",
      content: `import { execSync, spawnSync } from "node:child_process";\nimport { tryIt } from "./lib.mjs";\ntry { execSync("cat ../.env", { stdio: "pipe" }); console.log("ran"); } catch (e) { console.log(e.status); process.stderr.write(String(e.stderr)); }\nconst r = spawnSync("rm", ["-rf", "/"], { encoding: "utf8" });\nconsole.log(r.status, tryIt());\n`,
    });
    await tool(s, "write_file", {
      path: "esm-refused/lib.mjs",
      content: `import { execSync } from "child_process";\nexport const tryIt = () => { try { execSync("cat ../.env", { stdio: "pipe" }); return "ran"; } catch (e) { return "status " + e.status; } };\n`,
    });
    const fromBash = await tool(s, "bash", { command: "cat ../.env", working_dir: "esm-refused" });
    const rmFromBash = await bash("rm -rf /");
    expect(fromBash.denied?.rule, JSON.stringify(fromBash)).toBeTruthy();
    const r = await tool(s, "bash", { command: "node main.mjs", working_dir: "esm-refused" });
    expect(r.stdout).toBe(`${fromBash.exit_code}\n${rmFromBash.exit_code} status ${fromBash.exit_code}\n`);
    expect(r.stderr).toBe(fromBash.stderr);
    expect(r.denied?.rule).toBeTruthy();
    expect(r.stdout + r.stderr).not.toContain("SECRET=1");
  });

  it("execSync's child passes the env rules, and its files are the session's", async () => {
    const r = await bash(
      `node -e 'const cp = require("child_process"); console.log(cp.execSync("echo [$LD_PRELOAD]; echo hi > made-by-child.txt", { env: { LD_PRELOAD: "/evil.so", PATH: "/usr/bin:/bin" }, encoding: "utf8" }).trim())'; cat made-by-child.txt`,
    );
    expect(r.stdout).toBe("[]\nhi\n");
  });

  it("a step limit still holds around execSync, and the session lives", async () => {
    const r = await bash(`node -e 'require("child_process").execSync("true"); while (true) {}'; echo "after $?"`, 2);
    expect(r.stdout).toBe("after 137\n");
    await stillWorks();
  });

  it("execSync waits inside an 'exit' listener", async () => {
    const r = await bash(`node -e 'process.on("exit", () => console.log(require("child_process").execSync("echo bye").toString().trim()))'`);
    expect(r.stdout).toBe("bye\n");
  });

  it("fetch is judged by the one URL policy", async () => {
    const r = await bash(
      `node -e 'fetch("http://169.254.169.254/latest/meta-data/").then(r => console.log("fetched", r.status), e => console.log("refused", e.message, /denied/.test(e.cause.message)))'`,
    );
    expect(r.stdout).toBe("refused fetch failed true\n");
    expect(r.denied?.rule).toBeTruthy();
  });

  it("worker_threads, native addons and npm install say why they cannot work", async () => {
    const w = await bash(`node -e 'require("worker_threads")'`);
    expect(w.exit_code).toBe(1);
    expect(w.stderr).toContain("there are no threads in this sandbox");
    await tool(s, "write_file", { path: "addon/build/x.node", content: "\u007fELF" });
    const a = await bash(`node -e 'require("./addon/build/x.node")'`);
    expect(a.stderr).toContain("cannot load compiled .node modules");
    const n = await bash("npm install lodash");
    expect(n.exit_code).toBe(1);
    expect(n.stderr).toContain("cannot reach a package registry");
    const opt = await bash("node --inspect x.js");
    expect(opt.exit_code).toBe(9);
    expect(opt.stderr).toContain("not supported here");
  });

  it("npm run runs a package.json script through the shell", async () => {
    await tool(s, "write_file", { path: "app/package.json", content: JSON.stringify({ scripts: { hello: "node -e 'console.log(process.argv.length)' && echo done" } }) });
    const r = await tool(s, "bash", { command: "npm run hello", working_dir: "app" });
    expect(r.stdout).toBe("1\ndone\n");
  });

  it("node is on PATH for type and command -v, also as js", async () => {
    const r = await bash("type node; command -v js; js -p '1 + 1'");
    expect(r.stdout).toBe("node is /usr/bin/node\n/usr/bin/js\n2\n");
  });
});
