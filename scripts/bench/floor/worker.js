// The floor of reading the workspace, for `npm run bench -- floor` (scripts/bench/floor.mjs):
// a bare Durable Object with one table shaped like `vfs_chunks` (a rowid table keyed by
// (blob, idx)), filled with text in chunks of a given size, then read back the ways a read path
// can. Nothing of Toolshed runs here, so what a row costs is SQLite and the copies alone: no
// read path can do better in the same workerd.
import { DurableObject } from "cloudflare:workers";
import countModule from "./count.wasm";

const counter = new WebAssembly.Instance(countModule, {});
const wasmMemory = counter.exports.memory;
const count = counter.exports.count;
/** Where copies land in the program's memory: a 4 MiB window past its first MiB, as a program's read buffer. */
const WINDOW = 4 * 1024 * 1024;
const WINDOW_AT = 1024 * 1024;

/** Lines of `N word` text like the big bench's input, `size` bytes of it (the last line cut). */
function textBlock(size, seed) {
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
  let s = "";
  let x = seed >>> 0 || 1;
  while (s.length < size) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    s += `${x % 10_000_000} ${words[x % 8]}\n`;
  }
  return new TextEncoder().encode(s.slice(0, size));
}

export class Floor extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS chunks (blob INTEGER NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (blob, idx))`);
  }

  /** Replaces the table's content with `bytes` of text in chunks of `chunk` bytes (blob 1). */
  fill(chunk, bytes) {
    this.sql.exec(`DELETE FROM chunks`);
    // Sixteen distinct chunks reused round-robin: the content does not change what SQLite does.
    const blocks = Array.from({ length: 16 }, (_, i) => textBlock(chunk, i + 1));
    const n = Math.ceil(bytes / chunk);
    for (let idx = 0; idx < n; idx++) {
      const len = Math.min(chunk, bytes - idx * chunk);
      const b = blocks[idx % 16];
      this.sql.exec(`INSERT INTO chunks (blob, idx, data) VALUES (1, ?, ?)`, idx, len === chunk ? b : b.subarray(0, len));
    }
    return { chunks: n };
  }

  /**
   * Reads every chunk of blob 1 in order, `per` chunks per query (0: the whole file in one).
   * `mode`: "touch" reads one byte per 4 KiB of each row (the row is already a fresh copy SQLite
   * made); "copy" also copies each row into the Wasm memory, as fd_read does; "count" also runs
   * the Wasm newline count over the copy (what `wc -l` needs at the least).
   */
  read(chunk, per, mode, free) {
    const n = this.sql.exec(`SELECT COUNT(*) AS n FROM chunks WHERE blob = 1`).one().n;
    let bytes = 0;
    let touched = 0;
    let lines = 0;
    const step = per === 0 ? n : per;
    for (let first = 0; first < n; first += step) {
      const rows = this.sql.exec(`SELECT data FROM chunks WHERE blob = 1 AND idx >= ? AND idx < ?`, first, first + step).raw();
      for (const [data] of rows) {
        const view = new Uint8Array(data);
        bytes += view.length;
        if (mode === "touch") {
          for (let i = 0; i < view.length; i += 4096) touched += view[i];
          continue;
        }
        // A row bigger than the window is copied in window-sized pieces (a program's reads).
        for (let at = 0; at < view.length; at += WINDOW) {
          const piece = view.subarray(at, Math.min(view.length, at + WINDOW));
          new Uint8Array(wasmMemory.buffer, WINDOW_AT, piece.length).set(piece);
          if (mode === "count") lines += count(WINDOW_AT, piece.length, 10);
        }
        // Detaching the row's buffer frees its bytes now instead of at V8's next collection.
        if (free) data.transfer(0);
      }
    }
    return { chunk, per, mode, bytes, lines, touched };
  }

  drop() {
    this.sql.exec(`DELETE FROM chunks`);
    return { dropped: true };
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const stub = env.FLOOR.get(env.FLOOR.idFromName("floor"));
    const q = (name) => Number(url.searchParams.get(name) ?? 0);
    try {
      let out;
      if (url.pathname === "/fill") out = await stub.fill(q("chunk"), q("bytes"));
      else if (url.pathname === "/read") out = await stub.read(q("chunk"), q("per"), url.searchParams.get("mode") ?? "touch", q("free") === 1);
      else if (url.pathname === "/drop") out = await stub.drop();
      else return new Response("ready");
      return Response.json(out);
    } catch (e) {
      return new Response(String(e?.stack ?? e), { status: 500 });
    }
  },
};
