// `npm run bench -- python`: CPython in the session (python.wasm in a real `wrangler dev`) side by
// side with Debian's python3.11 on this machine, in the same run: warm `python3 -c pass`, a
// CPU-bound pure-Python benchmark (nbody), and JSON load/dump. Toolshed's time is the bash
// tool's own duration_ms; the native time is the wall time of `bash -c` (process start included).
// The CPU columns say more on a shared machine: the native side's is python's own user+sys, the
// toolshed side's is every process of `wrangler dev` (workerd alone in the last column). A row
// for `true` gives the bash tool's own cost, which every toolshed row includes; the first
// starts of an isolate (V8 still compiling CPython's hot functions) have a row of their own.
//
// The issue asks for JSON load/dump of 50 MB, with no run past 64 MiB of Wasm memory. A python
// run's linear memory may not grow past LIMITS.programMemoryBytes (64 MiB; all programs of a run
// together LIMITS.programsTotalMemoryBytes, in an isolate of 128 MB), and json.load holds the
// whole text and every object at once. So the timed load/dump row runs at JSON_MB; the 50 MB row
// runs on both sides too: natively with its peak memory (ru_maxrss), in the session to show the
// cap holding (a MemoryError inside Python, and the session answering after it).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nativeRunner, timed, withToolshed } from "./shell.mjs";

const PYTHON = "/usr/bin/python3.11";
/** JSON document size for the load/dump row run on both sides (the largest that fits 64 MiB here, see above). */
const JSON_MB = 8;
/** The issue's size: run natively only, with its peak memory, to say why the session cannot. */
const BIG_JSON_MB = 50;
/** Mirrors LIMITS.programMemoryBytes (src/limits.ts): the cap python.wasm is linked with too. */
const PROGRAM_MEMORY_MIB = 64;

const NBODY = `
import math
PI = math.pi; SOLAR_MASS = 4 * PI * PI; DAYS_PER_YEAR = 365.24
BODIES = [
  [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS],
  [[4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01], [1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR, -6.90460016972063023e-05 * DAYS_PER_YEAR], 9.54791938424326609e-04 * SOLAR_MASS],
  [[8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01], [-2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR, 2.30417297573763929e-05 * DAYS_PER_YEAR], 2.85885980666130812e-04 * SOLAR_MASS],
  [[1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01], [2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR, -2.96589568540237556e-05 * DAYS_PER_YEAR], 4.36624404335156298e-05 * SOLAR_MASS],
  [[1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01], [2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR, -9.51592254519715870e-05 * DAYS_PER_YEAR], 5.15138902046611451e-05 * SOLAR_MASS]]
def energy(b):
    e = 0.0
    for i, (r, v, m) in enumerate(b):
        e += 0.5 * m * sum(x * x for x in v)
        for (r2, v2, m2) in b[i + 1:]:
            e -= m * m2 / math.sqrt(sum((r[k] - r2[k]) ** 2 for k in range(3)))
    return e
def advance(b, dt, n):
    pairs = [(b[i], b[j]) for i in range(len(b)) for j in range(i + 1, len(b))]
    for _ in range(n):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx = x1 - x2; dy = y1 - y2; dz = z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1 = m1 * mag; b2 = m2 * mag
            v1[0] -= dx * b2; v1[1] -= dy * b2; v1[2] -= dz * b2
            v2[0] += dx * b1; v2[1] += dy * b1; v2[2] += dz * b1
        for (r, [vx, vy, vz], m) in b:
            r[0] += dt * vx; r[1] += dt * vy; r[2] += dt * vz
print("%.9f" % energy(BODIES))
advance(BODIES, 0.01, 50000)
print("%.9f" % energy(BODIES))
`;

const JSON_SCRIPT = `
import json
with open("big.json") as f: d = json.load(f)
s = json.dumps(d)
print(len(d), len(s))
`;

const RSS_SCRIPT = `
import json, resource, sys
with open(sys.argv[1]) as f: d = json.load(f)
s = json.dumps(d)
print(len(d), len(s), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
`;

