import { wasi } from "@bjorn3/browser_wasi_shim";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { stdlibPreopen } from "../../src/wasi/python/stdlib-fs";

/**
 * The Python library's directory listings (fd_readdir on /usr/lib/python3.11) come from a listing
 * encoded once per directory; every entry must come out whole, in order, whatever buffer size
 * the program lists with, as WASI specifies (an entry that does not fit is cut and the buffer
 * reported full).
 */
const names = Array.from({ length: 230 }, (_, i) => `mod_${i}${"x".repeat(i % 37)}.py`);
const files: Record<string, Uint8Array> = { "pkg/sub/inner.py": new Uint8Array([49]) };
for (const n of names) files[n] = new TextEncoder().encode(n);
const zip = zipSync(files);

/** Lists fd like wasi-libc's readdir: a buffer of `size` bytes, grown when one entry fills it alone. */
function list(fd: ReturnType<typeof stdlibPreopen>, size: number): { name: string; type: number; next: bigint }[] {
  const memory = new ArrayBuffer(1 << 16);
  const view = new DataView(memory);
  const out: { name: string; type: number; next: bigint }[] = [];
  let cookie = 0n;
  for (let calls = 0; calls < 10_000; calls++) {
    const { ret, used } = fd.readdirInto(memory, 0, size, cookie);
    expect(ret).toBe(wasi.ERRNO_SUCCESS);
    let at = 0;
    let whole = 0;
    while (at + 24 <= used) {
      const len = view.getUint32(at + 16, true);
      if (at + 24 + len > used) break;
      out.push({ name: new TextDecoder().decode(new Uint8Array(memory, at + 24, len)), type: view.getUint8(at + 20), next: view.getBigUint64(at, true) });
      cookie = view.getBigUint64(at, true);
      at += 24 + len;
      whole++;
    }
    if (used < size) return out;
    if (whole === 0) size *= 2;
  }
  throw new Error("listing did not end");
}

describe("the Python library's directory listing", () => {
  const fd = stdlibPreopen(zip.buffer as ArrayBuffer);

  it.each([32, 64, 128, 4096, 65536])("lists every entry once, in order, with a %i-byte buffer", (size) => {
    const got = list(fd, size);
    // The zip's order (pkg/ was added first), then the two files the runtime adds.
    expect(got.map((e) => e.name)).toEqual([".", "..", "pkg", ...names, "sitecustomize.py", "_toolshed.py"]);
    expect(got.map((e) => e.next)).toEqual(got.map((_, i) => BigInt(i + 1)));
    expect(got.find((e) => e.name === "pkg")?.type).toBe(wasi.FILETYPE_DIRECTORY);
    expect(got.find((e) => e.name === "mod_0.py")?.type).toBe(wasi.FILETYPE_REGULAR_FILE);
  });

  it("reads a file's own bytes through the tree (two library zips in one isolate do not mix)", () => {
    const { ret, fd_obj } = fd.path_open(0, "mod_7xxxxxxx.py", 0, BigInt(wasi.RIGHTS_FD_READ), 0n, 0);
    expect(ret).toBe(0);
    expect(new TextDecoder().decode(fd_obj?.fd_read(1000).data)).toBe("mod_7xxxxxxx.py");
  });

  it("lists a subdirectory opened from the preopen, and the single-entry path agrees", () => {
    const { ret, fd_obj } = fd.path_open(0, "pkg", wasi.OFLAGS_DIRECTORY, 0n, 0n, 0);
    expect(ret).toBe(0);
    const sub = fd_obj as ReturnType<typeof stdlibPreopen>;
    expect(list(sub, 128).map((e) => e.name)).toEqual([".", "..", "sub"]);
    const dirent = sub.fd_readdir_single(2n).dirent;
    expect(new TextDecoder().decode(dirent?.dir_name)).toBe("sub");
    expect(dirent?.d_next).toBe(3n);
    expect(sub.fd_readdir_single(3n).dirent).toBeNull();
  });
});
