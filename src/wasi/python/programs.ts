import type { Program } from "../program";
import python from "../../../wasm/dist/python.wasm";
import sqlite3 from "../../../wasm/dist/sqlite3.wasm";
import { pythonArgs, pythonSnapshotEnv, sqliteArgs } from "./argv";
import { stdlibPreopen } from "./stdlib-fs";

// CPython 3.11 and the SQLite shell, built for WASI from Debian's sources by
// scripts/build-python.mjs. Both modules are compiled when the Worker loads, like the toolbox.
//
// The standard library (a deflated zip, 7.5 MB) is NOT in the script bundle: it is a Workers
// static asset, fetched once per isolate by the first python run. In the bundle it would take
// 7.4 MB of the 10 MB (paid plan) gzip limit on top of python.wasm (2.7 MB gzipped); assets do
// not count toward it. See docs/python.md.

/** Where build-python.mjs puts the library among the static assets (public/). */
const STDLIB_ASSET = "/python/stdlib.bin";

let stdlib: ArrayBuffer | null = null;
let loading: Promise<ArrayBuffer> | null = null;

/** Fetches the library from the static assets once per isolate; throws a sentence saying what is wrong. */
async function loadStdlib(assets: Fetcher | undefined): Promise<void> {
  if (stdlib) return;
  if (!assets) throw new Error("the Python standard library is served from Workers static assets, and this Worker has no ASSETS binding");
  loading ??= assets.fetch(`https://assets.invalid${STDLIB_ASSET}`).then(async (r) => {
    if (!r.ok) throw new Error(`the Python standard library asset ${STDLIB_ASSET} is missing (HTTP ${r.status}); run \`npm run build:wasm\` before deploying`);
    return r.arrayBuffer();
  });
  try {
    stdlib = await loading;
  } catch (e) {
    loading = null;
    throw e;
  }
}

const withStdlib = () => [stdlibPreopen(stdlib!)];
/**
 * argv[0] is the full path, as when a shell runs /usr/bin/python3: WASI's stat has no permission
 * bits, so CPython cannot find itself on PATH and would look for its library from "/" (probes the
 * policy reports as refusals). From /usr/bin it finds /usr/lib/python3.11, and sys.executable is
 * /usr/bin/python3 as on Debian.
 */
const PY = (argv0: string, args?: string[]): Program => ({
  module: python,
  argv0: `/usr/bin/${argv0}`,
  args,
  preopens: withStdlib,
  prepare: loadStdlib,
  adaptArgs: pythonArgs,
  hostCalls: true,
  snapshotEnv: pythonSnapshotEnv,
});

/** Command names → programs. `pip`/`pip3` answer that no package index is reachable (scripts/python/overlay/pip). */
export const EXTRA_PROGRAMS: ReadonlyMap<string, Program> = new Map([
  ["python3", PY("python3")],
  ["python", PY("python")],
  ["python3.11", PY("python3.11")],
  ["pip", PY("python3", ["-m", "pip"])],
  ["pip3", PY("python3", ["-m", "pip"])],
  ["sqlite3", { module: sqlite3, argv0: "sqlite3", adaptArgs: sqliteArgs }],
]);
