import { wasi } from "@bjorn3/browser_wasi_shim";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits";
import { HostDeviceFd } from "../../src/wasi/fs/host-device";
import { programFor } from "../../src/wasi/programs";
import { runWasi } from "../../src/wasi/runner";
import { withFs } from "./helpers";

/** /dev/toolshed (src/wasi/fs/host-device.ts): one request per open, answered by the host. */
const enc = new TextEncoder();
const dec = new TextDecoder();
const readAll = (fd: HostDeviceFd) => {
  let out = "";
  for (let r = fd.fd_read(3); r.data.length; r = fd.fd_read(3)) out += dec.decode(r.data);
  return out;
};

describe("/dev/toolshed", () => {
  it("hands the written request to the host and reads its answer in pieces, then EOF", async () => {
    const fd = new HostDeviceFd(true);
    expect(fd.fd_write(enc.encode('{"op":')).ret).toBe(wasi.ERRNO_SUCCESS);
    fd.fd_write(enc.encode('"x"}'));
    expect(fd.waiting).toBe(true);
    let seen = "";
    await fd.ask(async (req) => {
      seen = dec.decode(req);
      return enc.encode('{"answer":42}');
    });
    expect(seen).toBe('{"op":"x"}');
    expect(fd.waiting).toBe(false);
    expect(readAll(fd)).toBe('{"answer":42}');
    // One request per open: writing after the answer is refused.
    expect(fd.fd_write(enc.encode("more")).ret).toBe(wasi.ERRNO_INVAL);
  });

  it("answers an error when the host fails, never throws into the program", async () => {
    const fd = new HostDeviceFd(true);
    fd.fd_write(enc.encode("{}"));
    await fd.ask(async () => {
      throw new Error("boom");
    });
    expect(JSON.parse(readAll(fd))).toEqual({ error: "the session could not answer: boom", unsupported: true });
  });

  it("without JSPI, a read answers at once that it is not supported (no hang)", () => {
    const fd = new HostDeviceFd(false);
    fd.fd_write(enc.encode('{"op":"run"}'));
    const answer = JSON.parse(readAll(fd));
    expect(answer.unsupported).toBe(true);
    expect(answer.error).toContain("JSPI is missing");
    expect(answer.error).toContain("run them from bash instead");
  });

  it("bounds a request (LIMITS.programHostRequestBytes)", () => {
    const fd = new HostDeviceFd(true);
    expect(fd.fd_write(new Uint8Array(LIMITS.programHostRequestBytes)).ret).toBe(wasi.ERRNO_SUCCESS);
    expect(fd.fd_write(new Uint8Array(1)).ret).toBe(wasi.ERRNO_FBIG);
  });

  it("exists only for runs the host answers", async () => {
    const toolbox = programFor("toolbox")!.module;
    await withFs((fs) => {
      const base = { argv: ["ls", "/dev/toolshed"], env: {}, cwd: "/workspace", fs };
      const without = runWasi(toolbox, base);
      expect(without.exitCode).toBe(2);
      const hosted = runWasi(toolbox, { ...base, host: async () => new Uint8Array(0) });
      expect(dec.decode(hosted.stdout)).toBe("/dev/toolshed\n");
      // A synchronous run cannot wait: reading a request's answer there says "not supported".
      const cat = runWasi(toolbox, { ...base, argv: ["cat", "/dev/toolshed"], host: async () => new Uint8Array(0) });
      expect(cat.exitCode).toBe(0);
      expect(dec.decode(cat.stdout)).toBe("");
    });
  });
});
