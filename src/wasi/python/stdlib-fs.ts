import { Directory, Fd, File, Inode, OpenDirectory, OpenFile, PreopenDirectory, wasi } from "@bjorn3/browser_wasi_shim";
import { inflateSync } from "fflate";
import { type ListedEntry, nameBytes, writeDirents } from "../fs/dirents";
import { HOST_MODULE } from "./host-module";
import { OVERLAY_PYC } from "./overlay-pyc.gen";
import { SITECUSTOMIZE } from "./sitecustomize";

/**
 * CPython's standard library as a read-only directory, `/usr/lib/python3.11`, for the python
 * runs (a preopen beside /workspace). It is read from one deflated zip that the bundle carries
 * as a Data module (scripts/build-python.mjs writes it; each module's precompiled bytecode is in
 * __pycache__ beside its source). The zip's directory is read once per isolate; a file is
 * inflated the first time a run opens it and kept for later runs up to INFLATED_CACHE_BYTES.
 *
 * Why a zip in the bundle and not Workers static assets: WASI file reads are synchronous, an
 * asset fetch is not, and a start reads 40-80 files; the deflated zip is also what keeps the
 * isolate's memory small (the stored tree would hold every byte, used or not).
 */

/** Inflated files kept per isolate (the isolate's 128 MB also hold every program's memory). */
const INFLATED_CACHE_BYTES = 12 * 1024 * 1024;
/** Where the library appears inside the program, as on Debian. */
const STDLIB_DIR = "/usr/lib/python3.11";

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Inflated files by their zip entry (one per file of one library zip), least recently used first. */
const cache = new Map<Entry, Uint8Array>();
let cachedBytes = 0;

/** Read-only, inflated on first read; `stat` answers from the zip's directory without inflating. */
class ZipFile extends File {
  constructor(
    private readonly zip: Uint8Array,
    private readonly entry: Entry,
  ) {
    super(new ArrayBuffer(0), { readonly: true });
  }

  // The shim reads `data` for every read and seek; it is inflated once and then served from the cache.
  // @ts-expect-error the shim declares `data` as a field; an accessor over it is what makes it lazy.
  override get data(): Uint8Array {
    const hit = cache.get(this.entry);
    if (hit) {
      // Most recently used last, so eviction takes the oldest.
      cache.delete(this.entry);
      cache.set(this.entry, hit);
      return hit;
    }
    const e = this.entry;
    const view = new DataView(this.zip.buffer, this.zip.byteOffset, this.zip.byteLength);
    const start = e.localOffset + 30 + view.getUint16(e.localOffset + 26, true) + view.getUint16(e.localOffset + 28, true);
    const raw = this.zip.subarray(start, start + e.compressedSize);
    const bytes = e.method === 0 ? raw : inflateSync(raw, { out: new Uint8Array(e.size) });
    if (bytes.length <= INFLATED_CACHE_BYTES) {
      cache.set(this.entry, bytes);
      cachedBytes += bytes.length;
      for (const [k, v] of cache) {
        if (cachedBytes <= INFLATED_CACHE_BYTES) break;
        cache.delete(k);
        cachedBytes -= v.length;
      }
    }
    return bytes;
  }

  override set data(_v: Uint8Array) {
    // The shim's File constructor assigns an empty buffer; the contents come from the zip.
  }

  override get size(): bigint {
    return BigInt(this.entry.size);
  }

  override path_open(oflags: number, rights: bigint, fdFlags: number): { ret: number; fd_obj: OpenFile } {
    const write = BigInt(wasi.RIGHTS_FD_WRITE);
    // The shim's type says fd_obj is always there; callers check `ret` first.
    if ((rights & write) === write || (oflags & wasi.OFLAGS_TRUNC) !== 0) return { ret: wasi.ERRNO_ROFS, fd_obj: null as unknown as OpenFile };
    return super.path_open(oflags, rights, fdFlags);
  }
}

/**
 * Each directory's listing, encoded once per isolate (the tree never changes). CPython lists
 * every directory it imports from (FileFinder's cache): the library's top level has ~200
 * entries, and the shim rebuilt its entry array for every single entry, which made the four
 * listings of `python3 -c pass` its costliest host work.
 */
const listings = new WeakMap<Directory, ListedEntry[]>();

function listingOf(dir: Directory): ListedEntry[] {
  let list = listings.get(dir);
  if (list) return list;
  const dirType = wasi.FILETYPE_DIRECTORY;
  list = [
    { name: nameBytes("."), ino: BigInt(dir.ino), type: dirType },
    { name: nameBytes(".."), ino: BigInt(dir.parent_ino()), type: dirType },
  ];
  for (const [name, entry] of dir.contents) {
    list.push({ name: nameBytes(name), ino: BigInt(entry.ino), type: entry instanceof Directory ? dirType : wasi.FILETYPE_REGULAR_FILE });
  }
  listings.set(dir, list);
  return list;
}

/** A directory of the tree: nothing can be created, removed or renamed in it. */
export class ReadOnlyDirFd extends OpenDirectory {
  /** fd_readdir straight into the program's memory (imports.ts), from the cached listing. */
  readdirInto(memory: ArrayBuffer, buf: number, bufLen: number, cookie: bigint): { ret: number; used: number } {
    return writeDirents(listingOf(this.dir), memory, buf, bufLen, cookie);
  }