/**
 * CPU time as well as wall time: on a shared machine (2 cores, load 20) the wall clock mostly
 * measures waiting for a core. Native: the children's user+sys time bash's `times` reports.
 * Toolshed: user+sys of every process of the `wrangler dev` group (workerd: the session, its
 * storage and the program), from /proc, over `reps` runs.
 */
function nativeCpuMs(dir, cmd, reps) {
  const r = spawnSync("bash", ["-c", `for i in $(seq ${reps}); do ${cmd} >/dev/null; done; times`], { cwd: dir, encoding: "utf8" });
  const m = r.stdout
    .trim()
    .split("\n")
    .pop()
    .match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/);
  return m ? ((Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000) / reps : NaN;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux
/**
 * Runs of `python3 -c pass` before its warm start is measured. V8 compiles a Wasm function with
 * its baseline compiler on first call and recompiles the hot ones with its optimizing compiler
 * in background threads (CPU of the workerd process too), so the first 20-40 starts of an isolate
 * cost two to three times a later one. The warm row is measured after these; the cost of these
 * first starts is printed on a row of its own.
 */
const WARMUP_STARTS = 50;

/** user+sys of the processes of the group whose command name starts with `only` (all when absent). */
function groupCpuMs(pgid, only) {
  let ticks = 0;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const f = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && (!only || f.startsWith(`${p} (${only}`))) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * TICK_MS;
}

function bigJson(mb = JSON_MB) {
  const rows = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const row = JSON.stringify({ id: i, name: `user${i}`, score: ((i * 37) % 1000) / 7, tags: ["a", "b", String(i % 13)], active: i % 2 === 0 });
    rows.push(row);
    size += row.length + 1;
  }
  return `[${rows.join(",")}]`;
}

