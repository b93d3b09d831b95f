import { describe, expect, it } from "vitest";
import { TOOLBOX } from "../../src/wasi/programs";
import FSPROBE from "../../wasm/dist/fsprobe.wasm";
import { EXIT_BAD_RUN, EXIT_KILLED, EXIT_TRAP } from "../../src/wasi/runner";
import jspiModule from "./fixtures/jspi.wasm";
import metered from "./fixtures/metered.wasm";
import growQuiet from "./fixtures/grow-quiet.wasm";
import grow from "./fixtures/grow.wasm";
import syscalls from "./fixtures/syscalls.wasm";
import trap from "./fixtures/trap.wasm";
import { probe, run, withFs } from "./helpers";

const MiB = 1024 * 1024;

describe("runWasi: ends of a run", () => {
  it("a trap becomes exit 134 with a message, and the workspace stays usable", () =>
    withFs((fs, ws) => {
      const r = run(trap, fs, ["trapper"]);
      expect(r.exitCode).toBe(EXIT_TRAP);
      expect(r.err).toMatch(/^trapper: crashed: WebAssembly trap: unreachable/);
      expect(r.error).toMatch(/crashed .*unreachable/);
      ws.writeFile("/workspace/after.txt", "ok");
      expect(probe(fs, ["cat", "after.txt"]).out).toBe("ok");
    }));

  it("stops a program whose memory grows past maxMemoryBytes at its next syscall", () =>
    withFs((fs) => {
      const r = run(grow, fs, ["grow"], { limits: { maxMemoryBytes: 8 * MiB } });
      expect(r.exitCode).toBe(EXIT_KILLED);
      expect(r.error).toMatch(/memory limit exceeded \(8\.1 MiB > 8 MiB\)/);
      expect(r.err).toMatch(/grow: killed: memory limit exceeded/);
      expect(r.stats.memoryBytes).toBeLessThanOrEqual(9 * MiB + 65536);
    }));

  it("reports memory growth without syscalls after the run", () =>
    withFs((fs) => {
      const ok = run(growQuiet, fs, ["quiet"], { limits: { maxMemoryBytes: 64 * MiB } });
      expect(ok.exitCode).toBe(0);
      expect(ok.error).toBeUndefined();
      const r = run(growQuiet, fs, ["quiet"], { limits: { maxMemoryBytes: 16 * MiB } });
      expect(r.exitCode).toBe(EXIT_KILLED);
      expect(r.error).toMatch(/memory limit exceeded \(33\.1 MiB > 16 MiB\)/);
    }));

  it("refuses to start when the initial memory already passes the limit", () =>
    withFs((fs) => {
      const r = run(FSPROBE, fs, ["fsprobe", "ls", "."], { limits: { maxMemoryBytes: 64 * 1024 } });
      expect(r.exitCode).toBe(EXIT_BAD_RUN);
      expect(r.error).toMatch(/memory limit exceeded before start/);
    }));

  it("stops output at maxOutputBytes with a broken pipe, and says so", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/ten.txt", "0123456789".repeat(1000));
      const r = run(TOOLBOX, fs, ["cat", "ten.txt"], { limits: { maxOutputBytes: 100 } });
      expect(r.stdout.length).toBe(100);
      expect(r.out).toBe("0123456789".repeat(10));
      expect(r.exitCode).toBe(141); // the toolbox's answer to EPIPE
      expect(r.error).toMatch(/stdout passed the output limit of 100 bytes/);
    }));

  it("stops a metered program at its step budget, and counts steps exactly", () =>
    withFs((fs) => {
      // metered.wasm loops stdin[0] times (0 = forever); 1 step at entry + 1 per iteration.
      const ok = run(metered, fs, ["m"], { stdin: new Uint8Array([10]), limits: { maxSteps: 100 } });
      expect(ok.exitCode).toBe(0);
      expect(ok.stats.steps).toBe(11);
      const runaway = run(metered, fs, ["m"], { stdin: new Uint8Array([0]), limits: { maxSteps: 100_000 } });
      expect(runaway.exitCode).toBe(EXIT_KILLED);
      expect(runaway.error).toBe("step limit reached (100000 steps)");
      expect(runaway.err).toBe("m: killed: step limit reached (100000 steps)\n");
      const unmetered = run(trap, fs, ["t"]);
      expect(unmetered.stats.steps).toBeUndefined();
    }));

  it("stops a run at its syscall budget", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/x.txt", "x\n".repeat(50_000));
      const r = run(TOOLBOX, fs, ["cat", "x.txt"], { limits: { maxSyscalls: 5 } });
      expect(r.exitCode).toBe(EXIT_KILLED);
      expect(r.error).toMatch(/system call limit reached \(5 calls\)/);
    }));

  it("replaces poll_oneoff (no busy wait), sockets and proc_raise with errnos", () =>
    withFs((fs) => {
      const r = run(syscalls, fs, ["syscalls"]);
      expect(r.exitCode).toBe(0);
      const v = new DataView(r.stdout.buffer, r.stdout.byteOffset, r.stdout.byteLength);
      const words = Array.from({ length: 6 }, (_, i) => v.getUint32(i * 4, true));
      // poll ok, 1 event, userdata 7, sock_recv ENOTSUP (58), proc_raise ENOSYS (52), clock moved 1 s
      expect(words).toEqual([0, 1, 7, 58, 52, 1]);
    }));
});

describe("runWasi: bad input", () => {
  const CASES: [string, Parameters<typeof run>[3], string[], RegExp][] = [
    ["empty argv", {}, [], /argv must hold at least the program name/],
    ["relative cwd", { cwd: "sub" }, ["fsprobe"], /cwd must be an absolute, normalized workspace path/],
    ["cwd outside", { cwd: "/etc" }, ["fsprobe"], /cwd '\/etc' is refused/],
    ["missing cwd", { cwd: "/workspace/nope" }, ["fsprobe"], /cwd '\/workspace\/nope' is not a directory/],
    ["bad env name", { env: { "A=B": "x" } }, ["fsprobe"], /environment variable name 'A=B' is not valid/],
  ];
  it.each(CASES)("%s", (_name, opts, argv, error) =>
    withFs((fs) => {
      const r = run(FSPROBE, fs, argv, opts);
      expect(r.exitCode).toBe(EXIT_BAD_RUN);
      expect(r.error).toMatch(error);
    }),
  );

  it("a module that imports something else cannot be instantiated, with a reason", () =>
    withFs((fs) => {
      const r = run(jspiModule, fs, ["x"]); // imports env.wait, which no WASI runner provides
      expect(r.exitCode).toBe(EXIT_BAD_RUN);
      expect(r.error).toMatch(/could not be instantiated/);
      expect(r.err).toMatch(/^x: cannot execute: /);
    }));
});
