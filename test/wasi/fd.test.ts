import { wasi } from "@bjorn3/browser_wasi_shim";
import { describe, expect, it } from "vitest";
import type { GuardedFs } from "../../src/policy/guarded-fs";
import type { Workspace } from "../../src/vfs/workspace";
import { WasiFsContext } from "../../src/wasi/fs/context";
import { WorkspaceDirFd } from "../../src/wasi/fs/dir-fd";
import { WorkspaceFileFd } from "../../src/wasi/fs/file-fd";
import { filestatOf } from "../../src/wasi/fs/filestat";
import { withFs } from "./helpers";

const R = BigInt(wasi.RIGHTS_FD_READ);
const W = BigInt(wasi.RIGHTS_FD_WRITE);
const { OFLAGS_CREAT: CREAT, OFLAGS_EXCL: EXCL, OFLAGS_TRUNC: TRUNC, OFLAGS_DIRECTORY: DIRECTORY } = wasi;
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** The fd layer alone, as the shim would drive it, on a real workspace. */
function withRoot(fn: (root: WorkspaceDirFd, ws: Workspace, ctx: WasiFsContext, fs: GuardedFs) => void) {
  return withFs((fs, ws) => {
    const ctx = new WasiFsContext(fs);
    fn(new WorkspaceDirFd(ctx, "/workspace", "/workspace"), ws, ctx, fs);
  });
}

function open(root: WorkspaceDirFd, path: string, oflags: number, rights: bigint, fdflags = 0) {
  const { ret, fd_obj } = root.path_open(0, path, oflags, rights, 0n, fdflags);
  return { ret, fd: fd_obj as WorkspaceFileFd | WorkspaceDirFd | null };
}

const file = (root: WorkspaceDirFd, path: string, oflags: number, rights: bigint, fdflags = 0) => {
  const { ret, fd } = open(root, path, oflags, rights, fdflags);
  expect(ret).toBe(wasi.ERRNO_SUCCESS);
  return fd as WorkspaceFileFd;
};

describe("path_open flags", () => {
  const CASES: [string, string, number, bigint, number][] = [
    ["O_CREAT|O_EXCL on an existing file", "a.txt", CREAT | EXCL, W, wasi.ERRNO_EXIST],
    ["missing file without O_CREAT", "none.txt", 0, R, wasi.ERRNO_NOENT],
    ["O_DIRECTORY on a file", "a.txt", DIRECTORY, R, wasi.ERRNO_NOTDIR],
    ["a directory for writing", "d", 0, W, wasi.ERRNO_ISDIR],
    ["O_CREAT under a missing directory", "nodir/x", CREAT, W, wasi.ERRNO_NOENT],
    ["O_CREAT under a file", "a.txt/x", CREAT, W, wasi.ERRNO_NOTDIR],
    ["an absolute path", "/workspace/a.txt", 0, R, wasi.ERRNO_NOTCAPABLE],
    ["an empty path", "", 0, R, wasi.ERRNO_NOENT],
    ["a path climbing out", "d/../../x", 0, R, wasi.ERRNO_PERM],
  ];
  it.each(CASES)("%s", (_n, path, oflags, rights, errno) =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/a.txt", "A");
      ws.mkdir("/workspace/d");
      expect(open(root, path, oflags, rights).ret).toBe(errno);
    }),
  );
});