export async function benchPython(print) {
  if (!existsSync(PYTHON)) {
    console.log(`${PYTHON} is not installed (apt-get install python3.11); no native side to compare`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-python-"));
  try {
    writeFileSync(join(dir, "nbody.py"), NBODY);
    writeFileSync(join(dir, "j.py"), JSON_SCRIPT);
    const big = bigJson();
    writeFileSync(join(dir, "big.json"), big);
    writeFileSync(join(dir, "rss.py"), RSS_SCRIPT);
    writeFileSync(join(dir, "huge.json"), bigJson(BIG_JSON_MB));
    const native = nativeRunner(dir);
    const rows = [
      // The bash tool's own cost for a command that does nothing (the session, the shell, the
      // call log, HTTP): part of every row below, and not of the native side's numbers.
      ["`true` (the bash tool's own cost)", "true", "", "true"],
      [`python3 -c pass (first ${WARMUP_STARTS} starts)`, "python3 -c pass", "-c pass", null, "warmup"],
      ["python3 -c pass (warm start)", "python3 -c pass", "-c pass"],
      ["nbody, 50k steps (CPU-bound)", "python3 nbody.py", "nbody.py"],
      [`json load + dump, ${JSON_MB} MB`, "python3 j.py", "j.py"],
    ];
    await withToolshed(async ({ run, upload, server }) => {
      await upload("nbody.py", NBODY);
      await upload("j.py", JSON_SCRIPT);
      await upload("big.json", big);
      console.log(
        `${"workload".padEnd(36)} ${"python3.11 ms".padStart(14)} ${"toolshed ms".padStart(12)} ${"ratio".padStart(7)}   ${"cpu: native".padStart(11)} ${"toolshed".padStart(9)} ${"ratio".padStart(7)} ${"(workerd)".padStart(10)}`,
      );
      for (const [name, script, args, nativeCmd, kind] of rows) {
        const cmd = nativeCmd ?? `${PYTHON} ${args}`;
        const warmup = kind === "warmup";
        const start = script.includes("-c pass") || script === "true";
        const reps = warmup ? WARMUP_STARTS : start ? 20 : 2;
        // The warm-up row measures the isolate's first starts, so nothing runs before them.
        const n = await timed(() => native(cmd), 3);
        const o = warmup ? { ok: true, ms: NaN } : await timed(() => run(script), start ? 10 : 3);
        // `true` is a bash builtin: no child process, so no native CPU to compare with.
        const nCpu = nativeCmd === "true" ? NaN : nativeCpuMs(dir, cmd, reps);
        const before = groupCpuMs(server.pid);
        const beforeWorkerd = groupCpuMs(server.pid, "workerd");
        const times = [];
        let last;
        for (let i = 0; i < reps; i++) {
          last = await run(script);
          times.push(last.ms);
        }
        const oCpu = (groupCpuMs(server.pid) - before) / reps;
        const oWorkerd = (groupCpuMs(server.pid, "workerd") - beforeWorkerd) / reps;
        if (warmup) o.ms = times.reduce((a, b) => a + b, 0) / reps;
        o.ok = o.ok && last.ok;
        const same = n.ok && o.ok && n.stdout === (o.stdout ?? last.stdout);
        const ratio = n.ok && o.ok ? `${(o.ms / n.ms).toFixed(2)}x` : "-";
        const cpuRatio = nCpu > 0 ? `${(oCpu / nCpu).toFixed(2)}x` : "-";
        console.log(
          `${name.padEnd(36)} ${n.ms.toFixed(1).padStart(14)} ${(o.ok ? o.ms.toFixed(1) : `FAIL ${o.exit ?? last.exit}`).padStart(12)} ${ratio.padStart(7)}   ${(Number.isNaN(nCpu) ? "-" : nCpu.toFixed(1)).padStart(11)} ${oCpu.toFixed(1).padStart(9)} ${cpuRatio.padStart(7)} ${oWorkerd.toFixed(1).padStart(10)}${same || !o.ok ? "" : "  (output differs)"}`,
        );
        if (!o.ok) console.log(`  toolshed: ${(o.stderr ?? last.stderr ?? "").trim().slice(0, 300)}`);
      }
      // Peak memory natively: what the rows above need, and why the issue's 50 MB row cannot run.
      const small = (await native(`${PYTHON} rss.py big.json`)).stdout.trim().split(" ").pop();
      const t = performance.now();
      const huge = await native(`${PYTHON} rss.py huge.json`);
      const hugeMs = performance.now() - t;
      const peak = Number(huge.stdout.trim().split(" ").pop());
      await upload("huge.json", readFileSync(join(dir, "huge.json")));
      const capped = await run("python3 -c 'import json; json.load(open(\"huge.json\"))'; echo \"status $?\"; python3 -c 'print(6 * 7)'");
      const lines = `${capped.stderr ?? ""}`.trim().split("\n");
      const held = /MemoryError/.test(lines.at(-1) ?? "") && /status 1\n42\n$/.test(capped.stdout ?? "");
      console.log(`${`json load + dump, ${BIG_JSON_MB} MB`.padEnd(36)} ${hugeMs.toFixed(1).padStart(14)} ${(held ? "MemoryError" : "UNEXPECTED").padStart(12)}`);
      console.log(
        `  native peak memory: ${small} MiB for ${JSON_MB} MB, ${peak} MiB for ${BIG_JSON_MB} MB; a session's python may use ${PROGRAM_MEMORY_MIB} MiB (LIMITS.programMemoryBytes; the isolate has 128 MB for everything),`,
      );
      console.log(`  and json.load holds the text and every object at once (no streaming in the standard library), so ${BIG_JSON_MB} MB cannot load in a Worker:`);
      console.log(
        held
          ? `  in the session it is a MemoryError at the ${PROGRAM_MEMORY_MIB} MiB cap, and the next python3 runs (${capped.ms.toFixed(0)} ms for both).`
          : `  in the session: exit ${capped.exit}, stdout ${JSON.stringify(capped.stdout)}, stderr ${JSON.stringify(lines.at(-1))} (expected a MemoryError and the session answering)`,
      );
      if (!held) process.exitCode = 1;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
