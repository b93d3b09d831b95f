// Inputs larger than memory: 200 MB of text and 200 MB of line-delimited JSON through GNU
// tools on local disk and through Toolshed's `bash` tool in a real `wrangler dev`, each with
// its time and peak memory. GNU's peak is the process's maximum RSS (/usr/bin/time -f %M);
// Toolshed's is the growth of the workerd process's peak RSS (VmHWM, reset before each
// command through /proc/PID/clear_refs) over its RSS before the command: what the isolate,
// which has 128 MB for everything, needed on top of its resting size. Each row runs in a
// freshly started workerd on the same stored state (BIG_FRESH=0 reuses one), so what earlier
// rows and the uploads left in the process does not hide a row's growth.
import { execFileSync, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { rng } from "./commands.mjs";
import { withToolshed } from "./shell.mjs";

const BYTES = 200 * 1000 * 1000;

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

/** Writes `bytes` of lines made by `line(i)` to `path`, 4 MB at a time. */
async function writeLines(path, bytes, line) {
  const out = createWriteStream(path);
  let total = 0;
  for (let i = 0; total < bytes; ) {
    let block = "";
    while (block.length < 4_000_000 && total + block.length < bytes) block += line(i++);
    total += block.length;
    if (!out.write(block)) await new Promise((r) => out.once("drain", r));
  }
  await new Promise((r) => out.end(r));
}

export const BIG_WORKLOADS = [
  { name: "sort -n", script: "sort -n big.txt > out.txt" },
  { name: "sort -n | uniq -c", script: "sort -n big.txt | uniq -c > out.txt" },
  { name: "uniq -c", script: "uniq -c big.txt > out.txt" },
  { name: "awk sum", script: "awk '{s+=$1} END {print s}' big.txt" },
  { name: "grep -c", script: "grep -c echo big.txt" },
  { name: "sed s///", script: "sed 's/e/E/g' big.txt > out.txt" },
  { name: "cut -d' ' -f2", script: "cut -d' ' -f2 big.txt > out.txt" },
  { name: "wc -l", script: "wc -l big.txt" },
  // The read path alone (workspace into a program's memory), printed as throughput too.
  { name: "cat > /dev/null", script: "cat big.txt > /dev/null", read: true },
  { name: "jq -c", script: "jq -c '{id, v}' big.jsonl > out.txt" },
];

/** CPU time (ms, user + system) a process has used, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN; // the process is gone (wrangler dev reloaded the Worker): no CPU figure for this row
  }
};

/**
 * Peak RSS growth (bytes) and CPU time (ms) of the workerd processes under `pgid` while `fn`
 * runs. CPU time is what a shared, loaded machine distorts least.
 */
export async function peakOf(pgid, fn) {
  const pids = execFileSync("ps", ["-o", "pid=,comm=", "-g", String(pgid)], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes("workerd"))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
  const field = (pid, name) => {
    try {
      return Number(readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${name}:\\s+(\\d+)`))?.[1] ?? 0) * 1024;
    } catch {
      return Number.NaN; // gone (a reload): left out
    }
  };
  const before = new Map();
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
      before.set(pid, field(pid, "VmRSS"));
    } catch {
      /* not ours to reset: reported as unknown */
    }
  }
  const cpu0 = pids.reduce((t, pid) => t + cpuMs(pid), 0);
  const r = await fn();
  const used = pids.reduce((t, pid) => t + cpuMs(pid), 0) - cpu0;
  const cpu = Number.isNaN(used) ? undefined : used;
  let peak;
  for (const [pid, rss] of before) {
    const grew = field(pid, "VmHWM") - rss;
    if (!Number.isNaN(grew)) peak = Math.max(peak ?? 0, grew);
  }
  return { ...r, peak, cpu };
}

/**
 * Each Toolshed row runs in a new workerd (same stored state) unless BIG_FRESH=0: a process's
 * RSS does not shrink back, so after the 200 MB uploads and earlier rows a row's growth read
 * near 0 whatever it needed.
 */
const FRESH = process.env.BIG_FRESH !== "0";

const mb = (n) => (n === undefined ? "n/a" : `${(n / 1e6).toFixed(0)} MB`);

export async function benchBig() {
  // BIG_ROWS="wc -l,grep -c" runs only the rows so named (the inputs are made and uploaded all the same).
  const only = process.env.BIG_ROWS?.split(",").map((n) => n.trim());
  const workloads = BIG_WORKLOADS.filter((w) => !only || only.includes(w.name));
  const dir = mkdtempSync(join(tmpdir(), "toolshed-big-"));
  try {
    const next = rng(42);
    await writeLines(join(dir, "big.txt"), BYTES, () => `${next() % 10_000_000} ${WORDS[next() % 8]}\n`);
    await writeLines(join(dir, "big.jsonl"), BYTES, (i) => `{"id":${i},"name":"${WORDS[i % 8]}","tags":["${WORDS[(i >> 3) % 8]}"],"v":${(i % 1000) / 8}}\n`);
    console.log(
      `inputs: big.txt ${BYTES / 1e6} MB of "N word" lines, big.jsonl ${BYTES / 1e6} MB of JSON lines; one run each (GNU on local disk vs Toolshed via wrangler dev)`,
    );
    const gnu = workloads.map((w) => {
      const t = performance.now();
      const r = spawnSync("/usr/bin/time", ["-f", "%U %S %M", "bash", "-c", w.script], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, LC_ALL: "C" },
        maxBuffer: 1 << 30,
      });
      const ms = performance.now() - t;
      const [user, sys, kb] = r.stderr.trim().split("\n").at(-1).split(" ").map(Number);
      const out = r.stdout + (w.script.includes("> out.txt") ? readFileSync(join(dir, "out.txt")).subarray(-200).toString() : "");
      rmSync(join(dir, "out.txt"), { force: true });
      return { ms, ok: r.status === 0, peak: kb * 1024, cpu: (user + sys) * 1000, out, stderr: r.stderr };
    });
    const ours = [];
    await withToolshed(async ({ run, upload, server: first, restart }) => {
      let server = first;
      await upload("big.txt", readFileSync(join(dir, "big.txt")));
      if (workloads.some((w) => w.script.includes("big.jsonl"))) await upload("big.jsonl", readFileSync(join(dir, "big.jsonl")));
      for (const w of workloads) {
        if (FRESH) {
          // A fresh workerd per row, warmed with a small program run (module and instance
          // start-up are not the row's), so its peak is the row's own growth.
          server = await restart();
          await run("wc -l /dev/null; echo x | grep -c x");
        }
        const r = await peakOf(server.pid, () => run(w.script));
        let out = r.stdout;
        if (w.script.includes("> out.txt")) out += (await run("tail -c 200 out.txt; rm -f out.txt")).stdout;
        ours.push({ ...r, out });
      }
    });
    console.log(
      `${"workload".padEnd(22)} ${"GNU ms".padStart(9)} ${"GNU cpu".padStart(8)} ${"GNU peak".padStart(9)} ${"toolshed ms".padStart(12)} ${"ts cpu".padStart(8)} ${"ts peak".padStart(9)} ${"ratio".padStart(7)} ${"cpu ratio".padStart(9)}`,
    );
    console.log(
      `(cpu: user + system ms; Toolshed's is the workerd processes', which includes serving the call; load average now ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
    );
    workloads.forEach((w, i) => {
      const [g, o] = [gnu[i], ours[i]];
      const cell = (r) => (r.ok ? r.ms.toFixed(0) : `FAIL ${r.exit ?? ""}`);
      const same = g.ok && o.ok && g.out !== o.out ? " ≠" : "";
      const cpuRatio = g.ok && o.ok && o.cpu !== undefined && g.cpu > 0 ? `${(o.cpu / g.cpu).toFixed(2)}x` : "-";
      console.log(
        `${w.name.padEnd(22)} ${cell(g).padStart(9)} ${String(Math.round(g.cpu)).padStart(8)} ${mb(g.peak).padStart(9)} ${cell(o).padStart(12)} ${String(o.cpu ?? "n/a").padStart(8)} ${mb(o.peak).padStart(9)} ${(g.ok && o.ok ? `${(o.ms / g.ms).toFixed(2)}x` : "-").padStart(7)} ${cpuRatio.padStart(9)}${same}`,
      );
      if (w.read && o.ok)
        console.log(
          `    read throughput into the program: ${(BYTES / 1e6 / (o.ms / 1000)).toFixed(0)} MB/s wall, ${o.cpu ? (BYTES / 1e6 / (o.cpu / 1000)).toFixed(0) : "n/a"} MB/s per CPU second`,
        );
      if (!o.ok) console.log(`    toolshed: ${(o.stderr || "").trim().slice(0, 300)}`);
      if (same) console.log(`    output differs: ${JSON.stringify(o.out.slice(-80))} vs GNU ${JSON.stringify(g.out.slice(-80))}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
