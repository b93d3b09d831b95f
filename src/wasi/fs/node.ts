import { Fd, Inode, wasi } from "@bjorn3/browser_wasi_shim";
import type { NodeInfo } from "../../vfs/workspace";
import type { WasiFsContext } from "./context";
import { WorkspaceDirFd } from "./dir-fd";
import { WorkspaceFileFd } from "./file-fd";
import { filestatOf } from "./filestat";

const RIGHT_READ = BigInt(wasi.RIGHTS_FD_READ);
const RIGHT_WRITE = BigInt(wasi.RIGHTS_FD_WRITE);

/**
 * One workspace node as the shim's Inode: made on demand from a single stat when a path is
 * looked up, and dropped after. Nothing caches a tree, so a 10,000-file workspace costs one
 * row per lookup, and a change made through the workspace is seen by the next lookup.
 */
export class WorkspaceNode extends Inode {
  constructor(
    private readonly ctx: WasiFsContext,
    readonly info: NodeInfo,
  ) {
    super();
    this.ino = BigInt(info.ino);
  }

  stat(): wasi.Filestat {
    return filestatOf(this.info);
  }

  /**
   * Opens the node. Read and write intent come from the rights the libc asked for (wasi-libc and
   * Rust std derive them from O_RDONLY/O_WRONLY/O_RDWR), so policy is asked exactly for what the
   * program will do: reading a protected file, or rewriting one or an identity file, fails here, at open.
   */
  path_open(oflags: number, rightsBase: bigint, fdFlags: number): { ret: number; fd_obj: Fd | null } {
    const { ctx, info } = this;
    const truncate = (oflags & wasi.OFLAGS_TRUNC) !== 0;
    const append = (fdFlags & wasi.FDFLAGS_APPEND) !== 0;
    const write = (rightsBase & RIGHT_WRITE) !== 0n || truncate || append;
    const read = (rightsBase & RIGHT_READ) !== 0n;
    if (info.kind === "dir") {
      if (write) return { ret: wasi.ERRNO_ISDIR, fd_obj: null };
      return { ret: wasi.ERRNO_SUCCESS, fd_obj: new WorkspaceDirFd(ctx, info.path) };
    }
    if (oflags & wasi.OFLAGS_DIRECTORY) return { ret: wasi.ERRNO_NOTDIR, fd_obj: null };
    return ctx.attemptWith<{ ret: number; fd_obj: Fd | null }>(
      () => {
        if (read) ctx.fs.rules.checkRead(info.path);
        if (write) ctx.fs.checkWrite(info.path);
        const fd = new WorkspaceFileFd(ctx, info.path, { read, write, append }, truncate);
        return { ret: wasi.ERRNO_SUCCESS, fd_obj: fd };
      },
      (ret) => ({ ret, fd_obj: null }),
    );
  }
}
