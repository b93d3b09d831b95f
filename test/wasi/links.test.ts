import { wasi } from "@bjorn3/browser_wasi_shim";
import { describe, expect, it } from "vitest";
import { SystemTree } from "../../src/vfs/system-tree";
import { WasiFsContext } from "../../src/wasi/fs/context";
import { WorkspaceDirFd } from "../../src/wasi/fs/dir-fd";
import type { WorkspaceFileFd } from "../../src/wasi/fs/file-fd";
import { LOOKUP_SYMLINK_FOLLOW } from "../../src/wasi/fs/filestat";
import { withFs } from "./helpers";

const R = BigInt(wasi.RIGHTS_FD_READ);
const W = BigInt(wasi.RIGHTS_FD_WRITE);
const FOLLOW = LOOKUP_SYMLINK_FOLLOW;
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** The fd layer over a machine view (/workspace, /tmp and the system tree), as programs see it. */
function withMachine(fn: (root: WorkspaceDirFd, ctx: WasiFsContext) => void) {
  return withFs((fs, ws) => {
    ws.writeFile("/workspace/f", "file");
    ws.mkdir("/workspace/d");
    ws.writeFile("/workspace/d/in", "inside");
    const ctx = new WasiFsContext(fs.withSystem(new SystemTree(() => ["sed"])));
    fn(new WorkspaceDirFd(ctx, "/workspace", "/workspace"), ctx);
  });
}

const read = (root: WorkspaceDirFd, path: string, flags = FOLLOW) => {
  const { ret, fd_obj } = root.path_open(flags, path, 0, R, 0n, 0);
  if (ret !== wasi.ERRNO_SUCCESS) return ret;
  return dec((fd_obj as WorkspaceFileFd).fd_read(100).data);
};
const filetype = (root: WorkspaceDirFd, path: string, flags: number) => {
  const { ret, filestat } = root.path_filestat_get(flags, path);
  return ret === wasi.ERRNO_SUCCESS ? filestat!.filetype : -ret;
};

describe("symbolic links through WASI", () => {
  it("makes, reads and follows links; lstat sees the link, stat its target", () =>
    withMachine((root) => {
      expect(root.symlinkAt("f", "l")).toBe(wasi.ERRNO_SUCCESS);
      expect(root.symlinkAt("f", "l")).toBe(wasi.ERRNO_EXIST);
      expect(root.path_readlink("l")).toEqual({ ret: wasi.ERRNO_SUCCESS, data: "f" });
      expect(root.path_readlink("f").ret).toBe(wasi.ERRNO_INVAL);
      expect(read(root, "l")).toBe("file");
      expect(read(root, "l", 0)).toBe(wasi.ERRNO_LOOP); // O_NOFOLLOW
      expect(filetype(root, "l", 0)).toBe(wasi.FILETYPE_SYMBOLIC_LINK);
      expect(filetype(root, "l", FOLLOW)).toBe(wasi.FILETYPE_REGULAR_FILE);
      expect(root.path_filestat_get(0, "l").filestat!.size).toBe(1n);
    }));

  it("resolves relative, absolute, chained and directory links, with .. after a link climbing from its target", () =>
    withMachine((root) => {
      root.symlinkAt("d", "dl");
      root.symlinkAt("/workspace/d/in", "abs");
      root.symlinkAt("dl/in", "chain");
      root.symlinkAt("../f", "d/up");
      expect([read(root, "dl/in"), read(root, "abs"), read(root, "chain"), read(root, "d/up")]).toEqual(["inside", "inside", "inside", "file"]);
      expect(filetype(root, "dl", FOLLOW)).toBe(wasi.FILETYPE_DIRECTORY);
      // dl/.. is the parent of d (the workspace), as on Linux
      expect(read(root, "dl/../f")).toBe("file");
    }));

  it("leaves dangling links dangling, writes through them, and stops loops with ELOOP", () =>
    withMachine((root, ctx) => {
      root.symlinkAt("new", "dang");
      expect(filetype(root, "dang", FOLLOW)).toBe(-wasi.ERRNO_NOENT);
      expect(filetype(root, "dang", 0)).toBe(wasi.FILETYPE_SYMBOLIC_LINK);
      const { ret, fd_obj } = root.path_open(FOLLOW, "dang", wasi.OFLAGS_CREAT, W, 0n, 0);
      expect(ret).toBe(wasi.ERRNO_SUCCESS);
      (fd_obj as WorkspaceFileFd).fd_write(new TextEncoder().encode("made"));
      fd_obj!.fd_close();
      expect(ctx.fs.ws.readText("/workspace/new")).toBe("made");
      root.symlinkAt("b", "a");
      root.symlinkAt("a", "b");
      expect(read(root, "a")).toBe(wasi.ERRNO_LOOP);
      root.symlinkAt("self", "self");
      expect(read(root, "self/x")).toBe(wasi.ERRNO_LOOP);
    }));

  it("unlinks and renames the link itself, never its target, and lists it as a link", () =>
    withMachine((root, ctx) => {
      root.symlinkAt("d", "dl");
      expect(root.path_remove_directory("dl")).toBe(wasi.ERRNO_NOTDIR);
      expect(root.renameTo("dl", root, "moved")).toBe(wasi.ERRNO_SUCCESS);
      expect(root.path_readlink("moved").data).toBe("d");
      const listed = root.fd_readdir_single(2n).dirent!;
      expect([new TextDecoder().decode(listed.dir_name), listed.d_type]).toEqual(["d", wasi.FILETYPE_DIRECTORY]);
      const types = [3n, 4n].map((c) => root.fd_readdir_single(c).dirent!.d_type);
      expect(types).toEqual([wasi.FILETYPE_REGULAR_FILE, wasi.FILETYPE_SYMBOLIC_LINK]);
      expect(root.path_unlink_file("moved")).toBe(wasi.ERRNO_SUCCESS);
      expect(ctx.fs.ws.readText("/workspace/d/in")).toBe("inside");
      expect(ctx.fs.ws.stat("/workspace/moved")).toBeNull();
    }));

  it("lets a link point outside the writable places but follows it only as far as the policy allows", () =>
    withMachine((root, ctx) => {
      root.symlinkAt("/etc/hostname", "host");
      root.symlinkAt("/var/log/syslog", "log");
      root.symlinkAt("../../../etc", "etc");
      expect(read(root, "host")).toBe("toolshed\n");
      expect(read(root, "etc/hostname")).toBe("toolshed\n");
      expect(read(root, "log")).toBe(wasi.ERRNO_PERM);
      expect(ctx.denial?.rule).toBe("path-unavailable");
      expect(ctx.denial?.reason).toMatch(/'log' is a symbolic link .* to \/var\/log\/syslog, and \/var\/log is not available/);
      const w = root.path_open(FOLLOW, "host", wasi.OFLAGS_TRUNC, W, 0n, 0);
      expect(w.ret).toBe(wasi.ERRNO_PERM);
    }));

  it("applies the protected-file rule to where a link leads", () =>
    withMachine((root, ctx) => {
      ctx.fs.ws.writeFile("/workspace/.env", "SECRET=1");
      root.symlinkAt(".env", "e");
      expect(read(root, "e")).toBe(wasi.ERRNO_ACCES);
      expect(ctx.denial?.rule).toBe("sensitive-file");
    }));
});