describe("file fds", () => {
  it("keeps writes invisible until close, or sync", () =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/f.txt", "old content");
      const fd = file(root, "f.txt", TRUNC, W);
      expect(ws.readText("/workspace/f.txt")).toBe("old content"); // O_TRUNC lands on commit
      fd.fd_write(enc("new"));
      expect(ws.readText("/workspace/f.txt")).toBe("old content");
      expect(fd.fd_sync()).toBe(0);
      expect(ws.readText("/workspace/f.txt")).toBe("new");
      fd.fd_write(enc(" more"));
      expect(ws.readText("/workspace/f.txt")).toBe("new");
      expect(fd.fd_close()).toBe(0);
      expect(ws.readText("/workspace/f.txt")).toBe("new more");
    }));

  it("creates a new file empty at open (as POSIX shows it), content on close", () =>
    withRoot((root, ws) => {
      const fd = file(root, "n.txt", CREAT | EXCL, W);
      expect(ws.stat("/workspace/n.txt")?.size).toBe(0);
      fd.fd_write(enc("hi"));
      fd.fd_close();
      expect(ws.readText("/workspace/n.txt")).toBe("hi");
    }));

  it("appends with FDFLAGS_APPEND, seeks, tells, pread/pwrite, truncates", () =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/f.txt", "0123456789");
      const ap = file(root, "f.txt", 0, W, wasi.FDFLAGS_APPEND);
      ap.fd_write(enc("ab"));
      ap.fd_close();
      expect(ws.readText("/workspace/f.txt")).toBe("0123456789ab");

      const rw = file(root, "f.txt", 0, R | W);
      expect(rw.fd_seek(-3n, wasi.WHENCE_END)).toEqual({ ret: 0, offset: 9n });
      expect(dec(rw.fd_read(2).data)).toBe("9a");
      expect(rw.fd_tell()).toEqual({ ret: 0, offset: 11n });
      expect(rw.fd_seek(-20n, wasi.WHENCE_CUR).ret).toBe(wasi.ERRNO_INVAL);
      rw.fd_pwrite(enc("XY"), 2n);
      expect(dec(rw.fd_pread(5, 0n).data)).toBe("01XY4"); // own pending writes are readable
      expect(rw.fd_filestat_set_size(6n)).toBe(0);
      expect(Number(rw.fd_filestat_get().filestat!.size)).toBe(6);
      expect(ws.stat("/workspace/f.txt")?.size).toBe(12); // not committed yet
      rw.fd_close();
      expect(ws.readText("/workspace/f.txt")).toBe("01XY45");
    }));

  it("refuses writes on a read-only fd and reads on a write-only one", () =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/f.txt", "x");
      expect(file(root, "f.txt", 0, R).fd_write(enc("y")).ret).toBe(wasi.ERRNO_BADF);
      expect(file(root, "f.txt", 0, W).fd_read(1).ret).toBe(wasi.ERRNO_BADF);
      expect(file(root, "f.txt", 0, R).fd_filestat_set_size(0n)).toBe(wasi.ERRNO_BADF);
    }));

  it("set_times keeps an mtime asked for while writes were pending", () =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/f.txt", "x");
      const fd = file(root, "f.txt", 0, W);
      fd.fd_write(enc("y"));
      expect(fd.fd_filestat_set_times(0n, 1_234_000_000_000n * 1_000_000n, wasi.FSTFLAGS_MTIM)).toBe(0);
      fd.fd_close();
      expect(ws.stat("/workspace/f.txt")?.mtimeMs).toBe(1_234_000_000_000);
    }));

  it("pending writes follow a rename; an unlinked file is not resurrected on close", () =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/a.txt", "");
      const fd = file(root, "a.txt", 0, W);
      fd.fd_write(enc("x"));
      expect(root.renameTo("a.txt", root, "b.txt")).toBe(0);
      fd.fd_write(enc("y"));
      fd.fd_close();
      expect(ws.stat("/workspace/a.txt")).toBeNull();
      expect(ws.readText("/workspace/b.txt")).toBe("xy");

      const gone = file(root, "b.txt", 0, W);
      gone.fd_write(enc("zzz"));
      expect(root.path_unlink_file("b.txt")).toBe(0);
      expect(gone.fd_close()).toBe(0);
      expect(ws.stat("/workspace/b.txt")).toBeNull();
    }));

  it("an unlinked open file lives on for its fd (tempfile.TemporaryFile), and nothing is left after close", () =>
    withRoot((root, ws) => {
      const RW = R | W;
      // Created empty, unlinked, then written and read back (CPython's TemporaryFile).
      const tmp = file(root, "tmp1", CREAT | EXCL, RW);
      expect(root.path_unlink_file("tmp1")).toBe(0);
      expect(ws.stat("/workspace/tmp1")).toBeNull();
      expect(tmp.fd_write(enc("a,b\r\n")).ret).toBe(0);
      expect(tmp.fd_seek(0n, wasi.WHENCE_SET).ret).toBe(0);
      expect(dec(tmp.fd_read(100).data)).toBe("a,b\r\n");
      expect(tmp.fd_filestat_get().filestat?.size).toBe(5n);
      expect(tmp.fd_close()).toBe(0);
      expect(ws.stat("/workspace/tmp1")).toBeNull();

      // A reader keeps the content it opened (larger than a stored chunk); a new file may take the name.
      const big = "x".repeat(300_000) + "end";
      ws.writeFile("/workspace/log", big);
      const reader = file(root, "log", 0, R);
      const writer = file(root, "log", 0, RW);
      expect(writer.fd_write(enc("y")).ret).toBe(0);
      expect(root.path_unlink_file("log")).toBe(0);
      ws.writeFile("/workspace/log", "new");
      expect(dec(reader.fd_pread(3, 300_000n).data)).toBe("end");
      expect(dec(writer.fd_pread(2, 0n).data)).toBe("yx");
      expect(writer.fd_write(enc("z")).ret).toBe(0);
      expect(reader.fd_close()).toBe(0);
      expect(writer.fd_close()).toBe(0);
      expect(ws.readText("/workspace/log")).toBe("new");

      // A rename over an open file: the old content stays readable through the fd.
      ws.writeFile("/workspace/old", "before");
      ws.writeFile("/workspace/next", "after");
      const held = file(root, "old", 0, R);
      expect(root.renameTo("next", root, "old")).toBe(0);
      expect(dec(held.fd_read(100).data)).toBe("before");
      expect(held.fd_close()).toBe(0);
      expect(ws.readText("/workspace/old")).toBe("after");
    }));

  it("abandon() (after a crash) drops pending writes", () =>
    withRoot((root, ws, ctx) => {
      ws.writeFile("/workspace/keep.txt", "kept");
      const fd = file(root, "keep.txt", TRUNC, W);
      fd.fd_write(enc("half"));
      fd.abandon();
      expect(ws.readText("/workspace/keep.txt")).toBe("kept");
      expect(ctx.openFiles.size).toBe(0);
    }));
});

