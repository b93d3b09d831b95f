// The platform's floor for reading 200 MB out of Durable Object SQLite, in the same `wrangler
// dev` / workerd the big bench uses: a bare Durable Object (scripts/bench/floor/worker.js) with a
// table shaped like `vfs_chunks`, for several chunk sizes and query shapes, reading only
// (touching the bytes), then also copying into a Wasm memory, then also counting newlines in
// Wasm. `npm run bench -- big` prints Toolshed's own path over the same amount of data, so the
// gap between the two shows where it lives. Each row runs REPS times; the figure is the median
// CPU time of the workerd processes (user + system, /proc), which a loaded machine distorts
// least, with the median wall time and the largest peak RSS growth beside it.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import wabtInit from "wabt";
import { freePort, root, stopDevServer } from "../lib/dev-server.mjs";
import { peakOf } from "./big.mjs";

const BYTES = 200 * 1000 * 1000;
const KiB = 1024;
const MiB = 1024 * KiB;
/**
 * Chunk sizes tried. Deployed, a SQLite row (a chunk with its key) may hold 2 MB (2,000,000
 * bytes), so 2 MiB would be refused there; workerd under wrangler dev accepts it, so it is
 * measured for the trend and marked.
 */
const SIZES = (process.env.FLOOR_SIZES ?? `${64 * KiB},${256 * KiB},${MiB},${2 * MiB}`).split(",").map(Number);
const REPS = Number(process.env.FLOOR_REPS ?? 3);
const DEPLOYED_ROW_BYTES = 2_000_000;

async function startFloor() {
  const dir = mkdtempSync(join(tmpdir(), "toolshed-floor-"));
  const wabt = await wabtInit();
  const wat = readFileSync(join(root, "scripts/bench/floor/count.wat"), "utf8");
  writeFileSync(join(dir, "count.wasm"), Buffer.from(wabt.parseWat("count.wat", wat).toBinary({}).buffer));
  copyFileSync(join(root, "scripts/bench/floor/worker.js"), join(dir, "worker.js"));
  const date = readFileSync(join(root, "wrangler.toml"), "utf8").match(/compatibility_date = "([^"]+)"/)[1];
  writeFileSync(
    join(dir, "wrangler.toml"),
    `name = "floor"\nmain = "worker.js"\ncompatibility_date = "${date}"\n` +
      `[[durable_objects.bindings]]\nname = "FLOOR"\nclass_name = "Floor"\n` +
      `[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["Floor"]\n`,
  );
  const port = await freePort();
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      join(dir, "wrangler.toml"),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      join(dir, "state"),
      "--show-interactive-dev-session=false",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    try {
      if ((await fetch(base)).status === 200) return { child, dir, base };
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  process.kill(-child.pid, "SIGKILL");
  throw new Error(`floor worker did not start:\n${log}`);
}

async function call(base, path) {
  const r = await fetch(base + path);
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The floor table; returns its rows ({ chunk, per, mode, cpu, ms, peak }). */
export async function benchFloor() {
  const { child, dir, base } = await startFloor();
  const rows = [];
  try {
    console.log(`floor: ${BYTES / 1e6} MB of text in a bare Durable Object, ${REPS} runs per row (median CPU / wall, max peak RSS growth)`);
    console.log(
      `${"chunk".padEnd(9)} ${"query".padEnd(14)} ${"work".padEnd(20)} ${"cpu ms".padStart(7)} ${"wall ms".padStart(8)} ${"MB/cpu s".padStart(9)} ${"peak".padStart(7)}  load`,
    );
    for (const chunk of SIZES) {
      await call(base, `/fill?chunk=${chunk}&bytes=${BYTES}`);
      // One read first, not counted: the first read after the fill also pays for the fill's WAL.
      await call(base, `/read?chunk=${chunk}&per=1&mode=touch`);
      const shapes0 = [
        { per: 1, label: "1 chunk/query" },
        { per: Math.max(1, Math.round((4 * MiB) / chunk)), label: "4 MiB/query" },
        { per: 0, label: "one query" },
      ];
      const shapes = process.env.FLOOR_REVERSE ? [...shapes0].reverse() : shapes0;
      const work = [
        ["touch", "SELECT + touch"],
        ["copy", "+ copy into Wasm"],
        ["count", "+ Wasm newline count"],
        ["count&free=1", "+ free each row"],
      ];
      for (const shape of shapes) {
        for (const [mode, label] of work) {
          // Every step is shown for the shape a read path would use; the others show the ends.
          if (mode !== "touch" && !mode.includes("free") && shape.per !== shapes0[1].per) continue;
          const runs = [];
          let lines;
          for (let i = 0; i < REPS; i++) {
            const t = performance.now();
            const r = await peakOf(child.pid, async () => ({ out: await call(base, `/read?chunk=${chunk}&per=${shape.per}&mode=${mode}`) }));
            runs.push({ ...r, ms: performance.now() - t });
            lines = r.out.lines;
            if (r.out.bytes !== BYTES) throw new Error(`read ${r.out.bytes} bytes, expected ${BYTES}`);
          }
          const cpu = median(runs.map((r) => r.cpu ?? Number.NaN));
          const ms = median(runs.map((r) => r.ms));
          const peak = Math.max(...runs.map((r) => r.peak ?? 0));
          const row = { chunk, per: shape.per, mode, cpu, ms, peak, lines };
          rows.push(row);
          const size = chunk >= MiB ? `${chunk / MiB} MiB` : `${chunk / KiB} KiB`;
          const mark = chunk + 16 > DEPLOYED_ROW_BYTES ? "*" : "";
          console.log(
            `${(size + mark).padEnd(9)} ${shape.label.padEnd(14)} ${label.padEnd(20)} ${String(cpu).padStart(7)} ${ms.toFixed(0).padStart(8)} ${(BYTES / 1e6 / (cpu / 1000)).toFixed(0).padStart(9)} ${`${(peak / 1e6).toFixed(0)} MB`.padStart(7)}  ${loadavg()[0].toFixed(1)}`,
          );
        }
      }
      await call(base, "/drop");
    }
    if (SIZES.some((s) => s + 16 > DEPLOYED_ROW_BYTES)) console.log(`* over the deployed 2 MB row cap: measured locally only, not usable deployed`);
  } finally {
    await stopDevServer(child);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
