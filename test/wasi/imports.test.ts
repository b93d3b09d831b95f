import { WASI, wasi } from "@bjorn3/browser_wasi_shim";
import { describe, expect, it } from "vitest";
import { buildImports, RunStopped } from "../../src/wasi/imports";
import { StdinFd } from "../../src/wasi/stdio";

describe("replaced imports", () => {
  const shim = new WASI([], [], [new StdinFd()], { debug: false });
  const imports = buildImports(shim, { check() {} });
  const CASES: [string, unknown[], number][] = [
    ["proc_raise", [6], wasi.ERRNO_NOSYS],
    ["sock_accept", [0, 0, 0], wasi.ERRNO_NOTSUP],
    ["sock_recv", [0, 0, 0, 0, 0, 0], wasi.ERRNO_NOTSUP],
    ["sock_send", [0, 0, 0, 0, 0], wasi.ERRNO_NOTSUP],
    ["sock_shutdown", [0, 0], wasi.ERRNO_NOTSUP],
    ["path_symlink", [0, 0, 0, 0, 0], wasi.ERRNO_NOTSUP],
    ["path_symlink", [0, 0, 9, 0, 0], wasi.ERRNO_BADF],
    ["path_link", [0, 0, 0, 0, 0, 0, 0], wasi.ERRNO_NOTSUP],
    ["path_rename", [0, 0, 0, 9, 0, 0], wasi.ERRNO_BADF],
    ["path_rename", [0, 0, 0, 0, 0, 0], wasi.ERRNO_NOTDIR], // fd 0 is stdin, not a directory
  ];
  it.each(CASES)("%s(%j) returns errno %i instead of throwing", (name, args, errno) => {
    expect(imports[name]!(...args)).toBe(errno);
  });

  it("every call passes the guard first", () => {
    const stop = buildImports(shim, {
      check() {
        throw new RunStopped(137, "budget");
      },
    });
    expect(() => stop.sched_yield!()).toThrow(RunStopped);
  });
});