describe("directory fds", () => {
  it("lists with cookies: ., .., then children by name, resumable at any cookie", () =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/b", "1");
      ws.mkdir("/workspace/a");
      const names: [string, number, bigint][] = [];
      for (let c = 0n; ; ) {
        const { ret, dirent } = root.fd_readdir_single(c);
        expect(ret).toBe(0);
        if (!dirent) break;
        names.push([dec(dirent.dir_name), dirent.d_type, dirent.d_next]);
        c = dirent.d_next;
      }
      expect(names).toEqual([
        [".", wasi.FILETYPE_DIRECTORY, 1n],
        ["..", wasi.FILETYPE_DIRECTORY, 2n],
        ["a", wasi.FILETYPE_DIRECTORY, 3n],
        ["b", wasi.FILETYPE_REGULAR_FILE, 4n],
      ]);
      expect(dec(root.fd_readdir_single(3n).dirent!.dir_name)).toBe("b");
    }));

  const OPS: [string, (root: WorkspaceDirFd) => number, number][] = [
    ["mkdir existing", (r) => r.path_create_directory("d"), wasi.ERRNO_EXIST],
    ["rmdir non-empty", (r) => r.path_remove_directory("d"), wasi.ERRNO_NOTEMPTY],
    ["rmdir a file", (r) => r.path_remove_directory("f"), wasi.ERRNO_NOTDIR],
    ["unlink a directory", (r) => r.path_unlink_file("d"), wasi.ERRNO_ISDIR],
    ["unlink missing", (r) => r.path_unlink_file("zz"), wasi.ERRNO_NOENT],
    ["rename dir into itself", (r) => r.renameTo("d", r, "d/x"), wasi.ERRNO_INVAL],
    ["rename dir over a file", (r) => r.renameTo("d", r, "f"), wasi.ERRNO_NOTDIR],
    ["readlink of a file", (r) => r.path_readlink("f").ret, wasi.ERRNO_INVAL],
    ["readlink of nothing", (r) => r.path_readlink("zz").ret, wasi.ERRNO_NOENT],
    ["link", (r) => r.path_link(), wasi.ERRNO_NOTSUP],
    ["mkdir new", (r) => r.path_create_directory("d2"), 0],
  ];
  it.each(OPS)("%s", (_n, op, errno) =>
    withRoot((root, ws) => {
      ws.writeFile("/workspace/d/inner", "x", { createParents: true });
      ws.writeFile("/workspace/f", "x");
      expect(op(root)).toBe(errno);
    }),
  );
});

describe("filestat", () => {
  it("serializes with WASI's layout (atime at 40, mtime at 48, in ns)", () => {
    const st = filestatOf({ path: "/workspace/x", ino: 42, kind: "file", size: 7, mtimeMs: 1_700_000_000_123, atimeMs: 1_700_000_000_456, mode: 0o644 });
    const view = new DataView(new ArrayBuffer(64));
    st.write_bytes(view, 0);
    expect(view.getBigUint64(8, true)).toBe(42n);
    expect(view.getUint8(16)).toBe(wasi.FILETYPE_REGULAR_FILE);
    expect(view.getBigUint64(24, true)).toBe(1n);
    expect(view.getBigUint64(32, true)).toBe(7n);
    expect(view.getBigUint64(40, true)).toBe(1_700_000_000_456_000_000n);
    expect(view.getBigUint64(48, true)).toBe(1_700_000_000_123_000_000n);
  });
});
