// `npm run bench -- python`: CPython in the session (python.wasm in a real `wrangler dev`) side by
// side with Debian's python3.11 on this machine, in the same run: warm `python3 -c pass`, a
// CPU-bound pure-Python benchmark (nbody), and JSON load/dump. Toolshed's time is the bash
// tool's own duration_ms; the native time is the wall time of `bash -c` (process start included).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nativeRunner, timed, withToolshed } from "./shell.mjs";

const PYTHON = "/usr/bin/python3.11";
/** JSON document size for the load/dump row (the issue's 50 MB does not fit the 64 MiB memory cap twice). */
const JSON_MB = 8;

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

function bigJson() {
  const rows = [];
  let size = 0;
  for (let i = 0; size < JSON_MB * 1024 * 1024; i++) {
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
    const native = nativeRunner(dir);
    const rows = [
      ["python3 -c pass (warm start)", "python3 -c pass", "-c pass"],
      ["nbody, 50k steps (CPU-bound)", "python3 nbody.py", "nbody.py"],
      [`json load + dump, ${JSON_MB} MB`, "python3 j.py", "j.py"],
    ];
    await withToolshed(async ({ run, upload }) => {
      await upload("nbody.py", NBODY);
      await upload("j.py", JSON_SCRIPT);
      await upload("big.json", big);
      console.log(`${"workload".padEnd(36)} ${"python3.11 ms".padStart(14)} ${"toolshed ms".padStart(12)} ${"ratio".padStart(7)}`);
      for (const [name, script, args] of rows) {
        const n = await timed(() => native(`${PYTHON} ${args}`), 3);
        const o = await timed(() => run(script), 3);
        const same = n.ok && o.ok && n.stdout === o.stdout;
        const ratio = n.ok && o.ok ? `${(o.ms / n.ms).toFixed(2)}x` : "-";
        console.log(
          `${name.padEnd(36)} ${n.ms.toFixed(1).padStart(14)} ${(o.ok ? o.ms.toFixed(1) : `FAIL ${o.exit}`).padStart(12)} ${ratio.padStart(7)}${same || !o.ok ? "" : "  (output differs)"}`,
        );
        if (!o.ok) console.log(`  toolshed: ${(o.stderr || "").trim().slice(0, 300)}`);
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