  override fd_readdir_single(cookie: bigint): { ret: number; dirent: wasi.Dirent | null } {
    const e = listingOf(this.dir)[Number(cookie)];
    if (!e) return { ret: wasi.ERRNO_SUCCESS, dirent: null };
    return { ret: wasi.ERRNO_SUCCESS, dirent: new wasi.Dirent(cookie + 1n, e.ino, new TextDecoder().decode(e.name), e.type) };
  }

  override path_open(dirflags: number, path: string, oflags: number, rights: bigint, inheriting: bigint, fdFlags: number): { ret: number; fd_obj: Fd | null } {
    const r = super.path_open(dirflags, path, oflags & ~wasi.OFLAGS_CREAT, rights, inheriting, fdFlags);
    if (r.ret === wasi.ERRNO_NOENT && (oflags & wasi.OFLAGS_CREAT) !== 0) return { ret: wasi.ERRNO_ROFS, fd_obj: null };
    if (r.fd_obj instanceof OpenDirectory && !(r.fd_obj instanceof ReadOnlyDirFd)) {
      return { ret: r.ret, fd_obj: new ReadOnlyDirFd((r.fd_obj as unknown as { dir: Directory }).dir) };
    }
    return r;
  }
  override path_create_directory(): number {
    return wasi.ERRNO_ROFS;
  }
  override path_link(): number {
    return wasi.ERRNO_ROFS;
  }
  override path_unlink(): { ret: number; inode_obj: Inode | null } {
    return { ret: wasi.ERRNO_ROFS, inode_obj: null };
  }
  override path_unlink_file(): number {
    return wasi.ERRNO_ROFS;
  }
  override path_remove_directory(): number {
    return wasi.ERRNO_ROFS;
  }
  override fd_filestat_set_size(): number {
    return wasi.ERRNO_ROFS;
  }
}

class ReadOnlyPreopen extends ReadOnlyDirFd {
  constructor(
    dir: Directory,
    private readonly prestatName: string,
  ) {
    super(dir);
  }
  override fd_prestat_get() {
    return { ret: 0, prestat: wasi.Prestat.dir(this.prestatName) };
  }
}

/** The zip's central directory as entries by name. Throws on a malformed zip. */
function readZipDirectory(zip: Uint8Array): Map<string, Entry> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("python stdlib bundle: no zip end record");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const names = new TextDecoder();
  const entries = new Map<string, Entry>();
  for (let n = 0; n < count; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("python stdlib bundle: bad central directory");
    const nameLen = view.getUint16(at + 28, true);
    const name = names.decode(zip.subarray(at + 46, at + 46 + nameLen));
    entries.set(name, {
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLen + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** The tree of each library zip (one in a Worker), built once per isolate. */
const trees = new WeakMap<ArrayBuffer, Directory>();

function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function buildTree(zipBytes: Uint8Array): Directory {
  const top = new Map<string, Inode>();
  const dirs = new Map<string, Map<string, Inode>>([["", top]]);
  const dirOf = (path: string): Map<string, Inode> => {
    let d = dirs.get(path);
    if (d) return d;
    const cut = path.lastIndexOf("/");
    const parent = dirOf(cut < 0 ? "" : path.slice(0, cut));
    d = new Map();
    dirs.set(path, d);
    parent.set(path.slice(cut + 1), new Directory(d));
    return d;
  };
  for (const [name, entry] of readZipDirectory(zipBytes)) {
    if (name.endsWith("/")) {
      dirOf(name.slice(0, -1));
      continue;
    }
    const cut = name.lastIndexOf("/");
    dirOf(cut < 0 ? "" : name.slice(0, cut)).set(name.slice(cut + 1), new ZipFile(zipBytes, entry));
  }
  // Directory's constructor links children to parents; the maps filled later need the same.
  const link = (d: Directory) => {
    for (const child of d.contents.values()) {
      if (child instanceof Directory) {
        (child as unknown as { parent: Directory }).parent = d;
        link(child);
      }
    }
  };
  if (!top.has("sitecustomize.py")) top.set("sitecustomize.py", new File(new TextEncoder().encode(SITECUSTOMIZE), { readonly: true }));
  if (!top.has("_toolshed.py")) top.set("_toolshed.py", new File(new TextEncoder().encode(HOST_MODULE), { readonly: true }));
  // Their bytecode, compiled by scripts/python-overlay-pyc.mjs: compiling sitecustomize at every
  // start was a third of `python3 -c pass`. The .pyc files are checked-hash ones, so CPython
  // itself compares them with the source above and compiles the source when they differ.
  const pycache = top.get("__pycache__");
  if (pycache instanceof Directory) {
    for (const [name, b64] of Object.entries(OVERLAY_PYC)) {
      const file = `${name}.cpython-311.pyc`;
      if (!pycache.contents.has(file)) pycache.contents.set(file, new File(fromBase64(b64), { readonly: true }));
    }
  }
  const rootDir = new PreopenDirectory(STDLIB_DIR, top).dir;
  link(rootDir);
  return rootDir;
}

/** A fresh preopen fd over the (shared, read-only) library tree, for one run. */
export function stdlibPreopen(zip: ArrayBuffer): ReadOnlyDirFd {
  let tree = trees.get(zip);
  if (!tree) trees.set(zip, (tree = buildTree(new Uint8Array(zip))));
  return new ReadOnlyPreopen(tree, STDLIB_DIR);
}
